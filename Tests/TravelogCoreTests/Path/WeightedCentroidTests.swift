import Foundation
import Testing
@testable import TravelogCore
import TravelogTestSupport

@Suite("Weighted centroid")
struct WeightedCentroidTests {
    static func fixes(_ count: Int, seed: UInt64, around center: Coordinate) -> [PathFix] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { index in
            let coordinate = center.destination(bearingDegrees: Double(random.next() % 360),
                                                distanceMeters: Double(random.next() % 40))
            return PathFix(point: SurfacePoint(coordinate), accuracyMeters: 5 + Double(random.next() % 20), time: Double(index) * 10)
        }
    }

    @Test("merging two centroids gives the mean and the spread of adding every fix to one")
    func mergeEqualsAdding() {
        let a = Self.fixes(50, seed: 1, around: Coordinate(validLatitude: 52.52, longitude: 13.40)!)
        let b = Self.fixes(70, seed: 2, around: Coordinate(validLatitude: 52.5203, longitude: 13.4004)!)
        var one = WeightedCentroid(a[0])
        for fix in a.dropFirst() + b { one.add(fix) }
        var left = WeightedCentroid(a[0])
        for fix in a.dropFirst() { left.add(fix) }
        var right = WeightedCentroid(b[0])
        for fix in b.dropFirst() { right.add(fix) }
        left.merge(right)
        #expect(left.count == one.count)
        // Tolerances: round-off of sums of ~100 terms of Earth-centred coordinates (metres).
        #expect(abs(left.spreadMeters - one.spreadMeters) < 1e-6)
        #expect(abs(left.point.x - one.point.x) < 1e-6 && abs(left.point.y - one.point.y) < 1e-6)
        #expect(one.spreadMeters > 5 && one.spreadMeters < 40)
    }
}
