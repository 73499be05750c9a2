import Foundation
import Testing
import TravelogCore
import TravelogRender

@Suite("Overlay renderer")
struct OverlayRendererTests {
    /// The tile over central Berlin at zoom 14.
    static let berlin = try! Tile(zoom: 14, x: 8802, y: 5373)

    static func coordinate(_ latitude: Double, _ longitude: Double) -> Coordinate {
        Coordinate(validLatitude: latitude, longitude: longitude)!
    }

    /// A canvas the size of a tile, white.
    static func tileCanvas(_ projection: MapProjection) throws -> Canvas {
        let canvas = try Canvas(widthPixels: Int(projection.widthPixels), heightPixels: Int(projection.heightPixels))
        canvas.fill(.white)
        return canvas
    }

    @Test("a polyline, a polygon with a hole and a circle on a Berlin tile match the golden image")
    func shapesGolden() throws {
        let projection = MapProjection(tile: Self.berlin)
        let canvas = try Self.tileCanvas(projection)
        let region = Self.berlin.mapRect
        let corner = try CoordinateRegion(region)
        let (north, west) = (corner.northLatitude, corner.westLongitude)
        let (dLat, dLon) = (corner.span.latitudeDeltaDegrees, corner.span.longitudeDeltaDegrees)
        func at(_ fx: Double, _ fy: Double) -> Coordinate { Self.coordinate(north - fy * dLat, west + fx * dLon) }
        let renderer = OverlayRenderer(projection: projection)
        let polygon = try Polygon(exteriorRing: [at(0.55, 0.1), at(0.95, 0.1), at(0.95, 0.45), at(0.55, 0.45)],
                                  interiorRings: [[at(0.65, 0.2), at(0.85, 0.2), at(0.85, 0.35), at(0.65, 0.35)]])
        renderer.draw(polygon, style: OverlayStyle(strokeColor: RenderColor(rgb: 0x1A7F37),
                                                   fillColor: RenderColor(rgb: 0x1A7F37, alpha: 0.3)), on: canvas)
        let circle = try Circle(center: at(0.3, 0.7), radiusMeters: 400)
        renderer.draw(circle, style: OverlayStyle(strokeColor: RenderColor(rgb: 0x8250DF),
                                                  fillColor: RenderColor(rgb: 0x8250DF, alpha: 0.25)), on: canvas)
        let line = Polyline(coordinates: [at(-0.2, 0.5), at(0.2, 0.3), at(0.5, 0.6), at(0.8, 0.9), at(1.2, 0.8)])
        #expect(renderer.draw(line, style: .path(deviceIndex: 0), on: canvas))
        try GoldenImage.expectMatches(canvas, "shapes-z14")
    }

    @Test("an overlay that misses the tile draws nothing")
    func missesTile() throws {
        let projection = MapProjection(tile: Self.berlin)
        let canvas = try Canvas(widthPixels: 256, heightPixels: 256)
        let far = Polyline(coordinates: [Self.coordinate(48.1, 11.5), Self.coordinate(48.2, 11.6)])
        #expect(!OverlayRenderer(projection: projection).draw(far, style: .path(deviceIndex: 0), on: canvas))
        #expect(canvas.rgbaBytes().allSatisfy { $0 == 0 })
    }

    /// Opaque pixels down the middle column of a horizontal line drawn across a tile.
    static func lineThicknessPixels(zoom: Int) throws -> Int {
        let tile = Tile(containing: Self.coordinate(52.52, 13.40), zoom: zoom)
        let projection = MapProjection(tile: tile)
        let middle = tile.mapRect.midY
        let line = Polyline(points: [MapPoint(x: tile.mapRect.minX - 1000, y: middle), MapPoint(x: tile.mapRect.maxX + 1000, y: middle)])
        let canvas = try Canvas(widthPixels: 256, heightPixels: 256)
        OverlayRenderer(projection: projection).draw(line, style: .path(deviceIndex: 0), on: canvas)
        let bytes = canvas.rgbaBytes()
        return (0..<256).filter { row in bytes[(row * 256 + 128) * 4 + 3] >= 128 }.count
    }

    @Test("a line is as wide as a road: 3 px at zoom 13, 6 px at 15, 12 px at 17")
    func roadWidth() throws {
        #expect(try Self.lineThicknessPixels(zoom: 13) == 3)
        #expect(try Self.lineThicknessPixels(zoom: 15) == 6)
        #expect(try Self.lineThicknessPixels(zoom: 17) == 12)
    }

    @Test("a line across the 180th meridian is drawn on the tiles of both sides")
    func antimeridian() throws {
        let line = Polyline(coordinates: [Self.coordinate(-17.0, 179.0), Self.coordinate(-17.2, -179.0)])
        for longitude in [179.5, -179.5] {
            let tile = Tile(containing: Self.coordinate(-17.1, longitude), zoom: 6)
            let canvas = try Canvas(widthPixels: 256, heightPixels: 256)
            #expect(OverlayRenderer(projection: MapProjection(tile: tile)).draw(line, style: .path(deviceIndex: 0), on: canvas))
            #expect(canvas.rgbaBytes().contains { $0 > 0 })
        }
    }

    @Test("pins are drawn with titles, and a title that would cover another is left out")
    func pins() throws {
        let projection = MapProjection(tile: Self.berlin)
        let canvas = try Self.tileCanvas(projection)
        let center = try CoordinateRegion(Self.berlin.mapRect).center
        let near = Self.coordinate(center.latitude + 0.0002, center.longitude + 0.0002)
        let pins = [MapPin(coordinate: center, title: "Alexanderplatz"), MapPin(coordinate: near, title: "Overlapping")]
        #expect(PinRenderer(projection: projection).draw(pins, on: canvas) == 1)
    }

    @Test("a PNG read back has the same pixels")
    func pngRoundTrip() throws {
        let canvas = try Canvas(widthPixels: 7, heightPixels: 5)
        canvas.fill(RenderColor(rgb: 0x336699, alpha: 0.5))
        let back = try Canvas(png: try canvas.pngData())
        #expect(back.rgbaBytes() == canvas.rgbaBytes())
        #expect(throws: RenderError.notAPNG(byteCount: 3)) { try Canvas(png: Data([1, 2, 3])) }
    }
}
