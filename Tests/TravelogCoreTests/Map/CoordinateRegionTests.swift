import Foundation
import Testing
@testable import TravelogCore

@Suite("Coordinate spans and regions")
struct CoordinateRegionTests {
    private static let world = WebMercator.worldSizeMapPoints

    private func region(_ latitude: Double, _ longitude: Double, span latitudeDelta: Double, _ longitudeDelta: Double) throws -> CoordinateRegion {
        try CoordinateRegion(
            center: Coordinate(latitude: latitude, longitude: longitude),
            span: CoordinateSpan(latitudeDeltaDegrees: latitudeDelta, longitudeDeltaDegrees: longitudeDelta)
        )
    }

    @Test("a span outside [0, 180] × [0, 360] cannot exist", arguments: [
        (-1.0, 1.0), (181.0, 1.0), (1.0, 360.5), (1.0, -0.1), (.nan, 1.0), (1.0, .infinity),
    ])
    func spanOutOfRange(latitudeDelta: Double, longitudeDelta: Double) {
        #expect(throws: MapGeometryError.self) {
            try CoordinateSpan(latitudeDeltaDegrees: latitudeDelta, longitudeDeltaDegrees: longitudeDelta)
        }
    }

    @Test("a region reaching past a pole cannot exist")
    func beyondPole() throws {
        #expect(throws: MapGeometryError.regionBeyondPole(southLatitudeDegrees: 78, northLatitudeDegrees: 92)) {
            try region(85, 0, span: 14, 10)
        }
        let polar = try region(80, 0, span: 20, 360)
        #expect(polar.northLatitude == 90)
    }

    @Test("region → map rect → region returns the region", arguments: [
        (52.52, 13.40, 0.5, 0.8), (-33.86, 151.2, 2.0, 3.0), (0.0, 0.0, 100.0, 200.0), (10.0, 179.0, 4.0, 6.0),
        (-40.0, -179.5, 1.0, 2.0), (60.0, 25.0, 0.001, 0.002),
    ])
    func roundTrip(latitude: Double, longitude: Double, latitudeDelta: Double, longitudeDelta: Double) throws {
        let original = try region(latitude, longitude, span: latitudeDelta, longitudeDelta)
        let back = try CoordinateRegion(MapRect(original))
        // Double rounding through the projection, 2^28 map points and back: ≈ 1e-13°; 1e-9° is 0.1 mm.
        #expect(abs(back.center.latitude - latitude) < 1e-9)
        #expect(abs(Coordinate.normalizedLongitude(back.center.longitude - longitude)) < 1e-9)
        #expect(abs(back.span.latitudeDeltaDegrees - latitudeDelta) < 1e-9)
        #expect(abs(back.span.longitudeDeltaDegrees - longitudeDelta) < 1e-9)
    }

    @Test("a region across the 180th meridian gives a rect that spans it")
    func antimeridianRegion() throws {
        let fiji = try region(-17, 179, span: 4, 6)  // 176°E to 178°W
        #expect(fiji.spansAntimeridian)
        #expect(fiji.westLongitude == 176)
        #expect(fiji.eastLongitude == -178)
        #expect(fiji.contains(try Coordinate(latitude: -17, longitude: -179.5)))
        #expect(fiji.contains(try Coordinate(latitude: -18, longitude: 177)))
        #expect(!fiji.contains(try Coordinate(latitude: -17, longitude: -177)))
        #expect(!fiji.contains(try Coordinate(latitude: -20, longitude: 179)))
        let rect = MapRect(fiji)
        #expect(rect.spansAntimeridian)
        // 2° of the 6° lie east of the meridian.
        #expect(abs(rect.remainder.width - Self.world * 2 / 360) < 1e-6)
        #expect(rect.minX >= 0 && rect.minX < Self.world)
    }

    @Test("a region whose west edge is exactly -180° does not span the meridian")
    func westEdgeOnTheMeridian() throws {
        let region = try region(0, -170, span: 10, 20)
        #expect(!region.spansAntimeridian)
        #expect(!MapRect(region).spansAntimeridian)
        #expect(MapRect(region).minX == 0)
    }

    @Test("the world rect is the region of every longitude up to ±85.0511°")
    func worldRegion() throws {
        let region = try CoordinateRegion(MapRect.world)
        #expect(region.center.latitude == 0)
        #expect(region.span.longitudeDeltaDegrees == 360)
        #expect(abs(region.span.latitudeDeltaDegrees - 2 * WebMercator.maximumLatitudeDegrees) < 1e-12)
        #expect(throws: MapGeometryError.nullMapRect) { try CoordinateRegion(MapRect.null) }
    }

    @Test("a rect's region is centred between its edge latitudes, not at its middle's latitude")
    func rectRegionCentre() throws {
        let north = MapPoint(try Coordinate(latitude: 60, longitude: 0))
        let south = MapPoint(try Coordinate(latitude: 20, longitude: 10))
        let region = try CoordinateRegion(MapRect(corner: north, corner: south))
        #expect(abs(region.center.latitude - 40) < 1e-9)
        #expect(abs(region.span.latitudeDeltaDegrees - 40) < 1e-9)
        #expect(abs(region.center.longitude - 5) < 1e-9)
    }

    @Test("a region from distances is as tall as asked along the meridian", arguments: [
        (0.0, 2_000.0), (47.3769, 500.0), (-64.0, 30_000.0), (60.0, 1_000_000.0),
    ])
    func latitudinalMeters(latitude: Double, meters: Double) throws {
        let center = try Coordinate(latitude: latitude, longitude: 8.5)
        let region = try CoordinateRegion(center: center, latitudinalMeters: meters, longitudinalMeters: 100)
        let north = try Coordinate(latitude: region.northLatitude, longitude: 8.5)
        let south = try Coordinate(latitude: region.southLatitude, longitude: 8.5)
        // The region is centred on the centre while the meridian's curvature differs a little
        // north and south of it; over 1000 km that moves the edges by < 10 m together (0.001 %).
        #expect(abs(north.distanceMeters(to: south) - meters) <= meters * 1e-5)
        #expect(region.center == center)
    }

    @Test("a region from distances is as wide as asked along the parallel")
    func longitudinalMeters() throws {
        let center = try Coordinate(latitude: 60, longitude: 24.94)
        let region = try CoordinateRegion(center: center, latitudinalMeters: 10, longitudinalMeters: 1_000)
        // Reference: a degree of longitude at 60° on WGS84 is N cos φ π / 180 = 55 800.0016 m
        // (computed with Python; Wikipedia's table gives 55.80 km).
        #expect(abs(region.span.longitudeDeltaDegrees - 1_000 / 55_800.00157243614) < 1e-12)
    }

    @Test("a region wider than the parallel spans every longitude")
    func widerThanParallel() throws {
        let center = try Coordinate(latitude: 80, longitude: 0)
        let region = try CoordinateRegion(center: center, latitudinalMeters: 1_000, longitudinalMeters: 10_000_000)
        #expect(region.span.longitudeDeltaDegrees == 360)
        let empty = try CoordinateRegion(center: center, latitudinalMeters: 0, longitudinalMeters: 0)
        #expect(empty.span == (try CoordinateSpan(latitudeDeltaDegrees: 0, longitudeDeltaDegrees: 0)))
    }

    @Test("a region from distances reaching past a pole is refused")
    func distanceBeyondPole() throws {
        let center = try Coordinate(latitude: 89.99, longitude: 0)
        #expect(throws: MapGeometryError.self) {
            try CoordinateRegion(center: center, latitudinalMeters: 10_000, longitudinalMeters: 10)
        }
    }

    @Test("negative or non-finite distances are refused", arguments: [-1.0, .nan, .infinity])
    func badDistance(meters: Double) throws {
        let center = try Coordinate(latitude: 0, longitude: 0)
        #expect(throws: MapGeometryError.self) {
            try CoordinateRegion(center: center, latitudinalMeters: meters, longitudinalMeters: 10)
        }
        #expect(throws: MapGeometryError.self) {
            try CoordinateRegion(center: center, latitudinalMeters: 10, longitudinalMeters: meters)
        }
    }
}
