import Foundation
import Testing
import TravelogCore
import TravelogTestSupport

@Suite("One person, several devices: the fused track")
struct TrackFusionTests {
    static let origin = Coordinate(validLatitude: 52.52, longitude: 13.40)!
    /// 2024-05-01T08:00:00Z.
    static let start = 1_714_550_400.0

    /// Fixes every `interval` seconds for `seconds`, `metersPerSecond` towards `bearing` from
    /// `from`, jittered by a Gaussian of `accuracy` / 1.5 per axis.
    static func track(from: Coordinate = origin, bearing: Double = 90, metersPerSecond: Double, seconds: Double,
                      interval: Double = 5, accuracy: Double = 8, startOffset: Double = 0, seed: UInt64) -> [Location] {
        var random = SplitMix64(seed: seed)
        return stride(from: 0.0, through: seconds, by: interval).map { second in
            let truth = from.destination(bearingDegrees: bearing, distanceMeters: metersPerSecond * second)
            let noisy = truth.destination(bearingDegrees: random.nextUnit() * 360,
                                          distanceMeters: abs(random.gaussian()) * accuracy / 1.5)
            return Location(coordinate: noisy, horizontalAccuracyMeters: accuracy,
                            timestamp: Date(timeIntervalSince1970: start + startOffset + second))
        }
    }

    /// The fixes of several devices in time order.
    static func merged(_ devices: [Int64: [Location]]) -> [TrackFusion.Fix] {
        devices.flatMap { device, fixes in fixes.map { TrackFusion.Fix(device: device, location: $0) } }
            .sorted { ($0.location.timestamp, $0.device) < ($1.location.timestamp, $1.device) }
    }

    /// The distance of a fused track as the statistics measure it (UTC days).
    static func distance(_ fused: [TrackFusion.Fused]) -> Double {
        var statistics = TravelStatistics(period: .day) { _ in 0 }
        for fix in fused { statistics.ingest(fix.fix.location, device: fix.lane) }
        return statistics.total.distanceMeters
    }

    static func distance(_ locations: [Location]) -> Double {
        distance(locations.map { TrackFusion.Fused(fix: .init(device: 1, location: $0), lane: 0, group: [1]) })
    }

    @Test("one file imported under two device names is one track: the distance does not double")
    func sameFileTwice() {
        let walk = Self.track(metersPerSecond: 1.4, seconds: 3 * 3600, seed: 1)
        let fused = TrackFusion.fused(Self.merged([1: walk, 2: walk]))
        #expect(fused.count == walk.count)
        #expect(Set(fused.map(\.lane)).count == 1)
        #expect(fused.allSatisfy { $0.group == [1, 2] })
        let single = Self.distance(walk)
        #expect(single > 14_000)
        #expect(abs(Self.distance(fused) - single) <= 1e-6 * single)
    }

    @Test("a phone and a watch carried together: one walk, not shortened or lengthened by the switches")
    func phoneAndWatch() {
        // 15 km east at walking speed: the watch precise every 5 s, the phone coarse every 30 s.
        let watch = Self.track(metersPerSecond: 1.4, seconds: 3 * 3600, interval: 5, accuracy: 5, seed: 2)
        let phone = Self.track(metersPerSecond: 1.4, seconds: 3 * 3600, interval: 30, accuracy: 25, seed: 3)
        let fused = TrackFusion.fused(Self.merged([1: phone, 2: watch]))
        #expect(fused.allSatisfy { $0.fix.device == 2 }, "the watch's better fixes are kept throughout")
        let truth = 1.4 * 3 * 3600
        let total = Self.distance(fused)
        #expect(abs(total - truth) <= 0.03 * truth, "\(total) for \(truth)")
    }

