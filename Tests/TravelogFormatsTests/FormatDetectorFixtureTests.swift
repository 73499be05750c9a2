import Foundation
import Testing
import TravelogFormats
import TravelogTestSupport

/// Detection against real files from other projects (../shared/fixtures).
@Suite("Format detection on real files", .enabled(if: SharedFixtures.available, SharedFixtures.absentReason))
struct FormatDetectorFixtureTests {
    static func detect(_ relativePath: String) throws -> FormatDetector.Detection {
        let handle = try FileHandle(forReadingFrom: SharedFixtures.url(relativePath))
        defer { try? handle.close() }
        let prefix = try handle.read(upToCount: FormatDetector.prefixLength) ?? Data()
        return FormatDetector.detect(prefix: Array(prefix))
    }

    @Test("each real file is recognised as what it is", arguments: [
        ("gpsbabel/google-semantic-history/2013/2013_MAY.json", FileFormat.googleSemantic),
        ("dawarich/google/semantic_history.json", .googleSemantic),
        ("dawarich/google/edge_cases/semantic_history_with_bom.json", .googleSemantic),
        ("dawarich/google/location-history/with_placeVisit_with_location_with_coordinates.json", .googleSemantic),
        ("dawarich/google/location-history/with_activitySegment_with_startLocation_timestampMs.json", .googleSemantic),
        ("dawarich/google/records.json", .googleRecords),
        ("reitti/google/Records.json", .googleRecords),
        ("reitti/google/timeline_from_android_randomized.json", .googleTimeline),
        ("dawarich/google/location-history.json", .googleTimelineIOS),
        ("overland/readme_example.json", .geojson),
        ("dawarich/overland/geodata.json", .geojson),
        ("dawarich/geojson/export.json", .geojson),
        ("dawarich/geojson/gpslogger_example.json", .geojson),
        ("gpsbabel/nmea/nmea.txt", .nmea),
        ("gpsbabel/nmea/nmea_utf16.txt", .nmea),
        ("gpsd/nmea/bu353s4.log", .nmea),
        ("dawarich/owntracks/2024-03.rec", .owntracks),
        ("owntracks/recorder/demo-iphone.rec", .owntracks),
        ("trackintel-geolife/geolife_long/000/Trajectory/20081023025304.plt", .geolife),
        ("dawarich/csv/gpslogger.csv", .csv),
        ("dawarich/csv/e7_integers.csv", .csv),
        ("dawarich/csv/unix_timestamps.csv", .csv),
        ("dawarich/csv/quoted_headers.csv", .csv),
        ("reitti/raw/trip_1.csv", .csv),
        ("dawarich/gpx/garmin_example.gpx", .gpx),
        ("gpxpy/unicode_with_bom.gpx", .gpx),
        ("dawarich/kml/gx_track.kml", .kml),
        ("gpsbabel/kml/google_ext.kml", .kml),
    ])
    func recognised(path: String, format: FileFormat) throws {
        #expect(try Self.detect(path) == .format(format))
    }

    @Test("Google's settings file is named as not location history")
    func settings() throws {
        guard case .notLocationHistory = try Self.detect("dawarich/google/edge_cases/device_settings.json") else {
            Issue.record("device_settings.json was not recognised as a settings file")
            return
        }
    }
}
