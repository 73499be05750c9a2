import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogTestSupport

/// KML read against what GPSBabel made of the same data, and dawarich's counts.
@Suite("KML files against GPSBabel's conversions and dawarich's counts", .enabled(if: SharedFixtures.available, SharedFixtures.absentReason))
struct KMLSharedFixtureTests {
    static func read(_ format: FileFormat, _ path: String) throws -> ReaderOutcome {
        let outcome = ReaderOutcome.read(format, Array(try Data(contentsOf: SharedFixtures.url(path))))
        if let error = outcome.error { throw error }
        return outcome
    }

    /// Track points grouped by track, then by segment, in file order.
    static func tracks(_ outcome: ReaderOutcome) -> [[[FormatPoint.Position]]] {
        var tracks: [[[FormatPoint.Position]]] = []
        for point in outcome.points {
            guard case .track(let track, let segment) = point.kind else { continue }
            while tracks.count <= track { tracks.append([]) }
            while tracks[track].count <= segment { tracks[track].append([]) }
            tracks[track][segment].append(point.position)
        }
        return tracks
    }

    /// The same place within `toleranceDegrees` and the same time (or both without one).
    static func same(_ lhs: FormatPoint.Position, _ rhs: FormatPoint.Position, toleranceDegrees: Double) -> Bool {
        abs(lhs.coordinate.latitude - rhs.coordinate.latitude) <= toleranceDegrees
            && abs(lhs.coordinate.longitude - rhs.coordinate.longitude) <= toleranceDegrees
            && lhs.location?.timestamp == rhs.location?.timestamp
    }

    static func same(_ lhs: [FormatPoint.Position], _ rhs: [FormatPoint.Position], toleranceDegrees: Double) -> Bool {
        lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { same($0, $1, toleranceDegrees: toleranceDegrees) }
    }

    @Test("google_ext.kml gives the 451 points, elevations and times of GPSBabel's google_ext.expected.gpx")
    func googleExt() throws {
        let kml = try Self.read(.kml, "gpsbabel/kml/google_ext.kml")
        let gpx = try Self.read(.gpx, "gpsbabel/kml/google_ext.expected.gpx")
        #expect(kml.rejections.isEmpty)
        #expect(kml.points.count == 451, "the Placemarks with only a TimeStamp are no points")
        #expect(kml.kinds == gpx.kinds)
        let read = kml.locations, expected = gpx.locations
        try #require(read.count == 451 && expected.count == 451)
        for (kmlLocation, gpxLocation) in zip(read, expected) {
            // GPSBabel writes 9 decimals of degrees and 3 of metres.
            #expect(abs(kmlLocation.coordinate.latitude - gpxLocation.coordinate.latitude) <= 5e-10)
            #expect(abs(kmlLocation.coordinate.longitude - gpxLocation.coordinate.longitude) <= 5e-10)
            #expect(abs((kmlLocation.altitudeMeters ?? .nan) - (gpxLocation.altitudeMeters ?? .nan)) <= 5e-4)
            #expect(kmlLocation.timestamp == gpxLocation.timestamp)
        }
    }

    @Test("GPSBabel's gx:Track KML of segmented_tracks.gpx: the timed track's 23 points and 4 times, and each line's segments")
    func segmentedGXTrack() throws {
        let gpx = Self.tracks(try Self.read(.gpx, "gpsbabel/export/segmented_tracks.gpx"))
        let kml = Self.tracks(try Self.read(.kml, "gpsbabel/export/segmented_tracks.expected-gxtrack.kml"))
        try #require(gpx.count == 2 && kml.count == 4)
        let (noTimes, withTimes) = (gpx[0], gpx[1])
        #expect(withTimes.joined().count { $0.location != nil } == 4)
        // GPSBabel writes 6 decimals of degrees in KML.
        #expect(kml[1].count == 1, "GPSBabel joins the segments of a timed track in one gx:Track")
        #expect(Self.same(kml[1][0], Array(withTimes.joined()), toleranceDegrees: 5e-7))
        for (line, track) in [(kml[0], noTimes), (kml[2], noTimes), (kml[3], withTimes)] {
            #expect(line.count == 5)
            #expect(zip(line, track).allSatisfy { Self.same($0, $1.map { .untimed($0.coordinate, altitudeMeters: nil) }, toleranceDegrees: 5e-7) })
        }
    }

    @Test("GPSBabel's LineString KML of segmented_tracks.gpx: the segments as lines, the points as waypoints with their times")
    func segmentedLineString() throws {
        let gpx = Self.tracks(try Self.read(.gpx, "gpsbabel/export/segmented_tracks.gpx"))
        let outcome = try Self.read(.kml, "gpsbabel/export/segmented_tracks.expected-linestring.kml")
        let kml = Self.tracks(outcome)
        try #require(gpx.count == 2 && kml.count == 2)
        for (line, track) in zip(kml, gpx) {
            #expect(line.count == track.count)
            #expect(zip(line, track).allSatisfy { Self.same($0, $1.map { .untimed($0.coordinate, altitudeMeters: nil) }, toleranceDegrees: 5e-7) })
        }
        let waypoints = outcome.points.filter { $0.kind == .waypoint }
        #expect(waypoints.map(\.name) == (0..<23).map { "No Times-\($0)" } + (0..<23).map { "With Times-\($0)" })
        #expect(Self.same(waypoints.map(\.position), Array(gpx.joined().joined()), toleranceDegrees: 5e-7))
    }

    @Test("dawarich: gx_track 4 points, linestring 5, multigeometry 6, points_with_timestamps 3")
    func dawarich() throws {
        let track = try Self.read(.kml, "dawarich/kml/gx_track.kml").locations
        #expect(track.count == 4)
        #expect(track.first?.timestamp == (try instant("2024-01-20T08:00:00Z")))
        #expect(track.last?.timestamp == (try instant("2024-01-20T08:03:00Z")))
        #expect(try Self.read(.kml, "dawarich/kml/linestring_track.kml").points.count == 5)
        let mixed = try Self.read(.kml, "dawarich/kml/multigeometry.kml").points
        #expect(mixed.count == 6)
        #expect(mixed.filter { $0.kind == .waypoint }.count == 2)
        let points = try Self.read(.kml, "dawarich/kml/points_with_timestamps.kml").locations
        #expect(points.count == 3)
        #expect(points.first?.coordinate == Coordinate(validLatitude: 37.4220, longitude: -122.0841))
        #expect(points.first?.altitudeMeters == 10)
        #expect(points.first?.timestamp == (try instant("2024-01-15T12:00:00Z")))
    }
}
