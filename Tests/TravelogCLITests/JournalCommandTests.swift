import ArgumentParser
import Foundation
import Testing
@testable import TravelogCLI
import TravelogCore
import TravelogSQLite
import TravelogStore
import TravelogTestSupport

@Suite("travelog visits, trips and places")
struct JournalCommandTests {
    typealias Workspace = ImportExportCommandTests.Workspace

    /// A GPX day: home from 06:00 to 08:00 UTC, a 30-minute walk, the office until 12:00, the walk
    /// back, home until 14:00. A fix a minute.
    static func dayGPX(skipping skipped: Set<Int> = []) -> String {
        let home = (52.52, 13.405), work = (52.50, 13.45)
        var points = ""
        for minute in 0..<(8 * 60) where !skipped.contains(minute) {
            let position: (Double, Double)
            switch minute {
            case ..<120: position = home
            case 120..<150:
                let t = Double(minute - 120) / 30
                position = (home.0 + (work.0 - home.0) * t, home.1 + (work.1 - home.1) * t)
            case 150..<360: position = work
            case 360..<390:
                let t = Double(minute - 360) / 30
                position = (work.0 + (home.0 - work.0) * t, work.1 + (home.1 - work.1) * t)
            default: position = home
            }
            let time = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: 1_717_221_600 + Double(minute) * 60))
            points += #"<trkpt lat="\#(position.0)" lon="\#(position.1)"><time>\#(time)</time></trkpt>"#
        }
        return #"<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"#
            + points + "</trkseg></trk></gpx>"
    }

    static func visits(_ database: String, hidden: Bool = false) async throws -> [StoredVisit] {
        let store = try SQLiteLocationStore(path: database)
        let user = try #require(try await store.user(named: "ada"))
        return try await store.visits(userID: user.id, deviceIDs: nil, from: nil, to: nil, includeHidden: hidden)
    }

    @Test("an imported day becomes three entries; a rename and a delete survive importing the day again with more fixes")
    func importAndEdit() async throws {
        let workspace = try Workspace()
        let noGazetteer = ["--gazetteer", workspace.directory.appendingPathComponent("none.tlgaz").path]
        let partial = try workspace.file("partial.gpx", Self.dayGPX(skipping: Set(stride(from: 150, to: 360, by: 3))))
        try await ImportExportCommandTests.run(["import", "--db", workspace.database, "--user", "ada", partial, "--device", "phone"])
        let first = try await Self.visits(workspace.database)
        #expect(first.count == 3)
        // The day is long past: its last stay ended at its last fix, it is not going on.
        #expect(first.last?.visit.departure == Date(timeIntervalSince1970: 1_717_221_600 + 479 * 60))
        try await ImportExportCommandTests.run(["visits", "rename", "--db", workspace.database, String(first[0].id.rawValue), "Breakfast"] + noGazetteer)
        try await ImportExportCommandTests.run(["visits", "delete", "--db", workspace.database, String(first[1].id.rawValue)] + noGazetteer)
        let full = try workspace.file("full.gpx", Self.dayGPX())
        try await ImportExportCommandTests.run(["import", "--db", workspace.database, "--user", "ada", full, "--device", "phone"])
        try await ImportExportCommandTests.run(["visits", "--db", workspace.database, "--json"] + noGazetteer)
        let after = try await Self.visits(workspace.database)
        #expect(after.map(\.id) == [first[0].id, first[2].id])
        #expect(after.first?.title == "Breakfast")
        #expect(try await Self.visits(workspace.database, hidden: true).count == 3)
        try await ImportExportCommandTests.run(["trips", "--db", workspace.database] + noGazetteer)
        try await ImportExportCommandTests.run(["places", "--db", workspace.database, "--json"] + noGazetteer)
        try await ImportExportCommandTests.run(["stats", "--whereabouts", "--db", workspace.database] + noGazetteer)
    }

    @Test("Google's place visits are kept with their source and name")
    func googleVisits() async throws {
        let workspace = try Workspace()
        let semantic = """
            {"timelineObjects": [{"placeVisit": {
              "location": {"latitudeE7": 374850711, "longitudeE7": -1221474242, "placeId": "ChIJ", "name": "Facebook",
                           "address": "1 Hacker Way, Menlo Park"},
              "duration": {"startTimestamp": "2013-05-09T01:24:28.883Z", "endTimestamp": "2013-05-09T16:55:16.119Z"}}}]}
            """
        let file = try workspace.file("2013_MAY.json", semantic)
        try await ImportExportCommandTests.run(["import", "--db", workspace.database, "--user", "ada", file])
        try await ImportExportCommandTests.run(["import", "--db", workspace.database, "--user", "ada", file])
        let visits = try await Self.visits(workspace.database)
        #expect(visits.count == 1)
        #expect(visits.first?.visit.source == .google)
        #expect(visits.first?.visit.name == "Facebook")
        #expect(visits.first?.visit.departure == Date(timeIntervalSince1970: 1_368_118_516.119))
    }

    @Test("merging needs two entries of one device; an unknown entry is an error")
    func editErrors() async throws {
        let workspace = try Workspace()
        let day = try workspace.file("day.gpx", Self.dayGPX())
        try await ImportExportCommandTests.run(["import", "--db", workspace.database, "--user", "ada", day])
        let visits = try await Self.visits(workspace.database)
        await #expect(throws: (any Error).self) {
            try await ImportExportCommandTests.run(["visits", "delete", "--db", workspace.database, "999"])
        }
        await #expect(throws: (any Error).self) {
            try await ImportExportCommandTests.run(["visits", "merge", "--db", workspace.database, String(visits[0].id.rawValue)])
        }
        try await ImportExportCommandTests.run(["visits", "merge", "--db", workspace.database,
                                                String(visits[0].id.rawValue), String(visits[1].id.rawValue)])
        let merged = try await Self.visits(workspace.database)
        #expect(merged.first?.mergedUntil == visits[1].visit.departure)
    }
}
