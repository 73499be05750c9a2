import Foundation
import Testing
import TravelogCore
import TravelogRender

@Suite("Path tiles: a line's ink")
struct PathInkTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// A straight track of 200 fixes from one coordinate to another, a fix every 10 s.
    static func index(from: Coordinate, to: Coordinate) -> HistoryTileIndex {
        var index = HistoryTileIndex()
        for step in 0..<200 {
            let t = Double(step) / 199
            let coordinate = Coordinate(validLatitude: from.latitude + t * (to.latitude - from.latitude),
                                        longitude: from.longitude + t * (to.longitude - from.longitude))!
            index.append(Location(coordinate: coordinate, timestamp: start.addingTimeInterval(Double(step) * 10)), deviceIndex: 0)
        }
        return index
    }

    @Test("a line's ink is its length times its width, at zooms of thin lines (9, 10) and of a wider one (12), straight or slanted",
          arguments: [(9, 0.0), (9, 0.5), (10, 2.0), (12, 0.5)])
    func ink(zoom: Int, slant: Double) throws {
        let tile = Tile(containing: Coordinate(validLatitude: 52.40, longitude: 13.20)!, zoom: zoom)
        let rect = tile.mapRect
        // Across the middle of the tile, rising `slant` times as much as it runs.
        let run = 0.35 * rect.width / max(1, slant)
        let from = MapPoint(x: rect.midX - run, y: rect.midY + slant * run).coordinate
        let to = MapPoint(x: rect.midX + run, y: rect.midY - slant * run).coordinate
        let projection = MapProjection(tile: tile)
        let a = projection.point(for: from), b = projection.point(for: to)
        let canvas = try HistoryTileRenderer(layer: .path).drawTile(tile, index: Self.index(from: from, to: to), filter: .init())
        let bytes = try canvas.rgbaBytes()
        let width = canvas.widthPixels
        var ink = 0.0, farthest = 0.0
        let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        for pixel in 0..<(bytes.count / 4) where bytes[pixel * 4 + 3] > 0 {
            ink += Double(bytes[pixel * 4 + 3]) / 255
            // The distance of the pixel's centre from the line through a and b.
            let x = Double(pixel % width) + 0.5, y = Double(pixel / width) + 0.5
            farthest = max(farthest, abs((b.x - a.x) * (a.y - y) - (a.x - x) * (b.y - a.y)) / length)
        }
        let lineWidth = projection.roadWidthPixels
        #expect(abs(ink - length * lineWidth) < 0.15 * length * lineWidth, "ink \(ink) for \(length) px × \(lineWidth) px")
        #expect(farthest < lineWidth / 2 + 1.5, "a pixel \(farthest) px from the line is painted")
    }
}
