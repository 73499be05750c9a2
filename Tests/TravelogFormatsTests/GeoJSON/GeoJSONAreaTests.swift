import Foundation
import Testing
import TravelogCore
@testable import TravelogFormats
import TravelogTestSupport

@Suite("GeoJSON areas (RFC 7946)")
struct GeoJSONAreaTests {
    private static let square = "[[[0,0],[10,0],[10,10],[0,10],[0,0]]]"
    private static let squareWithHole = "[[[0,0],[10,0],[10,10],[0,10],[0,0]],[[3,3],[3,7],[7,7],[7,3],[3,3]]]"
    private static let island = "[[[20,0],[22,0],[22,2],[20,2],[20,0]]]"

    private func decode(_ text: String) throws(GeoJSONError) -> MultiPolygon {
        try GeoJSONAreaReader.multiPolygon(from: Data(text.utf8))
    }

    private func point(_ longitude: Double, _ latitude: Double) throws -> Coordinate {
        try Coordinate(latitude: latitude, longitude: longitude)
    }

    @Test("a Polygon with a hole becomes one part with its hole")
    func polygon() throws {
        let area = try decode(#"{"type": "Polygon", "coordinates": \#(Self.squareWithHole)}"#)
        #expect(area.polygons.count == 1)
        #expect(area.polygons[0].exteriorRing.count == 4)
        #expect(area.polygons[0].interiorRings.count == 1)
        #expect(area.contains(try point(1, 1)))
        #expect(!area.contains(try point(5, 5)))
    }

    @Test("positions are longitude first, and an altitude is ignored")
    func positionOrder() throws {
        let area = try decode(#"{"type": "Polygon", "coordinates": [[[100,0,5],[101,0,5],[101,1,5],[100,0,5]]]}"#)
        #expect(area.polygons[0].exteriorRing[1] == (try point(101, 0)))
    }

    @Test("a MultiPolygon keeps its parts in order")
    func multiPolygon() throws {
        let area = try decode(#"{"type": "MultiPolygon", "coordinates": [\#(Self.square), \#(Self.island)], "bbox": [0,0,22,10]}"#)
        #expect(area.polygons.count == 2)
        #expect(area.contains(try point(21, 1)))
        #expect(!area.contains(try point(15, 1)))
    }

    @Test("a FeatureCollection gathers the areas of its features; a null geometry adds nothing")
    func featureCollection() throws {
        let area = try decode("""
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"name": "mainland"}, "geometry": {"type": "Polygon", "coordinates": \(Self.square)}},
              {"type": "Feature", "properties": null, "geometry": null},
              {"type": "Feature", "properties": {}, "geometry": {"type": "GeometryCollection", "geometries": [
                {"type": "MultiPolygon", "coordinates": [\(Self.island)]}]}}
            ]}
            """)
        #expect(area.polygons.count == 2)
        #expect(try area.contains(point(5, 5)))
        #expect(try area.contains(point(21, 1)))
    }

    @Test("a single Feature and empty geometries are accepted")
    func featureAndEmpty() throws {
        let feature = try decode(#"{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": \#(Self.square)}, "properties": {}}"#)
        #expect(feature.polygons.count == 1)
        #expect(try decode(#"{"type": "MultiPolygon", "coordinates": []}"#).polygons.isEmpty)
        #expect(try decode(#"{"type": "Polygon", "coordinates": []}"#).polygons.isEmpty)
        #expect(try decode(#"{"type": "FeatureCollection", "features": []}"#).boundingMapRect.isNull)
    }

    @Test("every problem is reported precisely, with where it is", arguments: [
        ("not json", GeoJSONError.invalidJSON),
        (#"{"coordinates": []}"#, .missingMember(name: "type", path: "$")),
        (#"{"type": "Polygon"}"#, .missingMember(name: "coordinates", path: "$")),
        (#"{"type": 7}"#, .wrongKind(path: "$.type", expected: .string)),
        (#"{"type": "polygon", "coordinates": []}"#, .unknownType("polygon", path: "$.type")),
        (#"{"type": "Point", "coordinates": [0, 0]}"#, .notAnArea("Point", path: "$")),
        (#"{"type": "Polygon", "coordinates": "x"}"#, .wrongKind(path: "$.coordinates", expected: .array)),
        (#"{"type": "Polygon", "coordinates": [[[0,0],[1,0],[1,1],[0,1]]]}"#, .ringNotClosed(path: "$.coordinates[0]")),
        (#"{"type": "Polygon", "coordinates": [[[0,0],[1,0],[0,0]]]}"#, .ringTooShort(path: "$.coordinates[0]", positionCount: 3)),
        (#"{"type": "Polygon", "coordinates": [[[0,0],[1,0],[1],[0,0]]]}"#, .positionTooShort(path: "$.coordinates[0][2]", count: 1)),
        (#"{"type": "Polygon", "coordinates": [[[0,0],["1",0],[1,1],[0,0]]]}"#, .wrongKind(path: "$.coordinates[0][1][0]", expected: .number)),
        (#"{"type": "Polygon", "coordinates": [[[0,0],[1,95],[1,1],[0,0]]]}"#, .latitudeOutOfRange(path: "$.coordinates[0][1]", degrees: 95)),
        (#"{"type": "Polygon", "coordinates": [[[0,0],[190,0],[1,1],[0,0]]]}"#, .longitudeOutOfRange(path: "$.coordinates[0][1]", degrees: 190)),
        (#"{"type": "MultiPolygon", "coordinates": [\#(GeoJSONAreaTests.square), [[[0,0],[1,0],[1,1],[0,2]]]]}"#, .ringNotClosed(path: "$.coordinates[1][0]")),
        (#"{"type": "FeatureCollection", "features": [{"type": "Polygon", "coordinates": []}]}"#, .typeNotAllowedHere("Polygon", path: "$.features[0]")),
        (#"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}}]}"#, .missingMember(name: "geometry", path: "$.features[0]")),
        (#"{"type": "Feature", "geometry": {"type": "Feature", "geometry": null}}"#, .typeNotAllowedHere("Feature", path: "$.geometry")),
        (#"{"type": "GeometryCollection", "geometries": [{"type": "LineString", "coordinates": [[0,0],[1,1]]}]}"#, .notAnArea("LineString", path: "$.geometries[0]")),
        (#"{"type": "Feature", "geometry": null, "properties": {}} trailing"#, .invalidJSON),
    ])
    func errors(text: String, expected: GeoJSONError) {
        #expect(throws: expected) { try decode(text) }
    }

    @Test("a committed coverage file decodes into the expected parts")
    func committedFixture() throws {
        let url = SharedFixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/shapes/coverage.geojson")
        let area = try GeoJSONAreaReader.multiPolygon(from: Data(contentsOf: url))
        // Fiji cut at the 180th meridian as RFC 7946 §3.1.9 asks (two parts), and a lake island.
        #expect(area.polygons.count == 3)
        #expect(area.polygons[0].interiorRings.count == 1)
        #expect(area.contains(try point(179.5, -16.5)))
        #expect(area.contains(try point(-179.8, -16.5)))
        #expect(!area.contains(try point(179.2, -16.2)))  // in the hole of the western part
        #expect(!area.contains(try point(170, -16.5)))
        #expect(area.intersects(Tile(containing: try point(-179.8, -16.5), zoom: 8).mapRect))
    }
}
