/// A slippy-map tile `z/x/y`: at zoom `z` the world is 2^z × 2^z tiles of 256 pixels, `x`
/// counted east from the 180th meridian and `y` south from latitude +85.0511° (the OpenStreetMap
/// and Google convention, origin at the top left).
///
/// Source: OpenStreetMap wiki, "Slippy map tilenames".
public struct Tile: Hashable, Sendable, CustomStringConvertible {
    /// The zoom level, in [0, ``maximumZoom``].
    public let zoom: Int
    /// The column, in [0, 2^zoom).
    public let x: Int
    /// The row, in [0, 2^zoom).
    public let y: Int

    /// The deepest zoom level: 28, where a tile is one map point wide.
    public static let maximumZoom = 28

    /// Creates a tile, checking that it lies in the world.
    /// - Throws: ``MapGeometryError/zoomOutOfRange(_:)`` or
    ///   ``MapGeometryError/tileOutOfRange(zoom:x:y:)``.
    public init(zoom: Int, x: Int, y: Int) throws(MapGeometryError) {
        guard (0...Self.maximumZoom).contains(zoom) else { throw .zoomOutOfRange(zoom) }
        let count = 1 << zoom
        guard (0..<count).contains(x), (0..<count).contains(y) else { throw .tileOutOfRange(zoom: zoom, x: x, y: y) }
        self.zoom = zoom
        self.x = x
        self.y = y
    }

    /// The tile holding a map point at a zoom. The point's x is wrapped into the world and its y
    /// clamped to it; a point on a boundary between tiles belongs to the tile east or south of
    /// it (the bottom edge of the world belongs to the last row).
    /// - Precondition: `zoom` is in [0, ``maximumZoom``] and the point is finite.
    public init(containing point: MapPoint, zoom: Int) {
        precondition((0...Self.maximumZoom).contains(zoom), "zoom level \(zoom) is outside 0...\(Self.maximumZoom)")
        let last = (1 << zoom) - 1
        let size = Self.sizeMapPoints(zoom: zoom)
        let world = WebMercator.worldSizeMapPoints
        let x = WebMercator.wrappedX(point.x)
        let y = min(max(point.y, 0), world)
        self.zoom = zoom
        self.x = Int((x / size).rounded(.down)) & last  // x = 2^28 is -180° again: column 0
        self.y = min(Int((y / size).rounded(.down)), last)
    }

    /// The tile holding a coordinate at a zoom.
    /// - Precondition: `zoom` is in [0, ``maximumZoom``].
    public init(containing coordinate: Coordinate, zoom: Int) {
        self.init(containing: MapPoint(coordinate), zoom: zoom)
    }

    /// The side of a tile at a zoom level, in map points: 2^(28 − zoom).
    public static func sizeMapPoints(zoom: Int) -> Double {
        WebMercator.worldSizeMapPoints / Double(1 << zoom)
    }

    /// The square of the world this tile covers.
    public var mapRect: MapRect {
        let size = Self.sizeMapPoints(zoom: zoom)
        return MapRect(x: Double(x) * size, y: Double(y) * size, width: size, height: size)
    }

    /// The tile one zoom level out that holds this one, or `nil` at zoom 0.
    public var parent: Tile? {
        zoom == 0 ? nil : Tile(validZoom: zoom - 1, x: x >> 1, y: y >> 1)
    }

    /// The four tiles one zoom level in (north-west, north-east, south-west, south-east), or
    /// none at ``maximumZoom``.
    public var children: [Tile] {
        guard zoom < Self.maximumZoom else { return [] }
        return [(0, 0), (1, 0), (0, 1), (1, 1)].map { dx, dy in
            Tile(validZoom: zoom + 1, x: 2 * x + dx, y: 2 * y + dy)
        }
    }

    /// For values already known to be in range.
    init(validZoom zoom: Int, x: Int, y: Int) {
        self.zoom = zoom
        self.x = x
        self.y = y
    }

    /// `z/x/y`, as in a tile URL.
    public var description: String { "\(zoom)/\(x)/\(y)" }
}
