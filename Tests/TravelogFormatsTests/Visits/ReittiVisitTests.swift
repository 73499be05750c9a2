import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogTestSupport

/// Visit detection against Reitti's real GPSLogger day and the visits Reitti's own tests expect
/// (../shared/fixtures/reitti/README.md).
@Suite("Visits on Reitti's real day", .enabled(if: SharedFixtures.available, SharedFixtures.absentReason))
struct ReittiVisitTests {
    static let moltkestrasse = Coordinate(validLatitude: 53.863149, longitude: 10.700927)!
    static let stThomas = Coordinate(validLatitude: 53.86813491042206, longitude: 10.71152842314665)!

    static func date(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)!
    }

    /// Reitti's expected visits for 20250617.gpx: start, end, place.
    static let expected: [(arrival: Date, departure: Date, place: Coordinate)] = [
        (date("2025-06-16T22:00:09.154Z"), date("2025-06-17T05:39:50.330Z"), moltkestrasse),
        (date("2025-06-17T05:44:08.763Z"), date("2025-06-17T05:49:18.965Z"), stThomas),
        (date("2025-06-17T05:58:10.797Z"), date("2025-06-17T13:08:53.346Z"), moltkestrasse),
        (date("2025-06-17T13:12:33.214Z"), date("2025-06-17T13:18:20.778Z"), stThomas),
        (date("2025-06-17T13:21:28.334Z"), date("2025-06-17T21:59:44.876Z"), moltkestrasse),
    ]

    @Test("20250617: the five visits Reitti expects, each within 5 minutes and 150 m")
    func reittiDay() throws {
        let locations = try FixtureLocations.read(SharedFixtures.url("reitti/gpx/20250617.gpx"))
        let visits = VisitMerger().merged(VisitDetector.visits(in: locations))
        for visit in visits {
            print("visit \(visit.arrival) – \(visit.departure.map { "\($0)" } ?? "…") at \(visit.center), r \(visit.radiusMeters) m, \(visit.locationCount) fixes")
        }
        try #require(visits.count == Self.expected.count)
        for (visit, expected) in zip(visits, Self.expected) {
            // Tolerances from Reitti's README: its own tests match places within 150 m.
            #expect(abs(visit.arrival.timeIntervalSince(expected.arrival)) <= 300)
            #expect(abs(try #require(visit.departure).timeIntervalSince(expected.departure)) <= 300)
            #expect(visit.center.distanceMeters(to: expected.place) <= 150)
        }
    }
}
