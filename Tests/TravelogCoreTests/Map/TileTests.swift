import Testing
@testable import TravelogCore

@Suite("Slippy-map tiles")
struct TileTests {
    private static let world = WebMercator.worldSizeMapPoints

    // Reference: the Python `deg2num` of the OpenStreetMap wiki page "Slippy map tilenames",
    // run for these places (z, x, y).
    @Test("a coordinate lies in its OpenStreetMap tile", arguments: [
        (52.516275, 13.377704, 5, 17, 10), (52.516275, 13.377704, 10, 550, 335),
        (52.516275, 13.377704, 15, 17601, 10746), (52.516275, 13.377704, 18, 140813, 85975),
        (-33.856784, 151.215297, 10, 942, 614), (-33.856784, 151.215297, 18, 241183, 157300),
        (37.3349, -122.00902, 5, 5, 12), (37.3349, -122.00902, 15, 5278, 12716),
        (-18.1416, 178.4419, 10, 1019, 564), (-54.8019, -68.303, 18, 81335, 178977),
        (52.516275, 13.377704, 0, 0, 0),
    ])
    func knownTiles(latitude: Double, longitude: Double, zoom: Int, x: Int, y: Int) throws {
        let coordinate = try Coordinate(latitude: latitude, longitude: longitude)
        #expect(Tile(containing: coordinate, zoom: zoom) == (try Tile(zoom: zoom, x: x, y: y)))
        #expect((try Tile(zoom: zoom, x: x, y: y)).mapRect.contains(MapPoint(coordinate)))
    }

    @Test("tile 0/0/0 is the world, and each zoom level halves the side")
    func tileRects() throws {
        #expect(try Tile(zoom: 0, x: 0, y: 0).mapRect == .world)
        #expect(try Tile(zoom: 20, x: 3, y: 5).mapRect == MapRect(x: 768, y: 1280, width: 256, height: 256))
        #expect(Tile.sizeMapPoints(zoom: 28) == 1)
    }

    @Test("a tile outside the world at its zoom cannot exist", arguments: [
        (3, 8, 0), (3, 0, 8), (3, -1, 0), (-1, 0, 0), (29, 0, 0),
    ])
    func outOfRange(zoom: Int, x: Int, y: Int) {
        #expect(throws: MapGeometryError.self) { try Tile(zoom: zoom, x: x, y: y) }
    }

    @Test("points on a tile boundary belong to the tile east and south; the world's edges wrap or clamp")
    func boundaries() throws {
        #expect(Tile(containing: MapPoint(x: Self.world / 2, y: Self.world / 2), zoom: 1) == (try Tile(zoom: 1, x: 1, y: 1)))
        #expect(Tile(containing: MapPoint(x: Self.world, y: Self.world), zoom: 3) == (try Tile(zoom: 3, x: 0, y: 7)))
        #expect(Tile(containing: MapPoint(x: -1, y: -5), zoom: 3) == (try Tile(zoom: 3, x: 7, y: 0)))
        let limit = WebMercator.maximumLatitudeDegrees
        #expect(Tile(containing: try Coordinate(latitude: 90, longitude: 180), zoom: 4) == (try Tile(zoom: 4, x: 0, y: 0)))
        #expect(Tile(containing: try Coordinate(latitude: -limit, longitude: -180), zoom: 4) == (try Tile(zoom: 4, x: 0, y: 15)))
    }

    @Test("tile → centre → tile returns the tile at every zoom", arguments: [0, 1, 7, 13, 20, 28])
    func centreRoundTrip(zoom: Int) throws {
        let last = (1 << zoom) - 1
        let tile = try Tile(zoom: zoom, x: last / 3, y: last)
        #expect(Tile(containing: tile.mapRect.center, zoom: zoom) == tile)
        #expect(Tile(containing: tile.mapRect.origin, zoom: zoom) == tile)
    }

    @Test("a tile's parent holds it and its four children tile it")
    func parentAndChildren() throws {
        let tile = try Tile(zoom: 10, x: 550, y: 335)
        #expect(tile.parent == (try Tile(zoom: 9, x: 275, y: 167)))
        #expect(try Tile(zoom: 0, x: 0, y: 0).parent == nil)
        #expect(tile.children.map(\.description) == ["11/1100/670", "11/1101/670", "11/1100/671", "11/1101/671"])
        #expect(tile.children.reduce(MapRect.null) { $0.union($1.mapRect) } == tile.mapRect)
        #expect(try Tile(zoom: 28, x: 0, y: 0).children.isEmpty)
    }

    @Test("a tile's own rect is covered by that tile alone, and by its four children one level in")
    func coverOfATile() throws {
        let tile = try Tile(zoom: 10, x: 550, y: 335)
        #expect(Array(Tile.tiles(covering: tile.mapRect, zoom: 10)) == [tile])
        #expect(Array(Tile.tiles(covering: tile.mapRect, zoom: 11)) == tile.children)
        #expect(Array(Tile.tiles(covering: tile.mapRect, zoom: 9)) == [tile.parent])
    }

    @Test("the world at zoom 2 is 16 tiles, row by row")
    func worldCover() throws {
        let cover = Tile.tiles(covering: .world, zoom: 2)
        #expect(cover.count == 16)
        #expect(cover.first == (try Tile(zoom: 2, x: 0, y: 0)))
        #expect(cover[5] == (try Tile(zoom: 2, x: 1, y: 1)))
        #expect(cover.last == (try Tile(zoom: 2, x: 3, y: 3)))
        #expect(Set(cover).count == 16)
    }

    @Test("a rect across the 180th meridian is covered by the last and first columns")
    func antimeridianCover() throws {
        let size = Tile.sizeMapPoints(zoom: 4)
        let rect = MapRect(x: Self.world - size / 2, y: size * 3.5, width: size, height: size / 4)
        let tiles = Array(Tile.tiles(covering: rect, zoom: 4))
        #expect(tiles == [try Tile(zoom: 4, x: 15, y: 3), try Tile(zoom: 4, x: 0, y: 3)])
    }

    @Test("a point, a null rect, and a rect off the world")
    func degenerateCovers() throws {
        let point = MapRect(origin: MapPoint(x: 1000, y: 2000), size: .zero)
        #expect(Array(Tile.tiles(covering: point, zoom: 20)) == [try Tile(zoom: 20, x: 3, y: 7)])
        #expect(Tile.tiles(covering: .null, zoom: 5).isEmpty)
        #expect(Tile.tiles(covering: MapRect(x: 0, y: -10, width: 5, height: 5), zoom: 5).isEmpty)
    }

    @Test("a cover of 2^40 tiles is counted without being built")
    func hugeCover() {
        let cover = Tile.tiles(covering: .world, zoom: 20)
        #expect(cover.count == 1 << 40)
        #expect(cover[(1 << 40) - 1].description == "20/1048575/1048575")
    }
}
