import Foundation
import Testing
import TravelogCore
import TravelogTestSupport

@Suite("Travel statistics per local period")
struct TravelStatisticsTests {
    /// A fix `east` metres east of a point in Tokyo, `seconds` after 2024-03-09T14:00:00Z (23:00 in Tokyo).
    static func fix(east: Double, seconds: Double, accuracy: Double = 5, offset: Int? = nil) -> Location {
        let origin = Coordinate(validLatitude: 35.68, longitude: 139.76)!
        return Location(coordinate: origin.destination(bearingDegrees: 90, distanceMeters: east),
                        horizontalAccuracyMeters: accuracy,
                        timestamp: Date(timeIntervalSince1970: 1_709_992_800 + seconds), utcOffsetSeconds: offset)
    }

    @Test("an hour standing still with a jittering GPS travels (close to) nothing")
    func standingStill() {
        var random = SplitMix64(seed: 42)
        var statistics = TravelStatistics(period: .day) { _ in 0 }
        for second in stride(from: 0.0, to: 3600, by: 5) {
            var location = Self.fix(east: 0, seconds: second, accuracy: 20)
            location.coordinate = location.coordinate.destination(bearingDegrees: random.nextUnit() * 360,
                                                                  distanceMeters: abs(random.gaussian()) * 14)
            statistics.ingest(location, device: 1)
        }
        #expect(statistics.total.distanceMeters < 50)
        #expect(statistics.total.locationCount == 720)
    }

    @Test("a walk counts on the local day of its offset, split at local midnight")
    func localDays() {
        // 1.5 m/s east for 2 hours, starting 23:00 Tokyo time: the first hour is March 9th there,
        // the second March 10th.
        var statistics = TravelStatistics(period: .day) { $0.utcOffsetSeconds ?? 0 }
        for second in stride(from: 0.0, through: 7200, by: 5) {
            statistics.ingest(Self.fix(east: 1.5 * second, seconds: second, offset: 9 * 3600), device: 1)
        }
        let periods = statistics.periods
        #expect(periods.map(\.label) == ["2024-03-09", "2024-03-10"])
        // Each day holds about 5.4 km; the jitter-robust measure may lose a little at the ends.
        for period in periods { #expect(abs(period.distanceMeters - 5400) < 300, "\(period.label): \(period.distanceMeters)") }
        #expect(abs(statistics.total.distanceMeters - 10_800) < 300)
        #expect(statistics.total.activeDays == 2)
    }

    @Test("devices are measured apart and their distances add up")
    func devices() {
        var statistics = TravelStatistics(period: .year) { _ in 0 }
        for second in stride(from: 0.0, through: 1800, by: 5) {
            statistics.ingest(Self.fix(east: 1.5 * second, seconds: second), device: 1)
            statistics.ingest(Self.fix(east: -1.5 * second, seconds: second), device: 2)
        }
        #expect(statistics.periods.map(\.label) == ["2024"])
        #expect(abs(statistics.total.distanceMeters - 5400) < 300)
    }
}

@Suite("Traveled distance on sparse histories")
struct SparseTraveledDistanceTests {
    @Test("a Takeout-like history (a fix every few minutes, one or two per trip) keeps its trips")
    func sparseTrips() {
        // Home, 4 km east 15 minutes later, a stay of nine hours with one more fix, back home in
        // 15 minutes, one more fix ten hours later: 8 km in all, two fixes per place.
        // (The last fix is only provisional until another follows: one more closes the day.)
        let plan: [(east: Double, minutes: Double)] = [(0, 0), (0, 60), (4000, 75), (4000, 600), (0, 615), (0, 1200), (0, 1300)]
        var distance = TraveledDistance()
        for step in plan {
            distance.ingest(TravelStatisticsTests.fix(east: step.east, seconds: step.minutes * 60, accuracy: -1))
        }
        #expect(abs(distance.distanceMeters - 8000) < 400, "\(distance.distanceMeters)")
    }

    @Test("two fixes at the same place an hour apart are a stay, not a slow trip")
    func gapAtSamePlace() {
        var distance = TraveledDistance()
        for (east, minutes) in [(0.0, 0.0), (0, 600), (3000, 610), (3000, 1200), (3000, 1300)] {
            distance.ingest(TravelStatisticsTests.fix(east: east, seconds: minutes * 60, accuracy: -1))
        }
        #expect(abs(distance.distanceMeters - 3000) < 200, "\(distance.distanceMeters)")
    }
}
