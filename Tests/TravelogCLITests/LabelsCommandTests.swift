import ArgumentParser
import Foundation
import Testing
@testable import TravelogCLI
import TravelogCore
import TravelogSQLite
import TravelogStore

/// `travelog labels`: a GPX file's named waypoints, imported with `travelog import`, listed as lines
/// and as JSON.
@Suite("travelog labels")
struct LabelsCommandTests {
    @Test("an imported GPX's named waypoint is listed by travelog labels: a line, and JSON; a control character kept as a space")
    func importedWaypoints() async throws {
        let workspace = try ImportExportCommandTests.Workspace()
        let gpx = try workspace.file("hike.gpx", """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
              <wpt lat="60.1699" lon="24.9384"><time>2024-05-01T09:00:00Z</time><name>Summit \u{1B}[2J</name></wpt>
              <trk><trkseg><trkpt lat="60.1701" lon="24.9391"><time>2024-05-01T09:10:00Z</time></trkpt></trkseg></trk>
            </gpx>
            """)
        try await ImportExportCommandTests.run(["import", "--db", workspace.database, "--user", "ada", "--device", "gps", gpx])
        try await ImportExportCommandTests.run(["labels", "--db", workspace.database, "--user", "ada", "--from", "2024-05-01"])
        let store = try SQLiteLocationStore(path: workspace.database)
        let ada = try #require(try await store.user(named: "ada"))
        let gps = try #require(try await store.device(named: "gps", userID: ada.id))
        let labels = try await store.labels(userID: ada.id, deviceIDs: nil, from: nil, to: nil, limit: 10)
        // A control character in what a file or phone sends becomes a space when kept.
        #expect(labels.map(\.label.text) == ["Summit  [2J"])
        let text = try LabelsCommand.output(labels, deviceNames: [gps.id: "gps"], json: false)
        #expect(text == "2024-05-01T09:00:00Z\tgps\twaypoint\tSummit  [2J\t60.169900, 24.938400", "\(text)")
        let json = try LabelsCommand.output(labels, deviceNames: [gps.id: "gps"], json: true)
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(objects.first?["kind"] as? String == "waypoint")
        #expect(objects.first?["text"] as? String == "Summit  [2J")
        #expect(try LabelsCommand.output([], deviceNames: [:], json: false) == "no labels in this range")
        #expect(throws: (any Error).self) { try TravelogCommand.parseAsRoot(["labels", "--limit", "0"]) }
    }
}
