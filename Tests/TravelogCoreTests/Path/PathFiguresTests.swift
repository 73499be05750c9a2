import Foundation
import Testing
import TravelogCore
import TravelogTestSupport

@Suite("Path figures")
struct PathFiguresTests {
    static let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    /// A 2.5 km walk, a 30-minute stop, another 2.5 km: 5 s fixes with 5 m noise.
    static func walkWithStop(seed: UInt64) -> (track: SimulatedTrack, fixes: [Location]) {
        var generator = SplitMix64(seed: seed)
        var track = SimulatedTrack.walk(lengthMeters: 2_500, speedMetersPerSecond: 1.4, intervalSeconds: 5, using: &generator)
        track.stay(seconds: 1_800)
        track.continueWalk(lengthMeters: 2_500, speedMetersPerSecond: 1.4, using: &generator)
        return (track, track.fixes(accuracyMeters: 5, using: &generator))
    }

    @Test("an empty path has no figures")
    func empty() {
        let figures = PathFigures()
        #expect(figures.locationCount == 0 && figures.lengthMeters == 0 && figures.durationSeconds == 0)
        #expect(figures.startDate == nil && figures.endDate == nil)
        #expect(figures.averageSpeedMetersPerSecond == nil && figures.maximumSpeedMetersPerSecond == nil)
        #expect(figures.elevationGainMeters == 0 && figures.elevationLossMeters == 0)
    }

    @Test("length is the sum of the geodesics between consecutive locations, duration first to last")
    func lengthAndDuration() {
        let (_, fixes) = Self.walkWithStop(seed: 1)
        let figures = PathFigures(fixes)
        var sum = 0.0
        for (before, after) in zip(fixes, fixes.dropFirst()) { sum += after.distanceMeters(from: before) }
        #expect(figures.lengthMeters == sum)
        #expect(figures.locationCount == fixes.count)
        #expect(figures.startDate == fixes.first?.timestamp && figures.endDate == fixes.last?.timestamp)
        #expect(figures.durationSeconds == Double(fixes.count - 1) * 5)
    }

    @Test("moving time leaves out the stop, and the average speed is the walking speed", arguments: UInt64(1)...3)
    func movingTimeAndAverageSpeed(seed: UInt64) throws {
        let (track, fixes) = Self.walkWithStop(seed: seed)
        let figures = PathFigures(fixes)
        #expect(figures.traveledDistanceMeters == TraveledDistance(fixes).distanceMeters)
        let walkingSeconds = Double(track.truth.count - 1) * track.intervalSeconds - 1_800
        #expect(abs(figures.movingDurationSeconds / walkingSeconds - 1) < 0.03)
        let average = try #require(figures.averageSpeedMetersPerSecond)
        // The true average is the true length over the walking time (1.4 m/s); 3 % for the
        // distance and 3 % for the time measured above.
        #expect(abs(average / (track.trueLengthMeters / walkingSeconds) - 1) < 0.06)
    }

    @Test("the maximum of reported speeds ignores a single wild value")
    func maximumReportedSpeed() throws {
        let (_, fixes) = Self.walkWithStop(seed: 2)
        var generator = SplitMix64(seed: 7)
        var reported = fixes.map { fix in
            var withSpeed = fix
            withSpeed.speedMetersPerSecond = 1.4 + 0.1 * generator.gaussian()
            return withSpeed
        }
        let honest = try #require(PathFigures(reported).maximumSpeedMetersPerSecond)
        reported[400].speedMetersPerSecond = 80
        let maximum = try #require(PathFigures(reported).maximumSpeedMetersPerSecond)
        #expect(maximum == honest)
        #expect(maximum > 1.5 && maximum < 2)
    }

    @Test("without reported speeds, the maximum comes from the jitter-robust path, not from noisy steps")
    func maximumDerivedSpeed() throws {
        let (_, fixes) = Self.walkWithStop(seed: 3)
        let naive = zip(fixes, fixes.dropFirst()).map { $1.distanceMeters(from: $0) / 5 }.max() ?? 0
        #expect(naive > 3)
        let maximum = try #require(PathFigures(fixes).maximumSpeedMetersPerSecond)
        #expect(maximum > 1.3 && maximum < 2)
    }

    @Test("elevation gain and loss count the climbs, not the altitude noise")
    func elevation() {
        var generator = SplitMix64(seed: 5)
        // Up 100 m, down 60 m, one metre per fix, with ±1.5 m of noise on top.
        let profile = (0...100).map(Double.init) + (0..<60).map { 99 - Double($0) }
        let fixes = profile.enumerated().map { index, altitude in
            Location(coordinate: SimulatedTrack.coordinate(east: Double(index), north: 0),
                     altitudeMeters: altitude + Double.random(in: -1.5...1.5, using: &generator),
                     timestamp: Self.start.addingTimeInterval(Double(index)))
        }
        let figures = PathFigures(fixes)
        #expect(abs(figures.elevationGainMeters - 100) <= 3)
        #expect(abs(figures.elevationLossMeters - 60) <= 3)
        let flat = fixes.map { fix in
            var noisy = fix
            noisy.altitudeMeters = 400 + Double.random(in: -2...2, using: &generator)
            return noisy
        }
        let flatFigures = PathFigures(flat)
        #expect(flatFigures.elevationGainMeters == 0 && flatFigures.elevationLossMeters == 0)
    }

    @Test("a location older than the previous one is ignored and counted")
    func outOfOrder() {
        let (_, fixes) = Self.walkWithStop(seed: 4)
        var disordered = Array(fixes.prefix(100))
        disordered.insert(fixes[10], at: 60)
        let figures = PathFigures(disordered)
        #expect(figures.outOfOrderCount == 1)
        #expect(figures.locationCount == 100)
        #expect(figures.lengthMeters == PathFigures(fixes.prefix(100)).lengthMeters)
    }
}
