import Foundation

extension ExploredCells {
    /// Tiles of zooms below this are drawn from the pixels they hold; deeper ones from the cells.
    public static let bucketZoom = 13
    /// Zooms 0 … ``bucketZoom`` − 1 keep pixel sets.
    static let pixelZoomCount = bucketZoom

    /// The key (row << 32 | column) of the tile at a zoom holding a map point.
    static func tileKey(_ point: MapPoint, zoom: Int) -> UInt64 {
        let tile = Tile(containing: point, zoom: zoom)
        return UInt64(tile.y) << 32 | UInt64(tile.x)
    }

    /// The explored parts of a tile, in map points: at zooms below ``bucketZoom`` the tile's pixels
    /// that hold a cell's middle (each a pixel's square), deeper the cells themselves.
    /// - Complexity: O(pixels of the tile) below ``bucketZoom``, else O(cells of the 3 × 3 zoom-13
    ///   tiles around it).
    public func exploredRects(in tile: Tile) -> [MapRect] {
        if tile.zoom < Self.bucketZoom {
            guard let found = pixels[tile.zoom][UInt64(tile.y) << 32 | UInt64(tile.x)] else { return [] }
            let pixel = Tile.sizeMapPoints(zoom: tile.zoom) / WebMercator.tileSizePixels
            let origin = tile.mapRect.origin
            return found.map { index in
                MapRect(x: origin.x + Double(index & 255) * pixel, y: origin.y + Double(index >> 8) * pixel, width: pixel, height: pixel)
            }
        }
        let rect = tile.mapRect
        let shift = tile.zoom - Self.bucketZoom
        let column = tile.x >> shift, row = tile.y >> shift, side = 1 << Self.bucketZoom
        var rects: [MapRect] = []
        for bucketRow in max(0, row - 1)...min(side - 1, row + 1) {
            for bucketColumn in (column - 1)...(column + 1) {
                let wrapped = (bucketColumn + side) % side
                guard let cells = buckets[UInt64(bucketRow) << 32 | UInt64(wrapped)] else { continue }
                for cell in cells {
                    let box = Self.bounds(of: cell)
                    let cellRect = MapRect(corner: MapPoint(x: WebMercator.x(longitudeDegrees: box.west),
                                                            y: WebMercator.y(latitudeDegrees: Self.clampedLatitude(box.north))),
                                           corner: MapPoint(x: WebMercator.x(longitudeDegrees: box.east),
                                                            y: WebMercator.y(latitudeDegrees: Self.clampedLatitude(box.south))))
                    if cellRect.intersects(rect) { rects.append(cellRect) }
                }
            }
        }
        return rects
    }

    static func clampedLatitude(_ degrees: Double) -> Double {
        max(-WebMercator.maximumLatitudeDegrees, min(WebMercator.maximumLatitudeDegrees, degrees))
    }
}
