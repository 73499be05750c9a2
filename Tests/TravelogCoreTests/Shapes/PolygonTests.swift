import Testing
@testable import TravelogCore

@Suite("Polygons")
struct PolygonTests {
    private func ring(_ pairs: [(Double, Double)]) throws -> [Coordinate] {
        try pairs.map { try Coordinate(latitude: $0.1, longitude: $0.0) }  // (longitude, latitude), as in GeoJSON
    }

    private func point(_ longitude: Double, _ latitude: Double) throws -> Coordinate {
        try Coordinate(latitude: latitude, longitude: longitude)
    }

    /// A 10° square with a 4° square hole in its middle, both counter-clockwise.
    private func squareWithHole(holeClockwise: Bool) throws -> Polygon {
        let hole: [(Double, Double)] = [(3, 3), (7, 3), (7, 7), (3, 7)]
        return try Polygon(
            exteriorRing: ring([(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)]),
            interiorRings: [ring(holeClockwise ? hole.reversed() : hole)]
        )
    }

    @Test("even-odd: inside the ring, outside the hole, outside the polygon")
    func evenOdd() throws {
        let polygon = try squareWithHole(holeClockwise: false)
        #expect(polygon.contains(try point(1, 1)))
        #expect(polygon.contains(try point(8.5, 5)))
        #expect(!polygon.contains(try point(5, 5)))
        #expect(!polygon.contains(try point(11, 5)))
        #expect(!polygon.contains(try point(-0.5, 5)))
    }

    @Test("even-odd ignores winding: a reversed ring contains the same points")
    func windingFree() throws {
        let forward = try Polygon(exteriorRing: ring([(0, 0), (10, 0), (10, 10), (0, 10)]))
        let backward = try Polygon(exteriorRing: ring([(0, 10), (10, 10), (10, 0), (0, 0)]))
        for probe in [try point(5, 5), try point(0.01, 9.99), try point(10.01, 5), try point(5, -0.01)] {
            #expect(forward.contains(probe) == backward.contains(probe))
        }
    }

    @Test("non-zero: a hole is a hole only when it winds against the exterior")
    func nonZero() throws {
        let sameWay = try squareWithHole(holeClockwise: false)
        let opposite = try squareWithHole(holeClockwise: true)
        let middle = try point(5, 5)
        #expect(sameWay.contains(middle, rule: .nonZero))
        #expect(!opposite.contains(middle, rule: .nonZero))
        #expect(!opposite.contains(middle, rule: .evenOdd))
        #expect(opposite.contains(try point(1, 1), rule: .nonZero))
    }

    @Test("a point in the notch of a concave polygon is outside")
    func concave() throws {
        // A U: two arms from latitude 0 to 10, joined at the bottom from latitude 0 to 3.
        let u = try Polygon(exteriorRing: ring([(0, 0), (9, 0), (9, 10), (6, 10), (6, 3), (3, 3), (3, 10), (0, 10)]))
        #expect(!u.contains(try point(4.5, 6)))
        #expect(u.contains(try point(1.5, 6)))
        #expect(u.contains(try point(7.5, 6)))
        #expect(u.contains(try point(4.5, 1.5)))
        // A ray from (−1, 3) runs along the notch's bottom edge: each vertex is counted once.
        #expect(!u.contains(try point(-1, 3)))
    }

    @Test("a closed ring is stored open; a ring needs three positions besides the closing one")
    func ringRules() throws {
        let triangle = try Polygon(exteriorRing: ring([(0, 0), (1, 0), (0, 1), (0, 0)]))
        #expect(triangle.exteriorRing.count == 3)
        #expect(throws: ShapeError.ringTooShort(ringIndex: 0, positionCount: 2)) {
            try Polygon(exteriorRing: ring([(0, 0), (1, 0), (0, 0)]))
        }
        #expect(throws: ShapeError.ringTooShort(ringIndex: 1, positionCount: 1)) {
            try Polygon(exteriorRing: ring([(0, 0), (1, 0), (0, 1)]), interiorRings: [ring([(0.1, 0.1)])])
        }
    }

    @Test("a polygon's bounding rect holds its exterior ring and meets the tiles it overlaps")
    func boundsAndIntersection() throws {
        let polygon = try squareWithHole(holeClockwise: true)
        let rect = polygon.boundingMapRect
        #expect(rect == MapRect(corner: MapPoint(try point(0, 0)), corner: MapPoint(try point(10, 10))))
        #expect(polygon.intersects(Tile(containing: try point(5, 5), zoom: 6).mapRect))
        #expect(!polygon.intersects(Tile(containing: try point(20, 5), zoom: 6).mapRect))
    }

    @Test("a multipolygon contains what any part contains")
    func multiPolygon() throws {
        let mainland = try Polygon(exteriorRing: ring([(0, 0), (10, 0), (10, 10), (0, 10)]))
        let island = try Polygon(exteriorRing: ring([(20, 0), (22, 0), (22, 2), (20, 2)]))
        let both = MultiPolygon(polygons: [mainland, island])
        #expect(both.contains(try point(5, 5)))
        #expect(both.contains(try point(21, 1)))
        #expect(!both.contains(try point(15, 1)))
        #expect(both.boundingMapRect == mainland.boundingMapRect.union(island.boundingMapRect))
        #expect(MultiPolygon(polygons: []).boundingMapRect.isNull)
        #expect(!MultiPolygon(polygons: []).contains(try point(0, 0)))
    }
}
