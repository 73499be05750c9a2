import ArgumentParser
import Foundation
import Testing
@testable import TravelogCLI
import TravelogCore
import TravelogSQLite
import TravelogStore

@Suite("travelog zones")
struct ZonesCommandTests {
    typealias Workspace = ImportExportCommandTests.Workspace

    static func run(_ arguments: [String]) async throws {
        try await ImportExportCommandTests.run(arguments)
    }

    /// The stored fixes whose latitude is that of the walk's far end (600 m north of home).
    static func atTheFarEnd(_ store: SQLiteLocationStore, _ user: User) async throws -> Int {
        try await store.locations(LocationQuery(userID: user.id)).filter { abs($0.location.coordinate.latitude - 52.5254) < 0.0001 }.count
    }

    @Test("zones are added (circle or polygon, hide or drop), listed and removed; a drop zone over stored fixes asks first, and refuses without a terminal unless --yes")
    func addListRemove() async throws {
        ZonesCommand.Add.standardInputIsTerminal = { false }
        let workspace = try Workspace()
        let store = try SQLiteLocationStore(path: workspace.database)
        let ada = try await store.addUser(named: "ada")
        let db = ["--db", workspace.database]
        try await Self.run(["zones", "add", "home", "--circle", "52.52,13.405,150", "--hide"] + db)
        let park = try workspace.file("park.geojson", #"{"type":"Polygon","coordinates":[[[13.30,52.50],[13.32,52.50],[13.32,52.52],[13.30,52.50]]]}"#)
        try await Self.run(["zones", "add", "park", "--polygon", park, "--drop"] + db)
        for arguments in [["zones", "add", "home", "--circle", "52.52,13.405,150", "--hide"],     // taken
                          ["zones", "add", "x", "--circle", "52.52,13.405,150"],                  // no rule
                          ["zones", "add", "x", "--circle", "52.52,13.405,150", "--hide", "--drop"],
                          ["zones", "add", "x", "--circle", "95,13.405,150", "--hide"],
                          ["zones", "add", "x", "--circle", "52.52,13.405,150", "--hide", "--yes"],
                          ["zones", "remove", "nowhere"]] {
            await #expect(throws: (any Error).self, "\(arguments)") { try await Self.run(arguments + db) }
        }
        #expect(try await store.zones(userID: ada.id).map(\.definition.name) == ["home", "park"])
        try await Self.run(["import", try workspace.file("day.geojson", RegionsCommandTests.day()), "--device", "phone"] + db)
        let far = try await Self.atTheFarEnd(store, ada)
        let farCentre = try Coordinate(latitude: 52.5254, longitude: 13.405)
        let within = try await store.locations(LocationQuery(userID: ada.id)).filter { $0.location.coordinate.distanceMeters(to: farCentre) <= 100 }.count
        #expect(far >= 60 && within >= far)
        // The walk's far end holds stored fixes: without a terminal and without --yes nothing is added or deleted.
        await #expect(throws: ZonesCommandError.self) {
            try await Self.run(["zones", "add", "far", "--circle", "52.5254,13.405,100", "--drop"] + db)
        }
        #expect(try await store.zones(userID: ada.id).count == 2)
        #expect(try await Self.atTheFarEnd(store, ada) == far)
        try await Self.run(["zones", "add", "far", "--circle", "52.5254,13.405,100", "--drop", "--yes"] + db)
        #expect(try await Self.atTheFarEnd(store, ada) == 0)
        let summary = try await store.deviceSummaries(userID: ada.id)
        #expect(summary.map(\.locationCount) == [240 - within], "\(summary)")
        #expect(try await store.locations(LocationQuery(userID: ada.id)).count == 240 - within)
        for arguments in [["zones"], ["zones", "list"], ["zones", "list", "--json"], ["info"], ["info", "--json"]] {
            try await Self.run(arguments + db)
        }
        try await Self.run(["zones", "remove", "home"] + db)
        #expect(try await store.zones(userID: ada.id).map(\.definition.name) == ["park", "far"])
    }

    @Test("an import's fixes inside a drop zone are not stored, and counted per day")
    func dropsOnImport() async throws {
        let workspace = try Workspace()
        let store = try SQLiteLocationStore(path: workspace.database)
        let ada = try await store.addUser(named: "ada")
        let db = ["--db", workspace.database]
        try await Self.run(["zones", "add", "home", "--circle", "52.52,13.405,150", "--drop"] + db)
        try await Self.run(["import", try workspace.file("day.geojson", RegionsCommandTests.day()), "--device", "phone"] + db)
        let stored = try await store.locations(LocationQuery(userID: ada.id))
        let home = try Coordinate(latitude: 52.52, longitude: 13.405)
        #expect(!stored.isEmpty && stored.allSatisfy { $0.location.coordinate.distanceMeters(to: home) > 150 })
        let dropped = try await store.zoneDrops(userID: ada.id)
        #expect(dropped.count == 1 && dropped.first?.day == "2024-06-01" && dropped.first?.count == 240 - stored.count)
        try await Self.run(["info", "--json"] + db)
    }
}
