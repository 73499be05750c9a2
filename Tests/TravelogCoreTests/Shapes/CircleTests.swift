import Testing
@testable import TravelogCore

@Suite("Circles")
struct CircleTests {
    private static let world = WebMercator.worldSizeMapPoints
    private static let bearings = stride(from: 0.0, to: 360, by: 22.5).map { $0 }

    @Test("a radius must be finite and non-negative", arguments: [-1.0, .nan, .infinity])
    func radiusOutOfRange(radius: Double) throws {
        let center = try Coordinate(latitude: 0, longitude: 0)
        #expect(throws: ShapeError.self) { try Circle(center: center, radiusMeters: radius) }
    }

    @Test("a circle contains what lies within its radius by geodesic distance", arguments: [0.0, 47.37, -60.0, 84.0])
    func containment(latitude: Double) throws {
        let circle = try Circle(center: Coordinate(latitude: latitude, longitude: 8.54), radiusMeters: 1_000)
        for bearing in Self.bearings {
            let inside = circle.center.destination(bearingDegrees: bearing, distanceMeters: 990)
            let outside = circle.center.destination(bearingDegrees: bearing, distanceMeters: 1_010)
            #expect(circle.contains(inside))
            #expect(!circle.contains(outside))
            #expect(circle.boundingMapRect.contains(MapPoint(inside)))
        }
        #expect(circle.contains(circle.center))
    }

    @Test("a circle's bounding rect is tight north and south")
    func tightBounds() throws {
        let circle = try Circle(center: Coordinate(latitude: 47.37, longitude: 8.54), radiusMeters: 5_000)
        let north = circle.center.destination(bearingDegrees: 0, distanceMeters: 5_000)
        let south = circle.center.destination(bearingDegrees: 180, distanceMeters: 5_000)
        #expect(circle.boundingMapRect.minY == MapPoint(north).y)
        #expect(circle.boundingMapRect.maxY == MapPoint(south).y)
        // East-west, the disc reaches at least r / (N cos φ) of longitude (the parallel through
        // the centre is longer than the geodesic along it) and the bound uses the most poleward
        // parallel, wider by less than 0.2 % for 5 km at 47°. Reference: a degree of longitude
        // at 47.37° on WGS84 is 75 529.358 m (N cos φ π / 180, computed with Python).
        let halfWidthDegrees = circle.boundingMapRect.width / 2 / WebMercator.worldSizeMapPoints * 360
        let alongParallelDegrees = 5_000 / 75_529.35784208988
        #expect(halfWidthDegrees >= alongParallelDegrees * (1 - 1e-12))
        #expect(halfWidthDegrees <= alongParallelDegrees * 1.002)
        #expect(abs(circle.boundingMapRect.midX - MapPoint(circle.center).x) < 1e-6)
    }

    @Test("a circle holding a pole spans every longitude")
    func polarCircle() throws {
        let circle = try Circle(center: Coordinate(latitude: 89.5, longitude: 30), radiusMeters: 100_000)
        #expect(circle.boundingMapRect.minX == 0)
        #expect(circle.boundingMapRect.width == Self.world)
        #expect(circle.boundingMapRect.minY == 0)
        #expect(circle.contains(try Coordinate(latitude: 90, longitude: 0)))
    }

    @Test("a circle on the 180th meridian has a bounding rect that spans it")
    func antimeridianCircle() throws {
        let circle = try Circle(center: Coordinate(latitude: -17, longitude: 180), radiusMeters: 2_000)
        #expect(circle.boundingMapRect.spansAntimeridian)
        let west = try Coordinate(latitude: -17, longitude: 179.99)
        let east = try Coordinate(latitude: -17, longitude: -179.99)
        #expect(circle.contains(west) && circle.contains(east))
        #expect(circle.intersects(Tile(containing: west, zoom: 16).mapRect))
        #expect(circle.intersects(Tile(containing: east, zoom: 16).mapRect))
    }
}
