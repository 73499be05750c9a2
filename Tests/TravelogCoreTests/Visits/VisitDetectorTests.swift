import Foundation
import Testing
import TravelogCore
import TravelogTestSupport

@Suite("Visit detection")
struct VisitDetectorTests {
    static let home = (east: 0.0, north: 0.0)
    static let work = (east: 2_000.0, north: 1_000.0)

    static func distance(_ visit: Visit, _ place: (east: Double, north: Double)) -> Double {
        visit.center.distanceMeters(to: SyntheticDay.coordinate(east: place.east, north: place.north))
    }

    @Test("stay, walk 2 km, stay: two visits whose times are those of the first and last fix at each place")
    func stayWalkStay() throws {
        var day = SyntheticDay()
        day.stay(seconds: 1_800)
        let lastAtHome = day.date(day.time - day.intervalSeconds)
        day.move(toEast: Self.work.east, toNorth: Self.work.north, speedMetersPerSecond: 1.4)
        let reachedWork = try #require(day.locations.last).timestamp  // the walk's last fix is at work
        day.stay(seconds: 1_800)
        let visits = VisitDetector.visits(in: day.locations)
        try #require(visits.count == 2)
        #expect(visits[0].arrival == day.start)
        // The walk's first fixes are still within 100 m of home (a 30 s step is 42 m).
        let departureLag = try #require(visits[0].departure).timeIntervalSince(lastAtHome)
        #expect(departureLag >= 0 && departureLag <= 90)
        #expect(visits[1].departure == day.locations.last?.timestamp)
        // The walk's last fixes may join the stay (100 m ≈ 2–3 fixes early), or the stay may start
        // at its own first fix (one interval late) when they fell into the walk's last cluster.
        let arrivalLead = reachedWork.timeIntervalSince(visits[1].arrival)
        #expect(arrivalLead >= -day.intervalSeconds && arrivalLead <= 90, "arrival \(arrivalLead) s before reaching work")
        // 60 fixes with 10 m of noise: the mean is within a few metres (σ of the mean ≈ 1.3 m).
        #expect(Self.distance(visits[0], Self.home) < 6)
        #expect(Self.distance(visits[1], Self.work) < 6)
        #expect(visits.allSatisfy { $0.radiusMeters > 5 && $0.radiusMeters < 20 })
    }

    @Test("each visit is reported twice: on arrival (departure unknown) and when it ends")
    func reportedTwice() throws {
        var day = SyntheticDay()
        day.stay(seconds: 1_200)
        day.move(toEast: Self.work.east, toNorth: Self.work.north, speedMetersPerSecond: 14)
        day.stay(seconds: 1_200)
        var detector = VisitDetector()
        var events: [(index: Int, event: VisitEvent)] = []
        for (index, location) in day.locations.enumerated() {
            events += detector.ingest(location).map { (index, $0) }
        }
        #expect(detector.currentVisit != nil)
        events += detector.finish().map { (day.locations.count, $0) }
        #expect(detector.currentVisit == nil)
        try #require(events.count == 4)
        guard case .arrived(let arrived) = events[0].event, case .departed(let departed) = events[1].event,
              case .arrived = events[2].event, case .departed = events[3].event else {
            Issue.record("events out of order: \(events.map(\.event))")
            return
        }
        // Established once the fixes span 5 minutes (plus the allowance): the 10th fix, 270 s in.
        #expect(events[0].index == 10)
        #expect(arrived.departure == nil)
        #expect(departed.arrival == arrived.arrival)
        #expect(departed.departure != nil)
        #expect(departed.locationCount > arrived.locationCount)
    }

    @Test("a stay shorter than five minutes is not a visit")
    func shortStay() {
        var day = SyntheticDay()
        day.move(toEast: 1_000, toNorth: 0, speedMetersPerSecond: 10)
        day.stay(seconds: 180)
        day.move(toEast: 2_000, toNorth: 0, speedMetersPerSecond: 10)
        #expect(VisitDetector.visits(in: day.locations).isEmpty)
    }

    @Test("a long gap followed by a fix at the same place continues the visit")
    func gapAtSamePlace() throws {
        var day = SyntheticDay()
        day.stay(seconds: 600)
        day.gap(seconds: 4 * 3_600)
        day.stay(seconds: 600)
        let visits = VisitDetector.visits(in: day.locations)
        try #require(visits.count == 1)
        #expect(visits[0].arrival == day.start)
        #expect(visits[0].departure == day.locations.last?.timestamp)
    }

