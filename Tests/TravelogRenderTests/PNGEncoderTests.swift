import Foundation
import Testing
import TravelogCore
import TravelogRender

@Suite("PNG encoder")
struct PNGEncoderTests {
    /// The PNG colour type in the header chunk (3: paletted, 6: RGBA).
    static func colorType(_ png: Data) -> UInt8 { png[png.startIndex + 25] }

    static func distinctPixels(_ canvas: Canvas) -> Int {
        let bytes = canvas.rgbaBytes()
        return Set(stride(from: 0, to: bytes.count, by: 4).map { Array(bytes[$0..<$0 + 4]) }).count
    }

    @Test("a path tile (one colour, antialiased) is written paletted and reads back the same")
    func paletted() throws {
        var index = HistoryTileIndex()
        for step in 0..<400 {
            let coordinate = Coordinate(validLatitude: 52.52 + sin(Double(step) / 40) * 0.002, longitude: 13.40 + Double(step) * 0.00002)!
            index.append(Location(coordinate: coordinate, timestamp: Date(timeIntervalSince1970: 1_700_000_000 + Double(step))), deviceIndex: 0)
        }
        let tile = Tile(containing: Coordinate(validLatitude: 52.52, longitude: 13.404)!, zoom: 15)
        let canvas = try HistoryTileRenderer(layer: .path).drawTile(tile, index: index, filter: .init())
        let png = try canvas.pngData()
        #expect(Self.distinctPixels(canvas) > 2)
        #expect(Self.colorType(png) == 3)
        #expect(try Canvas(png: png).rgbaBytes() == canvas.rgbaBytes())
    }

    @Test("an image of more than 256 colours is written as RGBA and reads back the same")
    func rgba() throws {
        let canvas = try Canvas(widthPixels: 32, heightPixels: 32)
        for step in 0..<600 {
            let dot = try Canvas(widthPixels: 1, heightPixels: 1)
            dot.fill(RenderColor(rgb: UInt32(step * 27_361) & 0xFFFFFF, alpha: 0.4 + Double(step % 6) * 0.1))
            canvas.draw(dot, atX: Double(step % 32), y: Double(step / 32))
        }
        try #require(Self.distinctPixels(canvas) > 256)
        let png = try canvas.pngData()
        #expect(Self.colorType(png) == 6)
        #expect(try Canvas(png: png).rgbaBytes() == canvas.rgbaBytes())
    }
}
