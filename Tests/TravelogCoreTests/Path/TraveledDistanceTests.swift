import Foundation
import Testing
import TravelogCore
import TravelogTestSupport

@Suite("Jitter-robust traveled distance")
struct TraveledDistanceTests {
    /// An hour at one spot: fixes every `intervalSeconds` with 20 m of noise (RMS radial).
    static func stationaryHour(intervalSeconds: Double, reportedAccuracyMeters: Double, seed: UInt64) -> [Location] {
        var generator = SplitMix64(seed: seed)
        var track = SimulatedTrack(intervalSeconds: intervalSeconds)
        track.stay(seconds: 3_600)
        return track.fixes(accuracyMeters: 20, reportedAccuracyMeters: reportedAccuracyMeters, using: &generator)
    }

    @Test("standing still for an hour with 20 m of jitter travels less than 50 m", arguments: [
        (5.0, 20.0), (1, 20), (5, -1), (1, -1), (30, 20),
    ])
    func stationaryHour(intervalSeconds: Double, reportedAccuracyMeters: Double) {
        for seed in UInt64(1)...3 {
            let fixes = Self.stationaryHour(intervalSeconds: intervalSeconds, reportedAccuracyMeters: reportedAccuracyMeters, seed: seed)
            let distance = TraveledDistance(fixes)
            // The naive sum of steps for comparison: kilometres.
            let naive = zip(fixes, fixes.dropFirst()).reduce(0) { $0 + $1.1.distanceMeters(from: $1.0) }
            #expect(naive > 2_000)
            #expect(distance.distanceMeters < 50, "seed \(seed)")
            #expect(distance.movingDurationSeconds < 60, "seed \(seed)")
        }
    }

    @Test("jitter that wanders slowly (correlated over a minute) does not become distance either")
    func correlatedJitter() {
        for seed in UInt64(1)...4 {
            var generator = SplitMix64(seed: seed)
            let interval = 5.0, correlation = exp(-interval / 60), σ = 20 / 2.0.squareRoot()
            var east = σ * generator.gaussian(), north = σ * generator.gaussian()
            let fixes = (0..<720).map { index in
                east = correlation * east + (1 - correlation * correlation).squareRoot() * σ * generator.gaussian()
                north = correlation * north + (1 - correlation * correlation).squareRoot() * σ * generator.gaussian()
                return Location(coordinate: SimulatedTrack.coordinate(east: east, north: north), horizontalAccuracyMeters: 20,
                                timestamp: Date(timeIntervalSinceReferenceDate: Double(index) * interval))
            }
            #expect(TraveledDistance(fixes).distanceMeters < 50, "seed \(seed)")
        }
    }

    @Test("a 5 km walk with 5 m noise and 5 s fixes is measured within 3 % of its true length", arguments: UInt64(1)...6)
    func walk(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let walk = SimulatedTrack.walk(lengthMeters: 5_000, speedMetersPerSecond: 1.4, intervalSeconds: 5, using: &generator)
        let fixes = walk.fixes(accuracyMeters: 5, using: &generator)
        let distance = TraveledDistance(fixes)
        let naive = zip(fixes, fixes.dropFirst()).reduce(0) { $0 + $1.1.distanceMeters(from: $1.0) }
        #expect(naive > 1.2 * walk.trueLengthMeters)  // what the noise does to a plain sum
        #expect(abs(distance.distanceMeters / walk.trueLengthMeters - 1) < 0.03)
        let walkingSeconds = Double(walk.truth.count - 1) * walk.intervalSeconds
        #expect(abs(distance.movingDurationSeconds / walkingSeconds - 1) < 0.02)
    }

    @Test("other speeds, fix rates and accuracies stay close to the true length", arguments: [
        // speed m/s, interval s, accuracy m, allowed relative error: the largest error measured over
        // these six seeds, rounded up to the next percent. Sparse fixes with large noise cannot
        // resolve the corners of a walk (30 s at 1.4 m/s is 42 m between fixes with 20 m noise).
        (1.4, 1.0, 5.0, 0.02), (15, 1, 5, 0.01), (4, 5, 5, 0.01), (1.4, 5, 10, 0.04), (1.4, 30, 20, 0.07), (15, 30, 20, 0.02),
    ])
    func otherRegimes(speed: Double, intervalSeconds: Double, accuracyMeters: Double, allowed: Double) {
        for seed in UInt64(1)...6 {
            var generator = SplitMix64(seed: seed)
            let walk = SimulatedTrack.walk(lengthMeters: 5_000, speedMetersPerSecond: speed, intervalSeconds: intervalSeconds,
                                           cornerEveryMeters: speed > 5 ? 2_000 : 250, using: &generator)
            let distance = TraveledDistance(walk.fixes(accuracyMeters: accuracyMeters, using: &generator))
            #expect(abs(distance.distanceMeters / walk.trueLengthMeters - 1) < allowed, "seed \(seed)")
        }
    }

    @Test("fixes without accuracy are taken as 20 m fixes: an accurate walk is smoothed, never inflated")
    func unknownAccuracyWalk() {
        for seed in UInt64(1)...3 {
            var generator = SplitMix64(seed: seed)
            let walk = SimulatedTrack.walk(lengthMeters: 5_000, speedMetersPerSecond: 1.4, intervalSeconds: 5, using: &generator)
            let distance = TraveledDistance(walk.fixes(accuracyMeters: 5, reportedAccuracyMeters: -1, using: &generator))
            let ratio = distance.distanceMeters / walk.trueLengthMeters
            #expect(ratio > 0.85 && ratio < 1, "seed \(seed)")
        }
    }

