import Foundation
import Testing
@testable import TravelogCore

@Suite("Web Mercator map points")
struct WebMercatorTests {
    private static let world = WebMercator.worldSizeMapPoints

    @Test("the world is 2^28 map points per side: 256-pixel tiles at zoom level 20")
    func worldSize() {
        #expect(WebMercator.worldSizeMapPoints == Double(1 << 28))
        #expect(WebMercator.worldSizeMapPoints == WebMercator.tileSizePixels * Double(1 << 20))
    }

    @Test("the latitude limit is atan(sinh(π)) = 85.0511287798°")
    func latitudeLimit() {
        // Reference: Python math.degrees(math.atan(math.sinh(math.pi))) = 85.0511287798066; the
        // tolerance allows one rounding of the last digit shown.
        #expect(abs(WebMercator.maximumLatitudeDegrees - 85.0511287798066) < 1e-12)
    }

    @Test("the origin is the top left: (85.05°N, 180°W) is (0, 0) and (85.05°S, 180°E) is (2^28, 2^28)")
    func corners() throws {
        let limit = WebMercator.maximumLatitudeDegrees
        let northWest = MapPoint(try Coordinate(latitude: limit, longitude: -180))
        let southEast = MapPoint(try Coordinate(latitude: -limit, longitude: 180))
        #expect(northWest.x == 0)
        #expect(northWest.y == 0)
        #expect(southEast.x == Self.world)
        #expect(southEast.y == Self.world)
    }

    @Test("null island is the middle of the world")
    func nullIsland() throws {
        let point = MapPoint(try Coordinate(latitude: 0, longitude: 0))
        #expect(point == MapPoint(x: Self.world / 2, y: Self.world / 2))
    }

    @Test("latitudes beyond ±85.0511° land on the top and bottom edges", arguments: [85.06, 89.9, 90.0])
    func polesClamped(latitude: Double) throws {
        let north = MapPoint(try Coordinate(latitude: latitude, longitude: 10))
        let south = MapPoint(try Coordinate(latitude: -latitude, longitude: 10))
        #expect(north.y == 0)
        #expect(south.y == Self.world)
        #expect(north.coordinate.latitude == WebMercator.maximumLatitudeDegrees)
        #expect(south.coordinate.latitude == -WebMercator.maximumLatitudeDegrees)
    }

    @Test("coordinate → map point → coordinate returns the coordinate", arguments: [
        (0.0, 0.0), (52.516275, 13.377704), (-33.856784, 151.215297), (37.3349, -122.00902),
        (85.05, 179.999999), (-85.05, -179.999999), (1e-9, -1e-9), (64.1466, -21.9426), (-77.8463, 166.6683),
    ])
    func roundTrip(latitude: Double, longitude: Double) throws {
        let coordinate = try Coordinate(latitude: latitude, longitude: longitude)
        let back = MapPoint(coordinate).coordinate
        // 1e-9° is 0.1 mm; the projection and its inverse lose a few ulps of 2^28 (≈ 1e-13°).
        #expect(abs(back.latitude - latitude) < 1e-9)
        #expect(abs(back.longitude - longitude) < 1e-9)
    }

    @Test("map points east or west of the world are the same places on another copy")
    func wrappedCoordinate() {
        let y = Self.world / 2
        #expect(MapPoint(x: Self.world * 1.25, y: y).coordinate.longitude == -90)
        #expect(MapPoint(x: -Self.world * 0.25, y: y).coordinate.longitude == 90)
        #expect(MapPoint(x: Self.world, y: y).coordinate.longitude == 180)
        #expect(MapPoint(x: 2 * Self.world, y: y).coordinate.longitude == -180)
    }

    @Test("wrapped(near:) picks the copy within half a world")
    func wrappedNear() {
        let east = MapPoint(x: Self.world - 10, y: 5)
        let justAcross = MapPoint(x: 10, y: 5)
        #expect(justAcross.wrapped(near: east) == MapPoint(x: Self.world + 10, y: 5))
        #expect(east.wrapped(near: justAcross) == MapPoint(x: -10, y: 5))
        #expect(justAcross.wrapped(near: MapPoint(x: 500, y: 0)) == justAcross)
    }

    @Test("a map point is 0.149 m at the equator and half that at 60°")
    func metersPerMapPoint() {
        // Reference: 2π × 6378137 m / 2^28 = 0.14929107086948487 (Python).
        #expect(abs(WebMercator.metersPerMapPoint(latitudeDegrees: 0) - 0.14929107086948487) < 1e-16)
        let atSixty = WebMercator.metersPerMapPoint(latitudeDegrees: 60)
        // cos 60° = 0.5 up to one rounding.
        #expect(abs(atSixty - 0.14929107086948487 / 2) < 1e-15)
        #expect(abs(WebMercator.mapPointsPerMeter(latitudeDegrees: 60) * atSixty - 1) < 1e-15)
        #expect(WebMercator.metersPerMapPoint(latitudeDegrees: 90) == WebMercator.metersPerMapPoint(
            latitudeDegrees: WebMercator.maximumLatitudeDegrees))
    }

    @Test("the distance between map points is the geodesic between their coordinates")
    func distanceBetweenPoints() throws {
        let paris = try Coordinate(latitude: 48.8566, longitude: 2.3522)
        let london = try Coordinate(latitude: 51.5074, longitude: -0.1278)
        let viaPoints = MapPoint(paris).distanceMeters(to: MapPoint(london))
        // The map-point round trip moves each end by < 0.1 mm.
        #expect(abs(viaPoints - paris.distanceMeters(to: london)) < 1e-3)
    }
}
