import Foundation
import Testing
import TravelogCore
import TravelogTestSupport

/// Issue 10 item 4: a slow walk sampled once a minute (steps of 40–70 m, inside the 100 m radius)
/// between two stays. The detector must not absorb it into a stay: both stays are visits, they
/// end and begin near where the walk leaves and arrives, and the trip between them is found.
@Suite("A slow walk at a fix a minute")
struct SlowWalkTests {
    /// Stays of 30 minutes, a walk of `walkMeters` east at `speed`, a fix a minute with 10 m of noise.
    static func day(walkMeters: Double, speed: Double, seed: UInt64) -> (SyntheticDay, leftAt: Date, arrivedAt: Date) {
        var day = SyntheticDay(intervalSeconds: 60, accuracyMeters: 10, seed: seed)
        day.stay(seconds: 1_800)
        let leftAt = day.date(day.time - day.intervalSeconds)
        day.move(toEast: walkMeters, toNorth: 0, speedMetersPerSecond: speed)
        let arrivedAt = day.date(day.time - day.intervalSeconds)
        day.stay(seconds: 1_800)
        return (day, leftAt, arrivedAt)
    }

    @Test("two stays with a slow walk between are two visits and one trip",
          arguments: [(700.0, 0.8), (700.0, 1.1), (1_000.0, 0.7), (500.0, 0.9)])
    func slowWalk(walkMeters: Double, speed: Double) throws {
        for seed: UInt64 in 1...5 {
            let (day, leftAt, arrivedAt) = Self.day(walkMeters: walkMeters, speed: speed, seed: seed)
            let visits = VisitDetector.visits(in: day.locations)
            try #require(visits.count == 2, "\(walkMeters) m at \(speed) m/s, seed \(seed): \(visits.count) visits")
            let start = SyntheticDay.coordinate(east: 0, north: 0), end = SyntheticDay.coordinate(east: walkMeters, north: 0)
            #expect(visits[0].center.distanceMeters(to: start) < 40, "the first stay is centred at the start")
            #expect(visits[1].center.distanceMeters(to: end) < 40, "the second stay is centred at the end")
            // The walk is not absorbed: the first stay ends within 3 minutes of leaving, the second
            // begins within 3 minutes of arriving.
            let departure = try #require(visits[0].departure)
            #expect(abs(departure.timeIntervalSince(leftAt)) <= 180, "left \(departure.timeIntervalSince(leftAt)) s late")
            #expect(abs(arrivedAt.timeIntervalSince(visits[1].arrival)) <= 180, "arrived \(arrivedAt.timeIntervalSince(visits[1].arrival)) s early")
            let trips = TripBuilder().trips(between: visits, locations: day.locations)
            try #require(trips.count == 1)
            #expect(trips[0].distanceMeters > 0.6 * walkMeters && trips[0].distanceMeters < 1.5 * walkMeters,
                    "trip of \(trips[0].distanceMeters) m for a \(walkMeters) m walk")
            #expect(trips[0].mode != .stationary)
        }
    }
}
