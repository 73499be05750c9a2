import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogTestSupport

/// The CSV and GeoLife readers against real files from other projects (../shared/fixtures).
/// Counts and first and last values were read from the files themselves (Python's csv module
/// for CSV, the lines after the sixth for `.plt`); seconds since 1970 from calendar.timegm.
@Suite("CSV and GeoLife on real files", .enabled(if: SharedFixtures.available, SharedFixtures.absentReason))
struct TextFormatFixtureTests {
    static func records(_ relativePath: String, geolife: Bool = false) throws -> [FormatRecord] {
        let source = try FileByteSource(path: SharedFixtures.url(relativePath).path)
        var records: [FormatRecord] = []
        if geolife {
            var reader = GeoLifeReader(source: source, blockSizeBytes: 4096)
            while let record = try reader.next() { records.append(record) }
            #expect(reader.bytesConsumed == source.fileSizeBytes)
        } else {
            var reader = CSVReader(source: source, blockSizeBytes: 4096)
            while let record = try reader.next() { records.append(record) }
            #expect(reader.bytesConsumed == source.fileSizeBytes)
        }
        return records
    }

    static func locations(_ records: [FormatRecord]) -> [Location] {
        records.compactMap { if case .point(let point) = $0 { point.position.location } else { nil } }
    }

    static func date(_ secondsSince1970: Double) -> Date { Date(timeIntervalSince1970: secondsSince1970) }

    @Test("Dawarich's GPSLogger, E7 and Unix-time CSVs: three fixes each, same first and last", arguments: [
        "dawarich/csv/gpslogger.csv", "dawarich/csv/e7_integers.csv", "dawarich/csv/unix_timestamps.csv",
    ])
    func dawarichPoints(path: String) throws {
        let records = try Self.records(path)
        let locations = Self.locations(records)
        #expect(records.count == 3 && locations.count == 3)
        let first = try #require(locations.first), last = try #require(locations.last)
        #expect(first.coordinate == (try Coordinate(latitude: 52.52, longitude: 13.405)))
        #expect(last.coordinate == (try Coordinate(latitude: 52.522, longitude: 13.407)))
        #expect(first.altitudeMeters == 34 && first.horizontalAccuracyMeters == 8 && first.speedMetersPerSecond == 1.5)
        #expect(last.altitudeMeters == 36 && last.horizontalAccuracyMeters == 7 && last.speedMetersPerSecond == 1.4)
        if path.hasSuffix("unix_timestamps.csv") {
            #expect(first.timestamp == Self.date(1_718_444_200) && last.timestamp == Self.date(1_718_444_320))
            #expect(first.courseDegrees == 90 && last.courseDegrees == 100)
        } else {
            #expect(first.timestamp == Self.date(1_718_447_400) && last.timestamp == Self.date(1_718_447_520))
        }
    }

