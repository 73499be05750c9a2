import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogTestSupport

/// The Google readers against every Google file in ../shared/fixtures (Dawarich's and Reitti's
/// test data, GPSBabel's real Semantic Location History month with GPSBabel's expected GPX).
@Suite("Google readers: the real files in ../shared/fixtures", .enabled(if: SharedFixtures.available, SharedFixtures.absentReason))
struct GoogleSharedFixtureTests {
    /// Counts read off each file (with a script over the JSON, not with Travelog).
    struct Expected: Sendable, CustomTestStringConvertible {
        var path: String
        var format: FileFormat
        var points: Int
        var untimedPoints: Int
        var visits: Int
        var testDescription: String { path }
    }

    static let files: [Expected] = [
        Expected(path: "dawarich/google/records.json", format: .googleRecords, points: 3, untimedPoints: 0, visits: 0),
        Expected(path: "reitti/google/Records.json", format: .googleRecords, points: 95, untimedPoints: 0, visits: 0),
        // Three activities whose start and end locations are empty: two waypoints each.
        // Its activities have start and end times but only waypoints: the waypoints are timed between them.
        Expected(path: "dawarich/google/semantic_history.json", format: .googleSemantic, points: 6, untimedPoints: 0, visits: 0),
        Expected(path: "dawarich/google/edge_cases/semantic_history_with_bom.json", format: .googleSemantic, points: 2, untimedPoints: 0, visits: 0),
        Expected(path: "dawarich/google/location-history/with_activitySegment_with_startLocation.json", format: .googleSemantic, points: 1, untimedPoints: 0, visits: 0),
        Expected(path: "dawarich/google/location-history/with_activitySegment_with_startLocation_timestampMs.json", format: .googleSemantic, points: 1, untimedPoints: 0, visits: 0),
        Expected(path: "dawarich/google/location-history/with_activitySegment_with_startLocation_timestamp_in_seconds_format.json", format: .googleSemantic, points: 1, untimedPoints: 0, visits: 0),
        Expected(path: "dawarich/google/location-history/with_activitySegment_without_startLocation.json", format: .googleSemantic, points: 1, untimedPoints: 1, visits: 0),
        Expected(path: "dawarich/google/location-history/with_placeVisit_with_location_with_coordinates.json", format: .googleSemantic, points: 0, untimedPoints: 0, visits: 1),
        Expected(path: "dawarich/google/location-history/with_placeVisit_with_location_with_coordinates_with_iso_timestamp.json", format: .googleSemantic, points: 0, untimedPoints: 0, visits: 1),
        Expected(path: "dawarich/google/location-history/with_placeVisit_without_location_with_coordinates_with_otherCandidateLocations.json", format: .googleSemantic, points: 0, untimedPoints: 0, visits: 1),
        // 51 visits; 84 activities: 296 start/waypoint/end points (224 waypoints untimed), 82 raw; 46 raw in visits.
        Expected(path: "gpsbabel/google-semantic-history/2013/2013_MAY.json", format: .googleSemantic, points: 424, untimedPoints: 150, visits: 51),
        // 80 path points, 5 activities × 2 ends, 3 raw positions; 7 visits.
        Expected(path: "reitti/google/timeline_from_android_randomized.json", format: .googleTimeline, points: 93, untimedPoints: 0, visits: 6),
        // 10 path points (3 repeated), 1 visit, a timelineMemory without coordinates.
        Expected(path: "dawarich/google/location-history.json", format: .googleTimelineIOS, points: 10, untimedPoints: 0, visits: 1),
    ]

    @Test("each file is detected as its format and read to the expected counts, with no rejection", arguments: files)
    func counts(expected: Expected) throws {
        let result = try FileReading.readShared(expected.path)
        #expect(result.format == expected.format)
        #expect(result.points.count == expected.points)
        #expect(result.points.filter { $0.position.location == nil }.count == expected.untimedPoints)
        #expect(result.visits.count == expected.visits)
        #expect(result.rejections.isEmpty, "\(result.rejections)")
    }

    @Test("each file gives the same records read in 7-byte and 1 KiB chunks", arguments: files)
    func chunked(expected: Expected) throws {
        let url = SharedFixtures.url(expected.path)
        let whole = try FileReading.read(url).records
        #expect(try FileReading.read(url, chunkBytes: 7).records == whole)
        #expect(try FileReading.read(url, chunkBytes: 1024).records == whole)
    }

