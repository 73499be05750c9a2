import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogImport
import TravelogStore
import TravelogTestSupport

/// What people wrote on their fixes reaches the store with the fixes: a GPX file's named waypoints
/// and an OwnTracks recorder file's `poi` and `tag`, through `FileImporter`; a fix a drop zone takes
/// out takes its label with it.
@Suite("Labels of imported fixes")
struct LocationLabelImportTests {
    static func texts(_ store: InMemoryLocationStore, _ device: Device) async throws -> [String] {
        try await store.labels(userID: device.userID, deviceIDs: nil, from: nil, to: nil, limit: 100)
            .map { "\($0.label.kind.rawValue):\($0.label.text)" }
    }

    @Test("a GPX file's named waypoints are labels of their fixes; a track point's name is not, nor an empty name")
    func gpxWaypoints() async throws {
        let (store, phone) = try await FileImporterTests.prepared()
        let gpx = """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
              <wpt lat="60.1699" lon="24.9384"><time>2024-05-01T09:00:00Z</time><name>  Summit
            cairn </name></wpt>
              <wpt lat="60.1700" lon="24.9390"><time>2024-05-01T09:05:00Z</time><name> </name></wpt>
              <trk><trkseg>
                <trkpt lat="60.1701" lon="24.9391"><time>2024-05-01T09:10:00Z</time><name>a track point</name></trkpt>
              </trkseg></trk>
            </gpx>
            """
        let path = try FileImporterTests.temporaryFile(gpx, name: "hike.gpx")
        let report = await FileImporter(store: store).importFile(at: path, deviceID: phone.id)
        #expect(!report.failed, "\(report.outcome)")
        #expect(try await Self.texts(store, phone) == ["waypoint:Summit cairn"], "white space cleaned, the line break a space")
    }

    @Test("an OwnTracks recorder file's poi and tag are labels; a drop zone's fix takes its label with it")
    func ownTracksFile() async throws {
        let (store, phone) = try await FileImporterTests.prepared()
        let zone = try ZoneDefinition(name: "home", shape: .circle(Circle(center: try Coordinate(latitude: 52.0, longitude: 13.0),
                                                                          radiusMeters: 200)), rule: .drop)
        _ = try await store.addZone(zone, userID: phone.userID, at: Date())
        let lines = [
            "2024-05-01T10:00:00Z\t*                 \t" + #"{"_type":"location","lat":52.5,"lon":13.4,"tst":1714557600,"poi":"Lunch","tag":"work"}"#,
            "2024-05-01T10:01:00Z\t*                 \t" + #"{"_type":"location","lat":52.0,"lon":13.0,"tst":1714557660,"poi":"Inside the zone"}"#,
            "2024-05-01T10:02:00Z\t*                 \t" + #"{"_type":"location","lat":52.6,"lon":13.4,"tst":1714557720,"poi":{"x":1},"tag":""}"#,
        ]
        let path = try FileImporterTests.temporaryFile(lines.joined(separator: "\n") + "\n", name: "2024-05.rec")
        let report = await FileImporter(store: store).importFile(at: path, deviceID: phone.id)
        #expect(!report.failed, "\(report.outcome)")
        #expect(report.locationsRead == 3, "a wrong poi is no label, never a lost fix")
        #expect(try await Self.texts(store, phone) == ["poi:Lunch", "tag:work"])
    }
}
