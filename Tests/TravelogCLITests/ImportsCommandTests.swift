import Foundation
import Testing
@testable import TravelogCLI
import TravelogSQLite
import TravelogStore

@Suite("travelog imports")
struct ImportsCommandTests {
    typealias Workspace = ImportExportCommandTests.Workspace

    @Test("list, then discard one import with its locations and the visit detected from them; only once, only one's own")
    func discard() async throws {
        let workspace = try Workspace()
        let walk = try workspace.file("walk.csv", ImportExportCommandTests.walk)
        let stay = try workspace.file("stay.csv", "time,lat,lon\n"
            + (0...40).map { String(format: "2024-06-01T09:%02d:00Z,48.137,11.575\n", $0) }.joined()
            + "2024-06-01T09:45:00Z,48.147,11.585\n2024-06-01T09:50:00Z,48.157,11.595\n")
        let db = ["--db", workspace.database, "--user", "ada"]
        try await ImportExportCommandTests.run(["import"] + db + [walk, stay])
        let store = try SQLiteLocationStore(path: workspace.database)
        let ada = try #require(try await store.user(named: "ada"))
        _ = try await store.addUser(named: "bob")
        #expect(try await store.visits(userID: ada.id, deviceIDs: nil, from: nil, to: nil, includeHidden: false).count == 1)
        try await ImportExportCommandTests.run(["imports", "list"] + db)
        let stayImport = try #require(try await store.imports(userID: ada.id).first { $0.provenance.fileName == "stay.csv" })
        await #expect(throws: (any Error).self) {
            try await ImportExportCommandTests.run(["imports", "discard", "\(stayImport.id.rawValue)", "--db", workspace.database, "--user", "bob"])
        }
        try await ImportExportCommandTests.run(["imports", "discard", "\(stayImport.id.rawValue)"] + db)
        #expect(try await store.imports(userID: ada.id).map(\.provenance.fileName) == ["walk.csv"])
        #expect(try await store.locations(LocationQuery(userID: ada.id)).count == 3)
        #expect(try await store.visits(userID: ada.id, deviceIDs: nil, from: nil, to: nil, includeHidden: false).isEmpty, "the stay's visit went with its fixes")
        await #expect(throws: (any Error).self) {
            try await ImportExportCommandTests.run(["imports", "discard", "\(stayImport.id.rawValue)"] + db)
        }
    }
}
