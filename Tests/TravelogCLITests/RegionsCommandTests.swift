import ArgumentParser
import Foundation
import Testing
@testable import TravelogCLI
import TravelogCore
import TravelogSQLite
import TravelogServer
import TravelogStore

@Suite("travelog regions")
struct RegionsCommandTests {
    typealias Workspace = ImportExportCommandTests.Workspace

    static func run(_ arguments: [String]) async throws {
        try await ImportExportCommandTests.run(arguments)
    }

    /// Two hours at home, a walk 600 m north and an hour there, and home again: a fix a minute (GeoJSON).
    static func day() -> String {
        let features = (0..<240).map { minute -> String in
            let north = minute < 120 ? 0 : minute < 130 ? Double(minute - 120) * 60 : minute < 190 ? 600 : minute < 200 ? Double(200 - minute) * 60 : 0
            let time = Date(timeIntervalSince1970: 1_717_221_600 + Double(minute) * 60)   // 2024-06-01T06:00Z
            return #"{"type":"Feature","geometry":{"type":"Point","coordinates":[13.405,\#(52.52 + north / 111_200)]},"properties":{"timestamp":"\#(ISO8601DateFormatter().string(from: time))","horizontal_accuracy":8}}"#
        }
        return #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#
    }

    @Test("regions are added from a circle or a GeoJSON polygon, an import crosses them, and they are removed")
    func addImportRemove() async throws {
        let workspace = try Workspace()
        let store = try SQLiteLocationStore(path: workspace.database)
        let ada = try await store.addUser(named: "ada")
        let db = ["--db", workspace.database]
        try await Self.run(["regions", "add", "home", "--circle", "52.52,13.405,150"] + db)
        let park = try workspace.file("park.geojson", #"{"type":"Polygon","coordinates":[[[13.30,52.50],[13.32,52.50],[13.32,52.52],[13.30,52.50]]]}"#)
        try await Self.run(["regions", "add", "park", "--polygon", park, "--no-exit"] + db)
        for arguments in [["regions", "add", "home", "--circle", "52.52,13.405,150"],      // taken
                          ["regions", "add", "zero", "--circle", "52.52,13.405,0"],
                          ["regions", "add", "nan", "--circle", "52.52,13.405,nan"],
                          ["regions", "add", "pole", "--circle", "95,13.405,150"],
                          ["regions", "add", "two", "--circle", "52.52,13.405"],
                          ["regions", "add", "both", "--circle", "52.52,13.405,150", "--polygon", park],
                          ["regions", "remove", "nowhere"]] {
            await #expect(throws: (any Error).self, "\(arguments)") { try await Self.run(arguments + db) }
        }
        let regions = try await store.regions(userID: ada.id)
        #expect(regions.map(\.definition.name) == ["home", "park"])
        #expect(regions.last?.definition.notifyOnExit == false)
        try await Self.run(["import", try workspace.file("day.geojson", Self.day()), "--device", "phone"] + db)
        let transitions = try await store.transitions(userID: ada.id, regionID: regions[0].id, from: nil, to: nil)
        #expect(transitions.map(\.transition.kind) == [.exit, .entry])
        for arguments in [["regions", "list"], ["regions", "list", "--json"], ["regions", "state"], ["regions", "state", "--json"],
                          ["regions", "transitions", "--from", "2024-06-01", "--to", "2024-06-01"], ["regions", "transitions", "--json"],
                          ["regions", "transitions", "--region", "home"]] {
            try await Self.run(arguments + db)
        }
        try await Self.run(["regions", "remove", "home"] + db)
        #expect(try await store.regions(userID: ada.id).map(\.definition.name) == ["park"])
        #expect(try await store.transitions(userID: ada.id, regionID: nil, from: nil, to: nil).isEmpty)
    }

    @Test("a transition reads as a line in the local time: \"left home\"")
    func line() throws {
        let transition = try JSONDecoder().decode(RegionTransitionJSON.self, from: Data(#"""
            {"id":1,"region":1,"regionName":"home","device":"phone","transition":"exit","time":"2024-06-01T06:12:00Z","source":"detected"}
            """#.utf8))
        #expect(RegionsOutput.line(transition, timeZone: TimeZone(identifier: "Europe/Berlin")!) == "2024-06-01 08:12\tleft home\t(phone, detected)")
    }
}
