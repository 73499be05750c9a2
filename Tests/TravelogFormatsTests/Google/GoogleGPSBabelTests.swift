import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogTestSupport

/// GPSBabel's `-i googletakeout -o gpx` of a real Semantic Location History month, reproduced:
/// each placeVisit is a waypoint at the place, timed at the visit's start and named after the place
/// (else its address); each activitySegment a track of start location, waypoints (untimed), end location.
@Suite("GoogleSemanticReader against GPSBabel's expected GPX", .enabled(if: SharedFixtures.available, SharedFixtures.absentReason))
struct GoogleGPSBabelTests {
    struct GPXPoint {
        var latitude: Double
        var longitude: Double
        var time: Date?
        var name: String?
    }

    /// The waypoints and track points of GPSBabel's output (one point or tag per line, as it writes).
    static func expected() throws -> (waypoints: [GPXPoint], tracks: [[GPXPoint]]) {
        let text = try String(contentsOf: SharedFixtures.url("gpsbabel/google-semantic-history/2013_MAY.expected.gpx"), encoding: .utf8)
        var waypoints: [GPXPoint] = []
        var tracks: [[GPXPoint]] = []
        var inWaypoint = false
        for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("<wpt ") || line.hasPrefix("<trkpt ") {
                let point = GPXPoint(latitude: try attribute("lat", line), longitude: try attribute("lon", line))
                inWaypoint = line.hasPrefix("<wpt ")
                if inWaypoint { waypoints.append(point) } else { tracks[tracks.count - 1].append(point) }
            } else if line == "<trk>" {
                tracks.append([])
            } else if let time = element("time", line), line != "<time>1970-01-01T00:00:00Z</time>" {
                if inWaypoint { waypoints[waypoints.count - 1].time = GoogleReading.date(time) } else { tracks[tracks.count - 1][tracks[tracks.count - 1].count - 1].time = GoogleReading.date(time) }
            } else if let name = element("name", line), inWaypoint {
                waypoints[waypoints.count - 1].name = name.replacingOccurrences(of: "&amp;", with: "&")
            }
        }
        return (waypoints, tracks)
    }

    struct MalformedLine: Error { var line: String }

    static func attribute(_ name: String, _ line: String) throws -> Double {
        guard let start = line.range(of: " \(name)=\"")?.upperBound,
              let end = line[start...].firstIndex(of: "\""), let value = Double(line[start..<end])
        else { throw MalformedLine(line: line) }
        return value
    }

    static func element(_ name: String, _ line: String) -> String? {
        guard line.hasPrefix("<\(name)>"), line.hasSuffix("</\(name)>") else { return nil }
        return String(line.dropFirst(name.count + 2).dropLast(name.count + 3))
    }

    static func milliseconds(_ date: Date?) -> Int64? {
        date.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
    }

    /// GPSBabel writes 9 decimals of values that have 7: agreement within 1e-7° (the E7 step).
    static let toleranceDegrees = 1e-7

    @Test("GPSBabel's 51 waypoints are the visits: place, start time, name or address")
    func visits() throws {
        let expected = try Self.expected().waypoints
        let visits = try FileReading.readShared("gpsbabel/google-semantic-history/2013/2013_MAY.json").visits
        #expect(expected.count == 51)
        try #require(visits.count == expected.count)
        for (visit, waypoint) in zip(visits, expected) {
            #expect(abs(visit.coordinate.latitude - waypoint.latitude) <= Self.toleranceDegrees)
            #expect(abs(visit.coordinate.longitude - waypoint.longitude) <= Self.toleranceDegrees)
            #expect(Self.milliseconds(visit.arrival) == Self.milliseconds(waypoint.time))
            #expect((visit.name ?? visit.address) == waypoint.name)
        }
    }

    @Test("GPSBabel's 79 tracks and 296 points are the activity outlines, timed only at start and end")
    func tracks() throws {
        let expected = try Self.expected().tracks
        #expect(expected.count == 79)
        #expect(expected.reduce(0) { $0 + $1.count } == 296)
        let points = try FileReading.readShared("gpsbabel/google-semantic-history/2013/2013_MAY.json").points
        // Segment 0 of each track; a track whose points all carry an accuracy is a visit's raw path
        // (in this file every raw point has accuracyMeters, and no start, end or waypoint has one).
        var segments: [Int: [FormatPoint]] = [:]
        var order: [Int] = []
        for point in points {
            guard case .track(let track, 0) = point.kind else { continue }
            if segments[track] == nil { order.append(track) }
            segments[track, default: []].append(point)
        }
        let isRawPath = { (segment: [FormatPoint]) in
            segment.allSatisfy { ($0.position.location?.horizontalAccuracyMeters ?? -1) >= 0 }
        }
        let rawPaths = order.filter { isRawPath(segments[$0] ?? []) }
        #expect(rawPaths.count == 5)
        #expect(rawPaths.reduce(0) { $0 + (segments[$1]?.count ?? 0) } == 46)
        let outlines = order.filter { !isRawPath(segments[$0] ?? []) }.map { segments[$0] ?? [] }
        try #require(outlines.count == expected.count)
        for (outline, track) in zip(outlines, expected) {
            try #require(outline.count == track.count)
            // GPSBabel leaves the waypoints untimed. Travelog times them between the segment's start
            // and end (in proportion to distance) when the segment has no raw path of its own; those
            // times must lie between the outline's first and last and never go back.
            let start = Self.milliseconds(track.first?.time), end = Self.milliseconds(track.last?.time)
            var previous = Int64.min
            for (point, gpx) in zip(outline, track) {
                #expect(abs(point.position.coordinate.latitude - gpx.latitude) <= Self.toleranceDegrees)
                #expect(abs(point.position.coordinate.longitude - gpx.longitude) <= Self.toleranceDegrees)
                let ours = Self.milliseconds(point.position.location?.timestamp)
                if let theirs = Self.milliseconds(gpx.time) {
                    #expect(ours == theirs)
                } else if let ours {
                    // (An outline without a start or end location has no GPSBabel time to compare with.)
                    if let start { #expect(ours >= start) }
                    if let end { #expect(ours <= end) }
                }
                if let ours {
                    #expect(ours >= previous)
                    previous = ours
                }
            }
        }
    }
}
