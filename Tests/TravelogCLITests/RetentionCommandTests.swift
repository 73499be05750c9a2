import ArgumentParser
import Foundation
import Testing
@testable import TravelogCLI
import TravelogCore
import TravelogSQLite
import TravelogStore

@Suite("travelog retention")
struct RetentionCommandTests {
    typealias Workspace = ImportExportCommandTests.Workspace

    @Test("set (days, weeks, years, off, default; 18m and --journal with default refused), preview, show, info; run refuses without a terminal unless --yes, then deletes the old fixes only")
    func sequence() async throws {
        RetentionCommand.Run.standardInputIsTerminal = { false }
        let workspace = try Workspace()
        let store = try SQLiteLocationStore(path: workspace.database)
        let ada = try await store.addUser(named: "ada")
        let phone = try await store.addDevice(named: "phone", userID: ada.id)
        let now = Date()
        _ = try await store.insert([1000.0, 999, 10].enumerated().map { index, daysAgo in
            StoredLocation(deviceID: phone.id, location: Location(coordinate: Coordinate(validLatitude: 60.1 + Double(index) / 100, longitude: 24.9)!,
                                                                  timestamp: now.addingTimeInterval(-daysAgo * 86_400)), source: .overland)
        })
        let db = ["--db", workspace.database]
        for arguments in [["retention", "set", "18m"], ["retention", "set", "0d"], ["retention", "set", "default", "--journal", "keep"],
                          ["retention", "set", "365d", "--journal", "shred"], ["retention", "run"]] {
            await #expect(throws: (any Error).self, "\(arguments)") { try await ImportExportCommandTests.run(arguments + db) }
        }
        try await ImportExportCommandTests.run(["retention", "set", "2y", "--journal", "delete"] + db)
        #expect(try await store.retentionSetting(userID: ada.id) == (try RetentionSetting(days: 730, journal: .delete)))
        try await ImportExportCommandTests.run(["retention", "set", "52w"] + db)
        #expect(try await store.retentionSetting(userID: ada.id) == (try RetentionSetting(days: 364, journal: .keep)))
        for arguments in [["retention"], ["retention", "show", "--json"], ["retention", "preview"], ["retention", "preview", "--json"], ["info"]] {
            try await ImportExportCommandTests.run(arguments + db)
        }
        await #expect(throws: RetentionCommandError.self) { try await ImportExportCommandTests.run(["retention", "run"] + db) }
        #expect(try await store.locations(LocationQuery(userID: ada.id)).count == 3)
        try await ImportExportCommandTests.run(["retention", "run", "--yes"] + db)
        #expect(try await store.locations(LocationQuery(userID: ada.id)).map(\.location.coordinate.latitude) == [60.12])
        #expect(try await store.lastRetentionRun(userID: ada.id)?.deletedFixes == 2)
        try await ImportExportCommandTests.run(["retention", "set", "off"] + db)
        #expect(try await store.retentionSetting(userID: ada.id) == .off)
        try await ImportExportCommandTests.run(["retention", "set", "default"] + db)
        #expect(try await store.retentionSetting(userID: ada.id) == nil)
        await #expect(throws: RetentionCommandError.self) { try await ImportExportCommandTests.run(["retention", "run", "--yes"] + db) }
    }
}
