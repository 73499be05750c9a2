import Testing
@testable import TravelogCore

@Suite("Polylines")
struct PolylineTests {
    private static let world = WebMercator.worldSizeMapPoints

    @Test("a polyline's bounding rect holds its vertices; an empty one is null")
    func bounds() {
        let line = Polyline(points: [MapPoint(x: 10, y: 40), MapPoint(x: 30, y: 20), MapPoint(x: 20, y: 50)])
        #expect(line.boundingMapRect == MapRect(x: 10, y: 20, width: 20, height: 30))
        #expect(Polyline(points: []).boundingMapRect.isNull)
        #expect(!Polyline(points: []).intersects(.world))
    }

    @Test("a segment crossing a rect intersects it though no vertex lies inside")
    func segmentThroughRect() {
        let line = Polyline(points: [MapPoint(x: 0, y: 50), MapPoint(x: 100, y: 50)])
        #expect(line.intersects(MapRect(x: 40, y: 40, width: 20, height: 20)))
    }

    @Test("a diagonal whose bounding rect overlaps a rect's corner may still miss the rect")
    func diagonalMisses() {
        let line = Polyline(points: [MapPoint(x: 0, y: 0), MapPoint(x: 100, y: 100)])
        let corner = MapRect(x: 80, y: 0, width: 20, height: 20)
        #expect(line.boundingMapRect.intersects(corner))
        #expect(!line.intersects(corner))
        #expect(line.intersects(MapRect(x: 45, y: 45, width: 1, height: 1)))
    }

    @Test("a rect wider than the world meets a line that crosses its rows")
    func worldWideRect() {
        let line = Polyline(points: [MapPoint(x: 10, y: 40), MapPoint(x: 30, y: 60)])
        #expect(line.intersects(MapRect(x: -1e12, y: 50, width: 3e12, height: 1)))
        #expect(!line.intersects(MapRect(x: -1e12, y: 61, width: 3e12, height: 1)))
    }

    @Test("a single vertex intersects the rects that hold it")
    func singleVertex() {
        let line = Polyline(points: [MapPoint(x: 5, y: 5)])
        #expect(line.intersects(MapRect(x: 0, y: 0, width: 5, height: 5)))
        #expect(!line.intersects(MapRect(x: 6, y: 0, width: 5, height: 5)))
    }

    @Test("a track across the 180th meridian takes the short way and meets tiles on both sides")
    func acrossAntimeridian() throws {
        let line = Polyline(coordinates: [
            try Coordinate(latitude: -16.8, longitude: 179.9),
            try Coordinate(latitude: -16.9, longitude: -179.9),
        ])
        #expect(line.points[1].x > Self.world)
        #expect(line.boundingMapRect.spansAntimeridian)
        // 0.2° of longitude, not 359.8°.
        #expect(abs(line.boundingMapRect.width - Self.world * 0.2 / 360) < 1e-6)
        let westTile = Tile(containing: try Coordinate(latitude: -16.82, longitude: 179.95), zoom: 14)
        let eastTile = Tile(containing: try Coordinate(latitude: -16.88, longitude: -179.95), zoom: 14)
        #expect(line.intersects(westTile.mapRect))
        #expect(line.intersects(eastTile.mapRect))
        let farAway = Tile(containing: try Coordinate(latitude: -16.85, longitude: 0), zoom: 14)
        #expect(!line.intersects(farAway.mapRect))
        #expect(line.coordinates[1].longitude == -179.9 || abs(line.coordinates[1].longitude + 179.9) < 1e-9)
    }

    @Test("a polyline's length is the sum of its geodesic segments")
    func length() throws {
        let coordinates = [
            try Coordinate(latitude: 48.8566, longitude: 2.3522),
            try Coordinate(latitude: 50.8503, longitude: 4.3517),
            try Coordinate(latitude: 52.3676, longitude: 4.9041),
        ]
        let expected = coordinates[0].distanceMeters(to: coordinates[1]) + coordinates[1].distanceMeters(to: coordinates[2])
        // Each vertex moves < 0.1 mm through map points and back.
        #expect(abs(Polyline(coordinates: coordinates).lengthMeters - expected) < 1e-3)
        #expect(Polyline(points: [MapPoint(x: 1, y: 1)]).lengthMeters == 0)
    }
}