    @Test("a half-hour stop in the middle of a walk adds nothing and is not moving time")
    func walkWithStop() {
        for seed in UInt64(1)...4 {
            var generator = SplitMix64(seed: seed)
            var track = SimulatedTrack.walk(lengthMeters: 2_500, speedMetersPerSecond: 1.4, intervalSeconds: 5, using: &generator)
            let arrival = track.truth.count
            track.stay(seconds: 1_800)
            let departure = track.truth.count
            track.continueWalk(lengthMeters: 2_500, speedMetersPerSecond: 1.4, using: &generator)
            let fixes = track.fixes(accuracyMeters: 10, using: &generator)
            // The same fixes without the stop, the second half moved back in time.
            let withoutStop = Array(fixes[..<arrival]) + fixes[departure...].map { fix in
                var moved = fix
                moved.timestamp = fix.timestamp.addingTimeInterval(-1_800)
                return moved
            }
            let withStop = TraveledDistance(fixes), reference = TraveledDistance(withoutStop)
            #expect(abs(withStop.distanceMeters - reference.distanceMeters) < 50, "seed \(seed)")
            #expect(abs(withStop.distanceMeters / track.trueLengthMeters - 1) < 0.06, "seed \(seed)")
            let walkingSeconds = Double(track.truth.count - 1) * track.intervalSeconds - 1_800
            #expect(abs(withStop.movingDurationSeconds / walkingSeconds - 1) < 0.03, "seed \(seed)")
        }
    }

    @Test("a single fix far off the path is discarded as a spike")
    func spike() {
        var generator = SplitMix64(seed: 9)
        let walk = SimulatedTrack.walk(lengthMeters: 2_000, speedMetersPerSecond: 1.4, intervalSeconds: 5, using: &generator)
        var fixes = walk.fixes(accuracyMeters: 5, using: &generator)
        let clean = TraveledDistance(fixes)
        fixes[100].coordinate = fixes[100].coordinate.destination(bearingDegrees: 45, distanceMeters: 2_000)
        let spiked = TraveledDistance(fixes)
        #expect(spiked.spikeCount == 1)
        #expect(abs(spiked.distanceMeters - clean.distanceMeters) < 10)

        var still = Self.stationaryHour(intervalSeconds: 5, reportedAccuracyMeters: 20, seed: 4)
        still[300].coordinate = still[300].coordinate.destination(bearingDegrees: 200, distanceMeters: 5_000)
        #expect(TraveledDistance(still).distanceMeters < 50)
    }

    @Test("a long silence at the same place continues the stay")
    func gapAtSamePlace() {
        var fixes = Self.stationaryHour(intervalSeconds: 30, reportedAccuracyMeters: 15, seed: 6)
        for index in 60..<fixes.count { fixes[index].timestamp += 7_200 }
        let distance = TraveledDistance(fixes)
        #expect(distance.distanceMeters < 50)
        #expect(distance.movingDurationSeconds < 60)
    }

    @Test("a location older than the previous one is ignored")
    func outOfOrder() {
        var generator = SplitMix64(seed: 2)
        let walk = SimulatedTrack.walk(lengthMeters: 1_000, speedMetersPerSecond: 1.4, intervalSeconds: 5, using: &generator)
        let fixes = walk.fixes(accuracyMeters: 5, using: &generator)
        var shuffled = fixes
        shuffled.insert(fixes[3], at: 50)
        let reference = TraveledDistance(fixes), disordered = TraveledDistance(shuffled)
        #expect(disordered.outOfOrderCount == 1)
        #expect(disordered.distanceMeters == reference.distanceMeters)
    }

    @Test("nothing and a single fix travel nothing")
    func degenerate() {
        #expect(TraveledDistance([]).distanceMeters == 0)
        let one = Location(coordinate: SimulatedTrack.origin, timestamp: Date(timeIntervalSinceReferenceDate: 0))
        let distance = TraveledDistance([one])
        #expect(distance.distanceMeters == 0 && distance.movingDurationSeconds == 0)
        #expect(distance.maximumSpeedMetersPerSecond == nil)
    }
}

@Suite("Jitter-robust traveled distance on a real day")
struct TraveledDistanceFixtureTests {
    @Test("Reitti's 17 June 2025: four walks between home and church, not the 10 km the raw fixes add up to",
          .enabled(if: SharedFixtures.available, SharedFixtures.absentReason))
    func reittiDay() throws {
        let locations = try FixtureTrack.locations(gpx: SharedFixtures.url("reitti/gpx/20250617.gpx"))
        #expect(locations.count == 2_289)  // reitti/EXPECTED_GPX_SUMMARY.json
        let figures = PathFigures(locations)
        #expect(figures.lengthMeters > 9_500)  // 10 081 m on WGS84 (EXPECTED_GPX_SUMMARY.json)
        // Reitti's expected visits (reitti/README.md): home (MOLTKESTR) and church (ST_THOMAS),
        // visited home → church → home → church → home. Four legs of at least the straight line.
        let home = Coordinate(validLatitude: 53.863149, longitude: 10.700927)!
        let church = Coordinate(validLatitude: 53.86813491042206, longitude: 10.71152842314665)!
        let fourLegs = 4 * home.distanceMeters(to: church)
        #expect(figures.traveledDistanceMeters > fourLegs)
        #expect(figures.traveledDistanceMeters < 1.6 * fourLegs)
        // The four trips between Reitti's visits last 1 198 s together; moving time includes the
        // walk from the door to where the fixes settle.
        #expect(figures.movingDurationSeconds > 1_000 && figures.movingDurationSeconds < 2_400)
    }
}
