import Foundation
import Testing
import TravelogCore
import TravelogTestSupport

@Suite("Gaps in the history: never a stay, a trip or distance")
struct HistoryGapTests {
    /// The four rows of issue 10: Luxembourg, a year later Chicago, Cupertino, Chicago.
    static let issueRows: [Location] = [
        ("2014-06-04T10:00:00Z", 49.60688, 6.15788), ("2015-09-12T10:00:00Z", 42.06288, -88.23412),
        ("2015-10-01T10:00:00Z", 37.3318, -122.030581), ("2016-01-27T10:00:00Z", 42.06288, -88.23412),
    ].map { row in
        Location(coordinate: Coordinate(validLatitude: row.1, longitude: row.2)!, horizontalAccuracyMeters: -1,
                 timestamp: ISO8601DateFormatter().date(from: row.0)!)
    }

    @Test("the issue's four rows: no distance, three unrecorded movements, no negative day")
    func issueRows() {
        var statistics = TravelStatistics(period: .day) { _ in 0 }
        for location in Self.issueRows { statistics.ingest(location, device: 1) }
        #expect(statistics.periods.allSatisfy { $0.distanceMeters == 0 })
        #expect(statistics.total.unrecordedMovement.count == 3)
        let lines = zip(Self.issueRows, Self.issueRows.dropFirst()).map { $0.coordinate.distanceMeters(to: $1.coordinate) }
        #expect(abs(statistics.total.unrecordedMovement.straightLineMeters - lines.reduce(0, +)) < 1e-6)
        #expect(statistics.periods.map(\.unrecordedMovement.count) == [0, 1, 1, 1])
    }

    @Test("a silence of three weeks at the same place ends the visit at its last fix; a night does not")
    func visitsAcrossGaps() throws {
        var day = SyntheticDay(intervalSeconds: 60)
        day.stay(seconds: 3_600)
        day.gap(seconds: 10 * 3_600)  // a night: the stay goes on
        day.stay(seconds: 3_600)
        let lastBefore = try #require(day.locations.last).timestamp
        day.gap(seconds: 21 * 86_400)  // three weeks with the phone off, back at the same place
        let firstAfter = day.date(day.time)
        day.stay(seconds: 3_600)
        let visits = VisitDetector.visits(in: day.locations)
        try #require(visits.count == 2)
        #expect(visits[0].departure == lastBefore)
        #expect(visits[1].arrival == firstAfter)
        #expect(visits.allSatisfy { ($0.durationSeconds ?? 0) < HistoryGap.defaultMaximumSilenceSeconds })
    }

    @Test("a stay too short to be a visit before a gap does not become one with the fixes after it")
    func candidateAcrossGap() {
        var day = SyntheticDay(intervalSeconds: 60)
        day.stay(seconds: 120)
        day.gap(seconds: 30 * 3_600)
        day.stay(seconds: 120)
        #expect(VisitDetector.visits(in: day.locations).isEmpty)
    }

    @Test("the bound is a setting")
    func boundIsASetting() {
        var day = SyntheticDay(intervalSeconds: 60)
        day.stay(seconds: 3_600)
        day.gap(seconds: 10 * 3_600)
        day.stay(seconds: 3_600)
        #expect(VisitDetector.visits(in: day.locations).count == 1)
        #expect(VisitDetector.visits(in: day.locations, tuning: .init(maximumSilenceSeconds: 6 * 3_600)).count == 2)
    }

    @Test("no trip across a gap, even between two places far apart")
    func noTripAcrossGap() throws {
        var day = SyntheticDay(intervalSeconds: 60)
        day.stay(seconds: 1_800)
        day.gap(seconds: 30 * 86_400, toEast: 9_000_000, toNorth: 0)
        day.stay(seconds: 1_800)
        let visits = VisitDetector.visits(in: day.locations)
        try #require(visits.count == 2)
        #expect(TripBuilder().trip(from: visits[0], to: visits[1], locations: day.locations) == nil)
    }

    @Test("a trip with a few fixes over hours has no mode; one that never left has no trip")
    func tripEvidence() throws {
        let here = SyntheticDay.coordinate(east: 0, north: 0), there = SyntheticDay.coordinate(east: 5_000, north: 0)
        let start = Date(timeIntervalSinceReferenceDate: 0)
        let origin = try Visit(arrival: start - 3_600, departure: start, center: here, radiusMeters: 20, locationCount: 30)
        let destination = try Visit(arrival: start + 6 * 3_600, departure: start + 7 * 3_600, center: there,
                                    radiusMeters: 20, locationCount: 30)
        let sparse = [1.0, 2, 3].map { hour in
            Location(coordinate: SyntheticDay.coordinate(east: 1_000 * hour, north: 0), horizontalAccuracyMeters: 10,
                     timestamp: start + hour * 3_600)
        }
        let trip = try #require(TripBuilder().trip(from: origin, to: destination, locations: sparse))
        #expect(trip.mode == .unknown)
        let back = try Visit(arrival: start + 3_600, departure: start + 7_200, center: here, radiusMeters: 20, locationCount: 30)
        let still = [Location(coordinate: here, horizontalAccuracyMeters: 10, timestamp: start + 1_800)]
        #expect(TripBuilder().trip(from: origin, to: back, locations: still) == nil)
    }
}
