import Testing
@testable import TravelogCore

@Suite("Map rects")
struct MapRectTests {
    private static let world = WebMercator.worldSizeMapPoints
    private let a = MapRect(x: 0, y: 0, width: 10, height: 10)
    private let b = MapRect(x: 5, y: 5, width: 10, height: 10)

    @Test("the null rect is the identity of union and meets nothing")
    func nullRect() {
        #expect(MapRect.null.isNull)
        #expect(MapRect.null.isEmpty)
        #expect(a.union(.null) == a)
        #expect(MapRect.null.union(a) == a)
        #expect(a.intersection(.null).isNull)
        #expect(!a.intersects(.null))
        #expect(!a.contains(MapRect.null))
        #expect(!MapRect.null.contains(MapPoint(x: 0, y: 0)))
        #expect(MapRect.null.insetBy(dx: -5, dy: -5).isNull)
        #expect(MapRect.null.offsetBy(dx: 5, dy: 5).isNull)
        #expect(MapRect(bounding: [MapPoint]()).isNull)
    }

    @Test("the world rect is (0, 0, 2^28, 2^28)")
    func worldRect() {
        #expect(MapRect.world == MapRect(x: 0, y: 0, width: Self.world, height: Self.world))
        #expect(!MapRect.world.spansAntimeridian)
    }

    @Test("union is the smallest rect holding both")
    func union() {
        #expect(a.union(b) == MapRect(x: 0, y: 0, width: 15, height: 15))
        #expect(a.union(MapPoint(x: -3, y: 20)) == MapRect(x: -3, y: 0, width: 13, height: 20))
    }

    @Test("intersection is the common part, null when apart")
    func intersection() {
        #expect(a.intersection(b) == MapRect(x: 5, y: 5, width: 5, height: 5))
        #expect(a.intersection(MapRect(x: 20, y: 0, width: 1, height: 1)).isNull)
        #expect(!a.intersects(MapRect(x: 20, y: 0, width: 1, height: 1)))
    }

    @Test("rects are closed: sharing an edge is intersecting, with a zero-width common part")
    func touchingEdges() {
        let neighbour = MapRect(x: 10, y: 0, width: 10, height: 10)
        #expect(a.intersects(neighbour))
        #expect(a.intersection(neighbour) == MapRect(x: 10, y: 0, width: 0, height: 10))
        #expect(a.contains(MapPoint(x: 10, y: 10)))
        #expect(!a.contains(MapPoint(x: 10.000001, y: 10)))
    }

    @Test("a zero-size rect still meets the rects around its point")
    func zeroSizeRect() {
        let point = MapRect(origin: MapPoint(x: 3, y: 4), size: .zero)
        #expect(point.isEmpty && !point.isNull)
        #expect(a.intersects(point))
        #expect(a.contains(point))
    }

    @Test("contains a rect only when every point of it is inside")
    func containsRect() {
        #expect(a.contains(MapRect(x: 1, y: 1, width: 9, height: 9)))
        #expect(!a.contains(b))
        #expect(a.contains(a))
    }

    @Test("inset shrinks on both sides, grows for negative values, and collapses to null")
    func inset() {
        #expect(a.insetBy(dx: 2, dy: 3) == MapRect(x: 2, y: 3, width: 6, height: 4))
        #expect(a.insetBy(dx: -1, dy: -1) == MapRect(x: -1, y: -1, width: 12, height: 12))
        #expect(a.insetBy(dx: 5, dy: 0) == MapRect(x: 5, y: 0, width: 0, height: 10))
        #expect(a.insetBy(dx: 6, dy: 0).isNull)
    }

    @Test("offset moves the rect east and south")
    func offset() {
        #expect(a.offsetBy(dx: 3, dy: -2) == MapRect(x: 3, y: -2, width: 10, height: 10))
    }

    @Test("bounding points gives the smallest rect holding them")
    func bounding() {
        let rect = MapRect(bounding: [MapPoint(x: 4, y: 9), MapPoint(x: -1, y: 2), MapPoint(x: 3, y: 3)])
        #expect(rect == MapRect(x: -1, y: 2, width: 5, height: 7))
        #expect(MapRect(corner: MapPoint(x: 4, y: 9), corner: MapPoint(x: -1, y: 2)) == rect)
    }