    @Test("a gap followed by fixes elsewhere ends the visit at the last fix seen at the place")
    func gapThenElsewhere() throws {
        var day = SyntheticDay()
        day.stay(seconds: 600)
        let lastSeen = day.locations.last?.timestamp
        day.gap(seconds: 2 * 3_600, toEast: Self.work.east, toNorth: Self.work.north)
        day.stay(seconds: 600)
        let visits = VisitDetector.visits(in: day.locations)
        try #require(visits.count == 2)
        #expect(visits[0].departure == lastSeen)
        #expect(visits[1].arrival == day.date(600 + 2 * 3_600))
    }

    @Test("a lone outlier 2 km away, contradicted by the next fix, does not end the visit")
    func loneOutlier() throws {
        var day = SyntheticDay()
        day.stay(seconds: 900)
        day.fix(offsetEast: 2_000)
        day.stay(seconds: 900)
        var detector = VisitDetector()
        let events = detector.ingest(contentsOf: day.locations) + detector.finish()
        try #require(events.count == 2)
        #expect(events[1].visit.departure == day.locations.last?.timestamp)
        #expect(detector.outlierCount == 1)
    }

    @Test("fixes with poor accuracy, or whose accuracy circle still reaches the place, do not end a visit")
    func inaccurateFixes() throws {
        var day = SyntheticDay()
        day.stay(seconds: 900)
        day.fix(offsetEast: 3_000, accuracyMeters: 1_500)  // a cell fix
        day.fix(offsetEast: 3_000, accuracyMeters: 1_500)
        day.fix(offsetEast: 180, accuracyMeters: 120)  // Wi-Fi, ambiguous: 180 m < 100 m + 120 m
        day.fix(offsetEast: 180, accuracyMeters: 120)
        day.stay(seconds: 900)
        var detector = VisitDetector()
        let visits = detector.ingest(contentsOf: day.locations + []).compactMap { event -> Visit? in
            if case .departed(let visit) = event { return visit }
            return nil
        } + detector.finish().map(\.visit)
        try #require(visits.count == 1)
        #expect(detector.inaccurateCount == 4)
    }

    @Test("an hour of 30 m jitter at a place is one visit, centered within 10 m")
    func jitterAtPlace() throws {
        for seed in UInt64(1)...5 {
            var day = SyntheticDay(intervalSeconds: 10, accuracyMeters: 30, seed: seed)
            day.stay(seconds: 3_600)
            let visits = VisitDetector.visits(in: day.locations)
            try #require(visits.count == 1, "seed \(seed)")
            // 360 fixes with 30 m RMS noise: the mean's σ per axis is 30/√2/√360 ≈ 1.1 m.
            #expect(Self.distance(visits[0], Self.home) < 10, "seed \(seed)")
            #expect(visits[0].arrival == day.start && visits[0].departure == day.locations.last?.timestamp)
        }
    }

    @Test("locations older than the previous one are ignored and counted (equal times are kept)")
    func outOfOrder() {
        var day = SyntheticDay()
        day.stay(seconds: 900)
        day.move(toEast: Self.work.east, toNorth: Self.work.north, speedMetersPerSecond: 14)
        day.stay(seconds: 900)
        var shuffled = day.locations
        shuffled.insert(shuffled.remove(at: 20), at: 5)  // fixes 5…19 now come after a later one
        shuffled.insert(shuffled[30], at: 31)  // the same time twice
        var detector = VisitDetector()
        let events = detector.ingest(contentsOf: shuffled) + detector.finish()
        #expect(detector.outOfOrderCount == 15)
        var kept = day.locations
        kept.removeSubrange(5...19)
        kept.insert(day.locations[30], at: 16)
        var reference = VisitDetector()
        #expect(events == reference.ingest(contentsOf: kept) + reference.finish())
        #expect(events.count == 4)
    }

    @Test("a visit cannot depart before it arrives")
    func visitInvariants() {
        let center = SyntheticDay.coordinate(east: 0, north: 0), now = Date(timeIntervalSinceReferenceDate: 0)
        #expect(throws: VisitError.departureBeforeArrival(arrival: now, departure: now - 1)) {
            try Visit(arrival: now, departure: now - 1, center: center, radiusMeters: 10, locationCount: 3)
        }
        #expect(throws: VisitError.invalidRadius(-1)) {
            try Visit(arrival: now, departure: nil, center: center, radiusMeters: -1, locationCount: 3)
        }
        #expect(throws: VisitError.invalidLocationCount(0)) {
            try Visit(arrival: now, departure: nil, center: center, radiusMeters: 1, locationCount: 0)
        }
    }
}
