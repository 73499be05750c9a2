import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogTestSupport

/// Values the upstream projects assert for their GPX files (see each folder's README).
@Suite("GPX files from dawarich and gpxpy", .enabled(if: SharedFixtures.available, SharedFixtures.absentReason))
struct GPXSharedFixtureTests {
    static func read(_ path: String) throws -> ReaderOutcome {
        ReaderOutcome.read(.gpx, Array(try Data(contentsOf: SharedFixtures.url(path))))
    }

    @Test("dawarich: GPSLogger's TrackPointExtension v2 speed and a +07:00 time")
    func garminExample() throws {
        let outcome = try Self.read("dawarich/gpx/garmin_example.gpx")
        #expect(outcome.error == nil)
        let location = try #require(outcome.locations.first)
        #expect(outcome.locations.count == 1)
        #expect(location.coordinate == Coordinate(validLatitude: 10.758321212464024, longitude: 106.64234449272531))
        #expect(location.altitudeMeters == 17.634344400269068)
        #expect(Int(location.timestamp.timeIntervalSince1970) == 1_730_626_211)
        #expect(location.utcOffsetSeconds == 7 * 3600)
        #expect(location.speedMetersPerSecond == 2.8)
    }

    @Test("dawarich: 34 points of OsmAnd's multiple tracks, one with osmand:speed 2.9")
    func multipleTracks() throws {
        let outcome = try Self.read("dawarich/gpx/gpx_track_multiple_tracks.gpx")
        #expect(outcome.error == nil)
        #expect(outcome.locations.count == 34)
        let expected = try Coordinate(latitude: 37.1722103, longitude: -3.55468)
        let point = try #require(outcome.locations.first { $0.coordinate == expected })
        #expect(point.altitudeMeters == 1066.4)
        #expect(point.timestamp == (try instant("2024-04-21T10:19:55Z")))
        #expect(point.speedMetersPerSecond == 2.9)
        #expect(try Self.read("dawarich/gpx/gpx_track_single_segment.gpx").locations.count == 10)
    }

    @Test("gpxpy: GPX 1.0 speeds 1.2, 2.2, 3.2 m/s in a file without a namespace")
    func trackWithSpeed() throws {
        let outcome = try Self.read("gpxpy/track_with_speed.gpx")
        #expect(outcome.locations.map(\.speedMetersPerSecond) == [1.2, 2.2, 3.2])
    }

    @Test("gpxpy: Mojstrovka's first point keeps all 7 fraction digits of 1901-12-13T20:45:52.2073437Z")
    func mojstrovka() throws {
        let locations = try Self.read("gpxpy/Mojstrovka.gpx").locations
        try #require(locations.count == 184)
        #expect(locations[0].altitudeMeters == 1614.678)
        #expect(locations[0].timestamp == ParsedTimestamp(secondsSince1970: -2_147_483_648, nanoseconds: 207_343_700).date)
        #expect(locations[1].timestamp == ParsedTimestamp(secondsSince1970: -2_147_483_648, nanoseconds: 207_000_000).date)
    }

    @Test("gpxpy: korita-zbevnica's tracks: the first is empty, then one without times and two with")
    func koritaZbevnica() throws {
        let points = try Self.read("gpxpy/korita-zbevnica.gpx").points.filter { if case .track = $0.kind { true } else { false } }
        let counts = [0, 1, 2].map { track in points.filter { $0.kind == .track(track: track, segment: 0) } }
        #expect(counts.map(\.count) == [358, 176, 337])
        #expect(counts[0].allSatisfy { $0.position.location == nil })
        #expect(counts[1].allSatisfy { $0.position.location != nil })
        #expect(points.count == 871)
    }

    @Test("gpxpy: the UTF-8 BOM file's waypoint and the unicode names")
    func unicode() throws {
        let bom = try Self.read("gpxpy/unicode_with_bom.gpx")
        let waypoint = try #require(bom.points.first)
        #expect(waypoint.kind == .waypoint)
        #expect(waypoint.name == "test")
        #expect(waypoint.position.altitudeMeters == -14.6)
        #expect(waypoint.position.location?.timestamp == (try instant("2016-05-27T10:08:47.8Z")))
        #expect(try Self.read("gpxpy/unicode.gpx").points.count == 6)
    }
}
