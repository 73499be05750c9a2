import Foundation
import Testing
@testable import TravelogCore

@Suite("Geodesic polygons")
struct GeodesicPolygonTests {
    static let polygons = GeodesicFixtures.planimeterPolygons

    static func polygon(_ vertices: [(latitude: Double, longitude: Double)]) throws -> GeodesicPolygon {
        GeodesicPolygon(try vertices.map { try Coordinate(latitude: $0.latitude, longitude: $0.longitude) })
    }

    @Test("the committed Planimeter polygons are all there")
    func fixturePresent() {
        #expect(Self.polygons.count == 26)
    }

    @Test("perimeter and signed area agree with GeographicLib's Planimeter", arguments: polygons)
    func planimeter(expected: PlanimeterPolygon) throws {
        let measurement = try Self.polygon(expected.vertices).measure()
        #expect(measurement.vertexCount == expected.expectedVertexCount)
        // Planimeter -p 9 prints the perimeter to 1 nm and the area to 1e-4 m²; each edge is
        // exact to 15 nm, and areas up to 2.6e14 m² are rounded to 1 ulp (0.03 m²).
        #expect(abs(measurement.perimeterMeters - expected.expectedPerimeterMeters) <= 15e-9 * Double(expected.vertices.count))
        #expect(abs(measurement.areaSquareMeters - expected.expectedAreaSquareMeters) <= 0.1)
    }

    @Test("reversing the vertices negates the area", arguments: polygons.filter { $0.vertices.count >= 3 })
    func reversed(expected: PlanimeterPolygon) throws {
        let forward = try Self.polygon(expected.vertices).measure()
        let backward = try Self.polygon(expected.vertices.reversed()).measure()
        let half = Geodesic.wgs84.ellipsoidAreaSquareMeters / 2
        // Exactly half the ellipsoid is reported as +A/2 both ways round.
        if abs(abs(forward.areaSquareMeters) - half) > 1 {
            #expect(abs(forward.areaSquareMeters + backward.areaSquareMeters) <= 0.1)
        }
        #expect(abs(forward.perimeterMeters - backward.perimeterMeters) <= 1e-7)
    }

    @Test("the area does not depend on where the ring starts or on the longitude origin")
    func invariance() throws {
        let ring: [(latitude: Double, longitude: Double)] = [(-70, 170), (-72, -170), (-75, -120), (-74, 60), (-68, 100)]
        let reference = try Self.polygon(ring).measure().areaSquareMeters
        let rotated = Array(ring[2...] + ring[..<2])
        #expect(abs(try Self.polygon(rotated).measure().areaSquareMeters - reference) <= 0.1)
        let shifted = ring.map { (latitude: $0.latitude, longitude: $0.longitude + 37) }
        // Moving every vertex 37° east moves the prime meridian crossings; the area stays.
        #expect(abs(try Self.polygon(shifted).measure().areaSquareMeters - reference) <= 0.1)
    }

    @Test("a clockwise polygon encloses the rest of the ellipsoid when unsigned")
    func unsignedConvention() throws {
        let clockwise: [(latitude: Double, longitude: Double)] = [(0, 0), (1, 0), (1, 1), (0, 1)]
        let polygon = try Self.polygon(clockwise)
        let signed = polygon.measure().areaSquareMeters
        let unsigned = polygon.measure(signed: false).areaSquareMeters
        #expect(signed < 0)
        // The ellipsoid's area is 4πc², 5.1e14 m² (GeodSolve/Planimeter: 510065621724088.5 m²).
        #expect(abs(Geodesic.wgs84.ellipsoidAreaSquareMeters - 510_065_621_724_088.5) <= 0.1)
        #expect(abs(unsigned - (Geodesic.wgs84.ellipsoidAreaSquareMeters + signed)) <= 0.1)
        let counterClockwise = try Self.polygon(clockwise.reversed())
        #expect(abs(counterClockwise.measure(signed: false).areaSquareMeters + signed) <= 0.1)
    }

    @Test("adding vertices one by one measures the same as building from a sequence")
    func incremental() throws {
        let vertices = try [(10.0, 20.0), (11.0, 20.5), (10.5, 22.0)].map { try Coordinate(latitude: $0.0, longitude: $0.1) }
        var polygon = GeodesicPolygon()
        #expect(polygon.measure() == GeodesicPolygon.Measurement(vertexCount: 0, perimeterMeters: 0, areaSquareMeters: 0))
        for vertex in vertices { polygon.add(vertex) }
        #expect(polygon.measure() == GeodesicPolygon(vertices).measure())
        #expect(polygon.vertexCount == 3)
    }

    @Test("prime meridian crossings are counted once per edge, ±0 counting as east", arguments: [
        (-1.0, 1.0, 1), (1.0, -1.0, -1), (-1.0, 0.0, 1), (0.0, 1.0, 0), (0.0, -1.0, -1), (179.0, -179.0, 0),
        (-179.0, 179.0, 0), (170.0, 10.0, 0), (-10.0, 350.0, 0), (180.0, 360.0, 1), (-0.0, 0.0, 0),
    ])
    func crossings(from: Double, to: Double, expected: Int) {
        #expect(GeodesicPolygon.primeMeridianCrossing(from: from, to: to) == expected)
    }
}
