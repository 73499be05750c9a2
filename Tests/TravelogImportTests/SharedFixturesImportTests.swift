import Foundation
import Testing
import TravelogFormats
import TravelogImport
import TravelogStore
import TravelogTestSupport

/// Every location file in ../shared/fixtures goes through the real import pipeline: it imports,
/// or it is named as something else than location history; none fails.
@Suite("Importing every real file", .enabled(if: SharedFixtures.available, SharedFixtures.absentReason))
struct SharedFixturesImportTests {
    /// Files that are data about location files (expected outputs, summaries, labels), not
    /// location history to import.
    static func isLocationFile(_ url: URL) -> Bool {
        let name = url.lastPathComponent
        if name.hasPrefix("EXPECTED") || name.contains(".expected") || name.hasSuffix(".chk") { return false }
        if ["README.md", "COPYING", "labels.txt", "osmand_requests.jsonl", "sp_tpls.csv", "tours.csv", "trips.csv"].contains(name) { return false }
        if url.path.contains("/json-client/") || url.path.contains("/binary-receiver-chk/") { return false }
        return ["gpx", "kml", "json", "csv", "nmea", "log", "txt", "rec", "plt", "geojson"].contains(url.pathExtension)
    }

    static var files: [String] {
        guard SharedFixtures.available,
              let walker = FileManager.default.enumerator(at: SharedFixtures.directory, includingPropertiesForKeys: nil)
        else { return [] }
        return walker.compactMap { $0 as? URL }.filter(isLocationFile)
            .map { String($0.path.dropFirst(SharedFixtures.directory.path.count + 1)) }.sorted()
    }

    @Test("each file imports, or is named as not location history", arguments: files)
    func importsOrIsNamed(path: String) async throws {
        let store = InMemoryLocationStore()
        let user = try await store.addUser(named: "fixtures")
        let device = try await store.addDevice(named: "phone", userID: user.id)
        let report = await FileImporter(store: store).importFile(at: SharedFixtures.url(path).path, deviceID: device.id)
        switch report.outcome {
        case .imported:
            let found = report.locationsRead + report.visitsRead + report.rejected + report.skipped.values.reduce(0, +)
            #expect(found > 0 || Self.knownEmpty.contains(path), "\(path) imported nothing and said nothing of what it holds")
        case .skipped(let reason):
            #expect(reason.contains("not location history"), "\(path): \(reason)")
        case .failed(let reason):
            Issue.record("\(path) failed: \(reason)")
        }
    }

    /// Logs that hold no real fix: the receiver was in simulation mode (GGA quality 8, RMC mode S)
    /// or never got a fix; gpsd's own decoding (the .chk files) has no timed position for them either.
    static let knownEmpty: Set<String> = [
        "gpsd/nmea/GPSmap-76S.log", "gpsd/nmea/eXplorist110.log", "gpsd/nmea/garmin-geko201.log",
        "gpsd/nmea/tn200-all.log", "gpsd/nmea/ublox-lea-5q.log",
        // gpxpy's empty documents: a <gpx> element with only namespace declarations.
        "gpxpy/custom_schema_locations.gpx", "gpxpy/default_schema_locations.gpx",
    ]
}