    @Test("Dawarich's quoted Google Timeline CSV: an activity point and a visit, in Pacific time")
    func dawarichTimeline() throws {
        let records = try Self.records("dawarich/csv/quoted_headers.csv")
        #expect(records.count == 2)
        let activity = try #require(Self.locations(records).first)
        #expect(activity.coordinate == (try Coordinate(latitude: 32.8954383, longitude: -117.1930364)))
        #expect(activity.timestamp == Self.date(1_733_166_000) && activity.utcOffsetSeconds == -28_800)
        #expect(records.last == .visit(FormatVisit(
            arrival: Self.date(1_733_166_132), departure: Self.date(1_733_206_474),
            coordinate: try Coordinate(latitude: 32.8955442, longitude: -117.1929882))))
    }

    @Test("Reitti's trip: 39 database rows with WKT points and PostgreSQL times")
    func reittiTrip() throws {
        let records = try Self.records("reitti/raw/trip_1.csv")
        let locations = Self.locations(records)
        #expect(records.count == 39 && locations.count == 39)
        let first = try #require(locations.first), last = try #require(locations.last)
        #expect(first.coordinate == (try Coordinate(latitude: 53.86314754, longitude: 10.70340326)))
        #expect(first.timestamp == Self.date(1_748_782_923) && first.horizontalAccuracyMeters == 10)
        #expect(last.coordinate == (try Coordinate(latitude: 53.8338487, longitude: 10.98252018)))
        #expect(last.timestamp == Self.date(1_748_784_304))
        #expect(locations.allSatisfy { $0.utcOffsetSeconds == 0 })
        // 13:03:46.056 (row 4): the fraction is kept.
        #expect(abs(locations[3].timestamp.timeIntervalSince1970 - 1_748_783_026.056) < 1e-6)  // Double resolution in 2025
    }

    @Test("trackintel's semicolon-separated examples", arguments: [
        ("trackintel-geolife/examples/geolife_trajectory.csv", 2293, 39.979984, 116.324016, 1_225_000_774.0, 1_225_027_350.0),
        ("trackintel-geolife/examples/google_trajectory.csv", 416, 47.3766094, 8.5484732, 1_355_866_235, 1_355_831_610),
        ("trackintel-geolife/examples/gpsies_trajectory.csv", 247, 47.37651505, 8.548779487, 1_448_611_200, 1_448_629_040),
    ])
    func trackintelExamples(path: String, count: Int, latitude: Double, longitude: Double, firstTime: Double, lastTime: Double) throws {
        let records = try Self.records(path)
        let locations = Self.locations(records)
        #expect(records.count == count && locations.count == count)
        #expect(locations.first?.coordinate == (try Coordinate(latitude: latitude, longitude: longitude)))
        #expect(locations.first?.timestamp == Self.date(firstTime))
        #expect(locations.last?.timestamp == Self.date(lastTime))
    }

    @Test("GeoLife trajectories: every data line is a fix, first and last as written", arguments: [
        ("geolife_long/000/Trajectory/20081023025304.plt", 908, 39.984702, 116.318417, 492.0, 1_224_730_384.0, 1_224_760_272.0),
        ("geolife_long/000/Trajectory/20081024020959.plt", 244, 40.008304, 116.319876, 492, 1_224_814_199, 1_224_816_426),
        ("geolife_long/001/Trajectory/20081023055305.plt", 961, 39.984094, 116.319236, 492, 1_224_741_185, 1_224_763_468),
        ("geolife_long/001/Trajectory/20081023234104.plt", 2128, 40.013867, 116.306473, 226, 1_224_805_264, 1_224_830_150),
        ("geolife_modes/020/Trajectory/20111130020900.plt", 66, 39.9808633333333, 116.305878333333, 0, 1_322_618_940, 1_322_619_012),
        ("geolife_modes/020/Trajectory/20111130151807.plt", 327, 39.974645, 116.31602, 0, 1_322_666_287, 1_322_666_613),
        ("geolife_modes/020/Trajectory/20111130152335.plt", 256, 39.9761316666667, 116.329063333333, 0, 1_322_666_615, 1_322_667_070),
        ("geolife_modes/020/Trajectory/20111201123535.plt", 66, 39.9788516666667, 116.304223333333, 0, 1_322_742_935, 1_322_743_044),
    ])
    func geolife(path: String, count: Int, latitude: Double, longitude: Double, altitudeFeet: Double,
                 firstTime: Double, lastTime: Double) throws {
        let records = try Self.records("trackintel-geolife/" + path, geolife: true)
        let locations = Self.locations(records)
        #expect(records.count == count && locations.count == count)
        let first = try #require(locations.first)
        #expect(first.coordinate == (try Coordinate(latitude: latitude, longitude: longitude)))
        #expect(first.altitudeMeters == Units.meters(feet: altitudeFeet))
        #expect(first.timestamp == Self.date(firstTime))
        #expect(locations.last?.timestamp == Self.date(lastTime))
        #expect(zip(locations, locations.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp })
    }
}
