import Testing
import TravelogGeocoding
import TravelogTestSupport

@Suite("the k-d tree finds what a brute-force scan finds")
struct PointKDTreeTests {
    /// Points on a unit sphere, a third of them in tight clusters (as towns are), some repeated.
    static func points(_ count: Int, seed: UInt64) -> [SIMD3<Double>] {
        var rng = SplitMix64(seed: seed)
        var points: [SIMD3<Double>] = []
        while points.count < count {
            let direction = SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())
            let length = (direction * direction).sum().squareRoot()
            guard length > 0 else { continue }
            let point = direction / length
            points.append(point)
            if rng.nextUnit() < 0.3 {
                for _ in 0..<5 { points.append(point + SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian()) * 1e-3) }
            }
            if rng.nextUnit() < 0.05 { points.append(point) }  // an exact duplicate
        }
        return points
    }

    static func squaredDistance(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let d = a - b
        return (d * d).sum()
    }

    @Test("the nearest point has the brute-force minimum distance", arguments: [1, 2, 3, 10, 1000, 5000])
    func nearest(count: Int) throws {
        let points = Self.points(count, seed: 0xC0FFEE &+ UInt64(count))
        let tree = PointKDTree(points: points)
        #expect(tree.count == points.count)
        var rng = SplitMix64(seed: 42)
        for _ in 0..<500 {
            // Queries near the sphere and far inside it, and some exactly on a point.
            let query = rng.nextUnit() < 0.2 ? points[Int(rng.nextUnit() * Double(points.count))]
                : SIMD3(rng.nextUnit() * 2 - 1, rng.nextUnit() * 2 - 1, rng.nextUnit() * 2 - 1)
            let found = try #require(tree.nearest(to: query))
            let expected = points.map { Self.squaredDistance($0, query) }.min() ?? .infinity
            #expect(found.squaredDistance == expected)
            #expect(Self.squaredDistance(points[found.index], query) == found.squaredDistance)
        }
    }

    @Test("a radius query returns exactly the points strictly inside the radius")
    func radius() {
        let points = Self.points(3000, seed: 7)
        let tree = PointKDTree(points: points)
        var rng = SplitMix64(seed: 8)
        for _ in 0..<100 {
            let query = SIMD3(rng.nextUnit() * 2 - 1, rng.nextUnit() * 2 - 1, rng.nextUnit() * 2 - 1)
            let squaredRadius = rng.nextUnit() * 0.3
            var found: [Int] = []
            tree.forEach(within: squaredRadius, of: query) { index, squared in
                #expect(squared == Self.squaredDistance(points[index], query))
                found.append(index)
            }
            let expected = points.indices.filter { Self.squaredDistance(points[$0], query) < squaredRadius }
            #expect(found.sorted() == expected)
        }
    }

    @Test("an empty tree finds nothing")
    func empty() {
        let tree = PointKDTree(points: [])
        #expect(tree.nearest(to: SIMD3(0, 0, 0)) == nil)
        var visited = 0
        tree.forEach(within: 1e9, of: SIMD3(0, 0, 0)) { _, _ in visited += 1 }
        #expect(visited == 0)
    }
}
