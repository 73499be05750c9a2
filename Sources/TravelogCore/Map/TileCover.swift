/// The tiles at one zoom level that cover a map rect, row by row from the north and west to
/// east within a row (a rect across the 180th meridian lists its western columns first, the
/// columns east of x = 0 after them). Computed lazily: a cover of millions of tiles takes no memory.
public struct TileCover: RandomAccessCollection, Sendable, Equatable {
    /// The zoom level of every tile.
    public let zoom: Int
    /// The rows, north to south.
    public let rows: Range<Int>
    /// One or two runs of columns (two when the rect crosses the 180th meridian).
    public let columnRuns: [Range<Int>]

    /// The tiles that share at least one interior point with the rect, or the single tile a
    /// zero-size rect lies in. The rect's x is wrapped; rows outside the world are dropped.
    /// - Precondition: `zoom` is in [0, ``Tile/maximumZoom``].
    /// - Complexity: O(1); iterating is O(1) per tile.
    public init(covering rect: MapRect, zoom: Int) {
        precondition((0...Tile.maximumZoom).contains(zoom), "zoom level \(zoom) is outside 0...\(Tile.maximumZoom)")
        self.zoom = zoom
        let world = WebMercator.worldSizeMapPoints
        guard !rect.isNull, rect.maxY >= 0, rect.minY <= world else {
            rows = 0..<0
            columnRuns = []
            return
        }
        rows = Self.indices(from: Swift.max(rect.minY, 0), to: Swift.min(rect.maxY, world), zoom: zoom)
        var runs = rect.worldParts.map { Self.indices(from: $0.minX, to: $0.maxX, zoom: zoom) }
        if runs.count == 2, runs[0].lowerBound <= runs[1].upperBound {
            runs = [0..<(1 << zoom)]  // the two runs meet: every column
        }
        columnRuns = runs
    }

    /// The tile indices whose span [i·size, (i+1)·size] overlaps [from, to] with positive
    /// length, or holds `from` when the interval is a point; clamped to the world.
    private static func indices(from low: Double, to high: Double, zoom: Int) -> Range<Int> {
        let size = Tile.sizeMapPoints(zoom: zoom)
        let last = (1 << zoom) - 1
        let first = Swift.min(Swift.max(Int((low / size).rounded(.down)), 0), last)
        let end = Swift.min(Swift.max(Int((high / size).rounded(.up)) - 1, first), last)
        return first..<(end + 1)
    }

    private var columnCount: Int { columnRuns.reduce(0) { $0 + $1.count } }

    public var startIndex: Int { 0 }
    public var endIndex: Int { rows.count * columnCount }

    public subscript(position: Int) -> Tile {
        precondition(indices.contains(position), "tile index \(position) is outside 0..<\(endIndex)")
        let columns = columnCount
        let row = rows.lowerBound + position / columns
        var column = position % columns
        for run in columnRuns {
            if column < run.count { return Tile(validZoom: zoom, x: run.lowerBound + column, y: row) }
            column -= run.count
        }
        preconditionFailure("column runs do not add up")
    }
}

extension Tile {
    /// The tiles at a zoom level covering a map rect; see ``TileCover``.
    public static func tiles(covering rect: MapRect, zoom: Int) -> TileCover {
        TileCover(covering: rect, zoom: zoom)
    }
}