    @Test("bounding coordinates projects only the extremes, and gives the rect of their map points")
    func boundingCoordinates() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let count = Int.random(in: 1...20, using: &random)
            // Around one place, as a batch of fixes is, or anywhere, poles and antimeridian included.
            let spread = Bool.random(using: &random) ? 0.01 : 180.0
            let latitude = Double.random(in: -89...89, using: &random), longitude = Double.random(in: -179...179, using: &random)
            let coordinates = try (0..<count).map { _ in
                try Coordinate(latitude: min(90, max(-90, latitude + Double.random(in: -spread...spread, using: &random) / 2)),
                               longitude: min(180, max(-180, longitude + Double.random(in: -spread...spread, using: &random))))
            }
            let projected = MapRect(bounding: coordinates.lazy.map(MapPoint.init))
            let rect = MapRect(boundingCoordinates: coordinates)
            for (mine, theirs) in [(rect.minX, projected.minX), (rect.minY, projected.minY), (rect.maxX, projected.maxX), (rect.maxY, projected.maxY)] {
                #expect(abs(mine - theirs) <= 1e-6, "\(coordinates): \(rect) against \(projected)")
            }
        }
        #expect(MapRect(boundingCoordinates: [Coordinate]()).isNull)
    }

    @Test("a rect across x = 2^28 spans the antimeridian and its remainder continues at x = 0")
    func antimeridian() {
        let rect = MapRect(x: Self.world - 100, y: 50, width: 300, height: 20)
        #expect(rect.spansAntimeridian)
        #expect(rect.remainder == MapRect(x: 0, y: 50, width: 200, height: 20))
        #expect(rect.worldParts == [MapRect(x: Self.world - 100, y: 50, width: 100, height: 20), rect.remainder])
    }

    @Test("a rect west of x = 0 is wrapped before asking whether it spans")
    func antimeridianFromTheWest() {
        let rect = MapRect(x: -100, y: 0, width: 300, height: 1)
        #expect(rect.worldWrapped == MapRect(x: Self.world - 100, y: 0, width: 300, height: 1))
        #expect(rect.spansAntimeridian)
        #expect(rect.remainder == MapRect(x: 0, y: 0, width: 200, height: 1))
    }

    @Test("a rect inside the world, or on a neighbouring copy, does not span")
    func noSpan() {
        #expect(!a.spansAntimeridian)
        #expect(a.remainder.isNull)
        let copy = a.offsetBy(dx: 3 * Self.world, dy: 0)
        #expect(!copy.spansAntimeridian)
        #expect(copy.worldWrapped == a)
        #expect(MapRect(x: Self.world - 10, y: 0, width: 10, height: 1).spansAntimeridian == false)
    }

    @Test("a rect wider than the world covers every x once split")
    func widerThanWorld() {
        let rect = MapRect(x: 5, y: 0, width: 2 * Self.world, height: 1)
        #expect(rect.worldParts == [MapRect(x: 0, y: 0, width: Self.world, height: 1)])
    }

    @Test("on the wrapped world, a rect across the antimeridian meets rects at both ends")
    func wrappedIntersection() {
        let rect = MapRect(x: Self.world - 100, y: 0, width: 300, height: 10)
        #expect(rect.intersectsOnWrappedWorld(MapRect(x: 150, y: 0, width: 10, height: 10)))
        #expect(rect.intersectsOnWrappedWorld(MapRect(x: Self.world - 50, y: 0, width: 10, height: 10)))
        #expect(!rect.intersectsOnWrappedWorld(MapRect(x: 250, y: 0, width: 10, height: 10)))
        #expect(!rect.intersectsOnWrappedWorld(MapRect(x: 150, y: 11, width: 10, height: 10)))
        #expect(a.intersectsOnWrappedWorld(a.offsetBy(dx: -Self.world, dy: 0)))
    }
}
