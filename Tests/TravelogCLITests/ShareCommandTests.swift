import ArgumentParser
import Foundation
import Testing
@testable import TravelogCLI
import TravelogSQLite
import TravelogStore

@Suite("travelog share")
struct ShareCommandTests {
    typealias Workspace = ImportExportCommandTests.Workspace

    @Test("create keeps what was asked (--photos, --hide-visits, the day in its zone), list shows it, revoke ends it; mistakes make no link")
    func createListRevoke() async throws {
        let workspace = try Workspace()
        let store = try SQLiteLocationStore(path: workspace.database)
        let ada = try await store.addUser(named: "ada")
        let db = ["--db", workspace.database, "--user", "ada"]
        try await ImportExportCommandTests.run(["share", "create", "--day", "2024-05-02", "--timezone", "Europe/Helsinki", "--photos",
                                                "--title", "A walk", "--json"] + db)
        try await ImportExportCommandTests.run(["share", "create", "--from", "2024-05-01", "--to", "2024-05-03", "--hide-visits"] + db)
        for arguments in [["--day", "2024-05-02", "--trip", "1"], ["--from", "2024-05-01"], ["--day", "2 May"],
                          ["--day", "2024-05-02", "--timezone", "Mars/Olympus"], ["--from", "2020-01-01", "--to", "2024-01-01"]] {
            await #expect(throws: (any Error).self, "\(arguments)") {
                try await ImportExportCommandTests.run(["share", "create"] + arguments + db)
            }
        }
        let shares = try await store.shares(userID: ada.id)
        #expect(shares.count == 2, "the mistakes made no link")
        let range = try #require(shares.first), day = try #require(shares.last)
        #expect(day.record.includePhotos && !day.record.hideVisits && day.record.title == "A walk")
        #expect(day.record.from == ISO8601DateFormatter().date(from: "2024-05-01T21:00:00Z"), "midnight in Helsinki (UTC+3 in May)")
        #expect(!range.record.includePhotos && range.record.hideVisits)
        #expect(ShareOutput.line(day, now: Date()).contains("  photos  ") && !ShareOutput.line(range, now: Date()).contains("photos"))
        try await ImportExportCommandTests.run(["share", "list", "--json"] + db)
        try await ImportExportCommandTests.run(["share", "revoke", String(day.id.rawValue)] + db)
        #expect(try await store.shares(userID: ada.id).last?.revokedAt != nil)
    }
}
