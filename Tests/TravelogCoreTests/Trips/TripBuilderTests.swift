import Foundation
import Testing
import TravelogCore
import TravelogTestSupport

@Suite("Trips between visits")
struct TripBuilderTests {
    /// 20 minutes at home, a straight trip of `meters` east at `speed`, 20 minutes there.
    static func day(meters: Double, speed: Double, interval: Double = 10, reportSpeed: Bool = false) -> SyntheticDay {
        var day = SyntheticDay(intervalSeconds: interval, accuracyMeters: 8)
        day.stay(seconds: 1_200)
        day.move(toEast: meters, toNorth: 0, speedMetersPerSecond: speed, reportSpeed: reportSpeed)
        day.stay(seconds: 1_200)
        return day
    }

    @Test("the trip's mode follows its speed", arguments: [
        (1.3, TransportMode.walking), (3.0, .running), (5.5, .cycling), (15, .automotive), (30, .automotive),
    ])
    func modeBySpeed(speed: Double, expected: TransportMode) throws {
        let day = Self.day(meters: speed * 900, speed: speed)
        let visits = VisitDetector.visits(in: day.locations)
        try #require(visits.count == 2)
        let trips = TripBuilder().trips(between: visits, locations: day.locations)
        try #require(trips.count == 1)
        #expect(trips[0].mode == expected, "\(trips[0].minutesByMode)")
        #expect(trips[0].start == visits[0].departure && trips[0].end == visits[1].arrival)
        #expect(trips[0].durationSeconds == trips[0].end.timeIntervalSince(trips[0].start))
        // A straight line: the distance is the line between the centers, give or take the noise
        // of 8 m fixes (TraveledDistanceTests measures a few per cent on walks).
        let straight = visits[0].center.distanceMeters(to: visits[1].center)
        #expect(trips[0].distanceMeters >= straight && trips[0].distanceMeters < straight * 1.05)
    }

    @Test("a flight with the phone off: the gap between the visits votes airborne, its distance is the geodesic")
    func airborneGap() throws {
        var day = SyntheticDay()
        day.stay(seconds: 1_800)
        day.gap(seconds: 2 * 3_600, toEast: 900_000, toNorth: 0)
        day.stay(seconds: 1_800)
        let visits = VisitDetector.visits(in: day.locations)
        try #require(visits.count == 2)
        let trip = try #require(TripBuilder().trip(from: visits[0], to: visits[1], locations: day.locations))
        #expect(trip.mode == .airborne)
        #expect(trip.locationCount == 0)
        #expect(trip.distanceMeters == visits[0].center.distanceMeters(to: visits[1].center))
    }

    @Test("the fixes' own speeds win over noisy positions")
    func fixSpeeds() throws {
        // Running at 3 m/s, fixes every 2 s with 8 m of noise: steps alone would read 5 m/s.
        let day = Self.day(meters: 2_700, speed: 3, interval: 2, reportSpeed: true)
        let visits = VisitDetector.visits(in: day.locations)
        try #require(visits.count == 2)
        let trip = try #require(TripBuilder().trips(between: visits, locations: day.locations).first)
        #expect(trip.mode == .running)
    }

    @Test("the phone's confident motion report settles an ambiguous speed; an implausible or unsure one does not")
    func motionHints() throws {
        let day = Self.day(meters: 2_700, speed: 3)
        let visits = VisitDetector.visits(in: day.locations)
        try #require(visits.count == 2)
        let start = try #require(visits[0].departure)
        func mode(_ activity: MotionActivity) -> TransportMode? {
            TripBuilder().trip(from: visits[0], to: visits[1], locations: day.locations, activities: [activity])?.mode
        }
        #expect(mode(MotionActivity(startDate: start - 60, mode: .cycling, confidence: .high)) == .cycling)
        #expect(mode(MotionActivity(startDate: start - 60, mode: .cycling, confidence: .low)) == .running)
        #expect(mode(MotionActivity(startDate: start - 60, mode: .airborne, confidence: .high)) == .running)
        #expect(mode(MotionActivity(startDate: start - 60, mode: nil, confidence: .high)) == .running)
    }

    @Test("the classifier votes minutes: a long drive with short walks at its ends is a drive")
    func minuteVote() {
        var classifier = TransportModeClassifier()
        var day = SyntheticDay(intervalSeconds: 5, accuracyMeters: 5)
        day.move(toEast: 200, toNorth: 0, speedMetersPerSecond: 1.4)
        day.move(toEast: 15_000, toNorth: 0, speedMetersPerSecond: 14)
        day.move(toEast: 15_200, toNorth: 0, speedMetersPerSecond: 1.4)
        for location in day.locations { classifier.ingest(location) }
        #expect(classifier.mode == .automotive)
        let minutes = classifier.minutesByMode
        #expect((minutes[.walking] ?? 0) > 3 && (minutes[.automotive] ?? 0) > 15)
        #expect(TransportModeClassifier().mode == .stationary)
    }

    @Test("no trip from a visit that has not ended, or to one that arrives before it")
    func invalidPairs() throws {
        let now = Date(timeIntervalSinceReferenceDate: 0), here = SyntheticDay.coordinate(east: 0, north: 0)
        let there = SyntheticDay.coordinate(east: 1_000, north: 0)
        let ongoing = try Visit(arrival: now, departure: nil, center: there, radiusMeters: 5, locationCount: 10)
        let earlier = try Visit(arrival: now - 600, departure: now - 300, center: here, radiusMeters: 5, locationCount: 10)
        let ended = try Visit(arrival: now, departure: now + 600, center: there, radiusMeters: 5, locationCount: 10)
        #expect(TripBuilder().trip(from: ongoing, to: ended, locations: []) == nil)
        #expect(TripBuilder().trip(from: ended, to: earlier, locations: []) == nil)
        #expect(TripBuilder().trips(between: [earlier, ongoing, ended], locations: []).count == 1)
    }
}