    @Test("a phone left at home while the watch walks: the walk counts once, the phone's jitter adds about nothing")
    func phoneLeftAtHome() {
        let watch = Self.track(metersPerSecond: 1.4, seconds: 2 * 3600, accuracy: 5, seed: 4)
        let home = Self.track(metersPerSecond: 0, seconds: 2 * 3600, interval: 10, accuracy: 30, seed: 5)
        let fused = TrackFusion.fused(Self.merged([1: home, 2: watch]))
        // Apart as soon as the walker is a few streets away: from the second window on, two lanes.
        let late = fused.filter { $0.fix.location.timestamp.timeIntervalSince1970 >= Self.start + 1800 }
        #expect(Set(late.map(\.lane)).count == 2)
        #expect(late.allSatisfy { $0.group.count == 1 })
        let walk = Self.distance(watch)
        let total = Self.distance(fused)
        #expect(total >= walk - 0.02 * walk && total <= walk + 100, "\(total) for a walk of \(walk)")
    }

    @Test("a parent's and a child's phones on different trips at the same time: both trips count")
    func parentAndChild() {
        let parent = Self.track(bearing: 90, metersPerSecond: 10, seconds: 3600, accuracy: 10, seed: 6)
        let childStart = Self.origin.destination(bearingDegrees: 0, distanceMeters: 5_000)
        let child = Self.track(from: childStart, bearing: 0, metersPerSecond: 4, seconds: 3600, accuracy: 10, seed: 7)
        let fused = TrackFusion.fused(Self.merged([1: parent, 2: child]))
        #expect(fused.count == parent.count + child.count)
        #expect(Set(fused.map(\.lane)).count == 2)
        let expected = Self.distance(parent) + Self.distance(child)
        #expect(expected > 45_000)
        #expect(abs(Self.distance(fused) - expected) <= 1e-6 * expected)
    }

    @Test("devices that hand over (the phone's battery dies, the watch goes on): no movement lost")
    func handOver() {
        let walk = Self.track(metersPerSecond: 1.4, seconds: 2 * 3600, interval: 5, accuracy: 8, seed: 8)
        let half = walk.count / 2
        let phone = Array(walk[..<half]), watch = Array(walk[(half - 12)...])
        let fused = TrackFusion.fused(Self.merged([1: phone, 2: watch]))
        let single = Self.distance(walk)
        #expect(abs(Self.distance(fused) - single) <= 0.02 * single)
    }

    @Test("a chosen device's silence is filled from the others: no movement lost inside a window")
    func silenceFilled() {
        // The watch (better) records only the first 5 minutes of every 15; the phone records throughout.
        let walk = Self.track(metersPerSecond: 1.4, seconds: 3600, interval: 5, accuracy: 5, seed: 9)
        let watch = walk.filter { Int($0.timestamp.timeIntervalSince1970 - Self.start) % 900 < 300 }
        let phone = Self.track(metersPerSecond: 1.4, seconds: 3600, interval: 10, accuracy: 15, seed: 10)
        let fused = TrackFusion.fused(Self.merged([1: phone, 2: watch]))
        #expect(fused.contains { $0.fix.device == 1 } && fused.contains { $0.fix.device == 2 })
        let truth = 1.4 * 3600
        #expect(abs(Self.distance(fused) - truth) <= 0.05 * truth)
    }

    @Test("a day's fused track does not depend on the range read around it")
    func dayIndependent() {
        // Two devices over two UTC days, switching quality at midnight.
        let first = Self.track(metersPerSecond: 1.4, seconds: 40 * 3600, interval: 30, accuracy: 10, startOffset: 0, seed: 11)
        let second = Self.track(metersPerSecond: 1.4, seconds: 40 * 3600, interval: 20, accuracy: 12, startOffset: 0, seed: 12)
        let all = Self.merged([1: first, 2: second])
        let midnight = Date(timeIntervalSince1970: 1_714_608_000)  // 2024-05-02T00:00:00Z
        let whole = TrackFusion.fused(all).filter { $0.fix.location.timestamp >= midnight }
        let fromMidnight = TrackFusion.fused(all.filter { $0.location.timestamp >= midnight })
        #expect(whole.map(\.fix) == fromMidnight.map(\.fix))
    }
}
