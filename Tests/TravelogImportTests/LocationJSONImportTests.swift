import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogImport
import TravelogStore

/// The two rules of the issue, end to end: a wrong record is counted and reported, not stored; a
/// broken file stores nothing. A `.rec` line with broken JSON is a wrong record of a log.
@Suite("Importing GeoJSON and OwnTracks files")
struct LocationJSONImportTests {
    static let line = "2024-03-01T09:03:09Z\t*                 \t"

    @Test("an OwnTracks log with a broken line stores the other lines and reports the broken one")
    func brokenLogLine() async throws {
        let (store, phone) = try await FileImporterTests.prepared()
        let text = Self.line + #"{"_type":"location","lat":52.2,"lon":13.3,"tst":1709283789}"# + "\n"
            + Self.line + #"{"_type":"location","lat":52.2,"lo"# + "\n"
            + Self.line + #"{"_type":"location","lat":52.3,"lon":13.4,"tst":1709283800}"# + "\n"
            + Self.line + #"{"_type":"transition","event":"enter","lat":52.3,"lon":13.4,"tst":1709283801}"# + "\n"
        let path = try FileImporterTests.temporaryFile(text, name: "2024-03.rec")
        let report = await FileImporter(store: store).importFile(at: path, deviceID: phone.id)
        #expect(!report.failed)
        #expect(report.format == .owntracks)
        #expect(report.locationsRead == 2)
        #expect(report.rejected == 1)
        #expect(report.rejections.map(\.position.line) == [2])
        #expect(try await store.locations(LocationQuery(userID: phone.userID)).count == 2)
    }

    @Test("a truncated GeoJSON file fails with its position and stores nothing, not even its first features")
    func truncatedGeoJSON() async throws {
        let (store, phone) = try await FileImporterTests.prepared()
        let feature = #"{"type":"Feature","geometry":{"type":"Point","coordinates":[13.4,52.5]},"properties":{"timestamp":1609459201}}"#
        let text = #"{"type":"FeatureCollection","features":["# + "\n" + feature + ",\n" + feature + ",\n" + feature.prefix(50)
        let path = try FileImporterTests.temporaryFile(text, name: "export.geojson")
        let report = await FileImporter(store: store).importFile(at: path, deviceID: phone.id)
        guard case .failed(let reason) = report.outcome else {
            Issue.record("expected a failure, got \(report.outcome)")
            return
        }
        #expect(reason == FormatError.truncated(SourcePosition(byteOffset: 315, line: 4, column: 51),
                                                expected: "the rest of a string").description)
        #expect(try await store.locations(LocationQuery(userID: phone.userID)).isEmpty)
    }

    @Test("a GeoJSON feature with a latitude of 200 is counted and reported; the others are stored")
    func wrongFeature() async throws {
        let (store, phone) = try await FileImporterTests.prepared()
        let text = #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[13.4,200]},"properties":{"timestamp":1609459201}},{"type":"Feature","geometry":{"type":"Point","coordinates":[13.4,52.5]},"properties":{"timestamp":1609459202}}]}"#
        let path = try FileImporterTests.temporaryFile(text, name: "export.geojson")
        let report = await FileImporter(store: store).importFile(at: path, deviceID: phone.id)
        #expect(report.format == .geojson)
        #expect(report.locationsRead == 1)
        #expect(report.rejections.map(\.reason) == [.invalidCoordinate(.latitudeOutOfRange(200))])
        #expect(try await store.locations(LocationQuery(userID: phone.userID)).count == 1)
    }
}
