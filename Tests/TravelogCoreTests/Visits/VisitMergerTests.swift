import Foundation
import Testing
import TravelogCore
import TravelogTestSupport

@Suite("Merging visits split by a short absence")
struct VisitMergerTests {
    /// 30 minutes at home, 8 minutes 300 m away (out of the radius, too short to be a visit…
    /// or long enough, by `awaySeconds`), back home for 30 minutes.
    static func day(awaySeconds: Double, awayMeters: Double = 300) -> SyntheticDay {
        var day = SyntheticDay()
        day.stay(seconds: 1_800)
        day.move(toEast: awayMeters, toNorth: 0, speedMetersPerSecond: 1.4)
        day.stay(seconds: awaySeconds)
        day.move(toEast: 0, toNorth: 0, speedMetersPerSecond: 1.4)
        day.stay(seconds: 1_800)
        return day
    }

    @Test("a 4-minute errand splits the stay in two; the merger joins them into one visit")
    func shortAbsence() throws {
        let day = Self.day(awaySeconds: 30)
        let visits = VisitDetector.visits(in: day.locations)
        try #require(visits.count == 2)
        let merged = VisitMerger().merged(visits)
        try #require(merged.count == 1)
        #expect(merged[0].arrival == visits[0].arrival)
        #expect(merged[0].departure == visits[1].departure)
        #expect(merged[0].locationCount == visits[0].locationCount + visits[1].locationCount)
        // Both halves are at home: the merged center is too (10 m noise, 120 fixes).
        #expect(merged[0].center.distanceMeters(to: SyntheticDay.coordinate(east: 0, north: 0)) < 6)
    }

    @Test("a visit elsewhere in between, or a long absence, keeps the visits apart")
    func separateVisits() throws {
        let visits = VisitDetector.visits(in: Self.day(awaySeconds: 900).locations)
        try #require(visits.count == 3)
        #expect(VisitMerger().merged(visits) == visits)
        let apart = VisitDetector.visits(in: Self.day(awaySeconds: 30).locations)
        #expect(VisitMerger(maximumGapSeconds: 60).merged(apart) == apart)
    }

    @Test("visits to places farther apart than the distance threshold are not merged")
    func distantPlaces() throws {
        let arrival = Date(timeIntervalSinceReferenceDate: 0)
        let first = try Visit(arrival: arrival, departure: arrival + 600, center: SyntheticDay.coordinate(east: 0, north: 0),
                              radiusMeters: 10, locationCount: 20)
        let second = try Visit(arrival: arrival + 700, departure: nil, center: SyntheticDay.coordinate(east: 150, north: 0),
                               radiusMeters: 10, locationCount: 20)
        #expect(VisitMerger().merged([first, second]) == [first, second])
        let merged = VisitMerger(maximumCenterDistanceMeters: 200).merged([first, second])
        try #require(merged.count == 1)
        #expect(merged[0].departure == nil)
        // Equal weights: the center is midway and the radius √(10² + 75²) ≈ 75.7 m.
        #expect(merged[0].center.distanceMeters(to: SyntheticDay.coordinate(east: 75, north: 0)) < 0.01)
        #expect(abs(merged[0].radiusMeters - (100.0 + 75 * 75).squareRoot()) < 0.01)
    }
}