    @Test("Records.json values match the files")
    func recordsValues() throws {
        let dawarich = try FileReading.readShared("dawarich/google/records.json").points.compactMap(\.position.location)
        #expect(dawarich[0].coordinate == Coordinate(validLatitude: 53.369055, longitude: 83.695001))
        #expect(dawarich[0].horizontalAccuracyMeters == 150)
        #expect(dawarich[0].timestamp == GoogleReading.date("2012-12-15T14:21:29.460Z"))
        #expect(dawarich[2].horizontalAccuracyMeters == 22)
        let reitti = try FileReading.readShared("reitti/google/Records.json").points.compactMap(\.position.location)
        #expect(reitti.first?.coordinate == Coordinate(validLatitude: 52.5121303, longitude: 13.4309551))
        #expect(reitti.first?.horizontalAccuracyMeters == 25)
        #expect(reitti.last?.coordinate == Coordinate(validLatitude: 52.5121193, longitude: 13.432127))
        #expect(reitti.last?.timestamp == GoogleReading.date("2013-04-15T08:53:31.548Z"))
    }

    /// Dawarich's expectations for its single-object files: one point each at (x, x).
    @Test("Dawarich's Semantic History variants give its coordinates and times", arguments: [
        ("with_activitySegment_with_startLocation", 12.3422222, 1_742_843_244.0 as Double?),
        ("with_activitySegment_with_startLocation_timestamp_in_seconds_format", 12.3444444, 1_742_844_302.585),
        ("with_activitySegment_with_startLocation_timestampMs", 12.3466666, 1_742_844_302.585),
        ("with_activitySegment_without_startLocation", 12.3411111, nil),
        ("with_placeVisit_with_location_with_coordinates", 12.3477777, 1_742_844_232),
        ("with_placeVisit_with_location_with_coordinates_with_iso_timestamp", 12.3488888, 1_742_844_302),
        ("with_placeVisit_without_location_with_coordinates_with_otherCandidateLocations", 12.3533333, 1_742_844_302),
    ])
    func dawarichVariants(name: String, degrees: Double, seconds: Double?) throws {
        let result = try FileReading.readShared("dawarich/google/location-history/\(name).json")
        let record = try #require(result.records.first)
        let coordinate = record.visit?.coordinate ?? record.point?.position.coordinate
        #expect(coordinate == Coordinate(validLatitude: degrees, longitude: degrees))
        let time = record.visit?.arrival ?? record.location?.timestamp
        #expect(time == seconds.map(Date.init(timeIntervalSince1970:)))
    }

    @Test("the iOS export gives Dawarich's 8 points once its repeats are merged, with its 7th and last")
    func iOSValues() throws {
        let result = try FileReading.readShared("dawarich/google/location-history.json")
        var seen = Set<String>()
        let unique = result.points.compactMap(\.position.location).filter {
            seen.insert("\($0.coordinate.latitude) \($0.coordinate.longitude) \($0.timestamp.timeIntervalSince1970)").inserted
        }
        // Dawarich stores the visit as a point too: 7 unique path points + 1.
        #expect(unique.count + result.visits.count == 8)
        #expect(unique[5].coordinate == Coordinate(validLatitude: 27.696576, longitude: -97.376949))
        #expect(unique[5].timestamp == Date(timeIntervalSince1970: 1_693_180_140))
        #expect(unique.last?.coordinate == Coordinate(validLatitude: 27.709617, longitude: -97.375988))
        #expect(unique.last?.timestamp == Date(timeIntervalSince1970: 1_693_180_320))
        let visit = try #require(result.visits.first)
        #expect(visit.coordinate == Coordinate(validLatitude: 27.720022, longitude: -97.347951))
        #expect(visit.arrival == GoogleReading.date("2023-08-27T20:48:56Z"))
    }

    @Test("the Android export's values match the file")
    func androidValues() throws {
        let result = try FileReading.readShared("reitti/google/timeline_from_android_randomized.json")
        let first = try #require(result.points.first?.position.location)
        #expect(first.coordinate == Coordinate(validLatitude: -27.4127738, longitude: 163.5638958))
        #expect(first.timestamp == GoogleReading.date("2017-05-02T02:12:00Z"))
        #expect(first.utcOffsetSeconds == 36_000)
        #expect(result.visits.last?.departure == GoogleReading.date("2017-05-04T04:51:51Z"))
        let raw = result.points.suffix(3).compactMap(\.position.location)
        #expect(raw.map(\.horizontalAccuracyMeters) == [11, 16, 3])
        #expect(raw[2].speedMetersPerSecond == 0.009628270752727985)
        #expect(raw[1].altitudeMeters == nil)
    }

    @Test("Google's settings file is not read as location history")
    func settings() throws {
        let bytes = try [UInt8](Data(contentsOf: SharedFixtures.url("dawarich/google/edge_cases/device_settings.json")))
        #expect(FormatDetector.detect(prefix: bytes) == .notLocationHistory("Google location settings (no locations)"))
        #expect(try GoogleReading.records(bytes, as: .googleRecords).isEmpty)
    }
}
