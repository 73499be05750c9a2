import Foundation
import Testing
import TravelogCore
import TravelogTestSupport

@Suite("Distance per period on gappy multi-year histories (properties)")
struct TravelStatisticsPropertyTests {
    /// The histories of two devices, interleaved in a random order that keeps each device's own
    /// order (the order a store hands them out, device by device or mixed).
    static func interleaved(_ first: [Location], _ second: [Location], seed: UInt64) -> [(Location, Int64)] {
        var generator = SplitMix64(seed: seed)
        var result: [(Location, Int64)] = []
        var (i, j) = (0, 0)
        while i < first.count || j < second.count {
            let takeFirst = j == second.count || (i < first.count && generator.nextUnit() < 0.5)
            if takeFirst {
                result.append((first[i], 1))
                i += 1
            } else {
                result.append((second[j], 2))
                j += 1
            }
        }
        return result
    }

    static func statistics(_ input: [(Location, Int64)], period: CalendarPeriod) -> TravelStatistics {
        var statistics = TravelStatistics(period: period) { _ in 0 }
        for (location, device) in input { statistics.ingest(location, device: device) }
        return statistics
    }

    /// The distance of each stretch between gaps and (UTC) midnights, measured on its own; the
    /// moves across them.
    static func stretchesMeters(_ locations: [Location]) -> (meters: Double, movements: Int) {
        var meters = 0.0, movements = 0
        var distance = TraveledDistance()
        func day(_ location: Location) -> Int { Int((location.timestamp.timeIntervalSince1970 / 86_400).rounded(.down)) }
        for (index, location) in locations.enumerated() {
            guard index > 0 else {
                distance.ingest(location)
                continue
            }
            let before = locations[index - 1]
            let gap = HistoryGap(between: before, and: location)
                ?? (day(before) != day(location) ? HistoryGap(start: before.timestamp, end: location.timestamp,
                                                             origin: before.coordinate, destination: location.coordinate) : nil)
            if let gap {
                meters += distance.distanceMeters
                distance = TraveledDistance()
                if gap.isMovement { movements += 1 }
            }
            distance.ingest(location)
        }
        return (meters + distance.distanceMeters, movements)
    }

    @Test("no period is negative; the periods add up to the total for every grouping and every interleaving",
          arguments: [UInt64(1), 2, 3, 4])
    func periodsAddUp(seed: UInt64) throws {
        let phone = GappyHistory(seed: seed, days: 120, intervalSeconds: 120).locations
        let watch = GappyHistory(seed: seed + 100, days: 120, intervalSeconds: 120).locations
        let expected = (Self.stretchesMeters(phone).meters + Self.stretchesMeters(watch).meters)
        let movements = Self.stretchesMeters(phone).movements + Self.stretchesMeters(watch).movements
        for order in 0..<3 {
            let input = Self.interleaved(phone, watch, seed: seed * 10 + UInt64(order))
            for period in CalendarPeriod.allCases {
                let statistics = Self.statistics(input, period: period)
                let periods = statistics.periods
                #expect(periods.allSatisfy { $0.distanceMeters >= 0 }, "\(period)")
                let sum = periods.reduce(0) { $0 + $1.distanceMeters }
                // Sums of the same bookings in another order: rounding only (1e-6 of the total).
                #expect(abs(sum - statistics.total.distanceMeters) <= 1e-6 * max(1, sum))
                #expect(abs(statistics.total.distanceMeters - expected) <= 1e-6 * max(1, expected), "\(period) order \(order)")
                #expect(statistics.total.unrecordedMovement.count == movements)
                #expect(statistics.total.locationCount == phone.count + watch.count)
            }
        }
    }

    @Test("a range's days are the days of the whole history inside it when the range starts after a gap")
    func rangeAfterGap() throws {
        let history = GappyHistory(seed: 7, days: 200, intervalSeconds: 120)
        let gap = try #require(history.gaps.first { $0.after.timestamp.timeIntervalSince($0.before.timestamp) > 7 * 86_400 })
        let all = Self.statistics(history.locations.map { ($0, 1) }, period: .day)
        let after = Self.statistics(history.locations.filter { $0.timestamp >= gap.after.timestamp }.map { ($0, 1) }, period: .day)
        // The stretches after the gap are measured alike from the gap on; only the gap's own
        // movement (counted in the full history) differs.
        let allAfter = all.periods.filter { $0.label >= after.periods[0].label }
        #expect(allAfter.map(\.label) == after.periods.map(\.label))
        for (whole, part) in zip(allAfter, after.periods) {
            #expect(abs(whole.distanceMeters - part.distanceMeters) <= 1e-6 * max(1, whole.distanceMeters), "\(whole.label)")
        }
    }

    @Test("the generated histories have the gaps they promise, and no visit spans one")
    func visitsNeverSpanGaps() {
        let history = GappyHistory(seed: 11, days: 365, intervalSeconds: 120)
        #expect(history.gaps.count >= 5)
        let visits = VisitDetector.visits(in: history.locations)
        for gap in history.gaps {
            #expect(!visits.contains { $0.arrival <= gap.before.timestamp && ($0.departure ?? .distantFuture) >= gap.after.timestamp })
        }
        let trips = TripBuilder().trips(between: visits, locations: history.locations)
        for gap in history.gaps {
            #expect(!trips.contains { $0.start <= gap.before.timestamp && $0.end >= gap.after.timestamp })
        }
        #expect(trips.allSatisfy { $0.durationSeconds > 0 && $0.mode != .stationary })
    }
}
