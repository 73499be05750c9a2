import Foundation
import Testing
import TravelogCore
import TravelogFormats

@Suite("Google Semantic History: timing an activity's waypoints")
struct GoogleWaypointTimingTests {
    static func activity(rawPath: Bool) -> String {
        let raw = rawPath ? #", "simplifiedRawPath": {"points": [{"latE7": 520000000, "lngE7": 130000000, "timestamp": "2024-01-01T10:01:00Z"}]}"# : ""
        return """
            {"timelineObjects": [{"activitySegment": {
              "duration": {"startTimestamp": "2024-01-01T10:00:00+01:00", "endTimestamp": "2024-01-01T10:10:00+01:00"},
              "waypointPath": {"waypoints": [
                {"latE7": 520000000, "lngE7": 130000000},
                {"latE7": 520100000, "lngE7": 130000000},
                {"latE7": 520300000, "lngE7": 130000000}]}\(raw)
            }}]}
            """
    }

    @Test("without a raw path, waypoints are timed between start and end in proportion to distance")
    func interpolated() throws {
        let points = try GoogleReading.records(Self.activity(rawPath: false), as: .googleSemantic)
            .compactMap { if case .point(let point) = $0 { point.position.location } else { nil } }
        #expect(points.count == 3)
        // The second waypoint lies a third of the way along (1.1 km of 3.3 km): 10:00 + 200 s.
        let seconds = points.map { $0.timestamp.timeIntervalSince(GoogleReading.date("2024-01-01T09:00:00Z")) }
        #expect(seconds.first == 0)
        #expect(seconds.last == 600)
        #expect(abs(seconds[1] - 200) < 1, "\(seconds[1])")  // the meridian arc is not quite uniform
        #expect(points.allSatisfy { $0.utcOffsetSeconds == 3600 })
    }

    @Test("with a raw path (real times), the waypoints stay untimed")
    func rawPathWins() throws {
        let points = try GoogleReading.records(Self.activity(rawPath: true), as: .googleSemantic)
            .compactMap { if case .point(let point) = $0 { point } else { nil } }
        #expect(points.filter { $0.position.location == nil }.count == 3)
        #expect(points.filter { $0.position.location != nil }.count == 1)
    }
}
