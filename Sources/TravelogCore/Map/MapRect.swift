/// An axis-aligned rectangle on the Web Mercator plane, in map points (MapKit's `MKMapRect`).
///
/// A rect is the closed set [minX, maxX] × [minY, maxY]: a rect of zero width still contains
/// the points of its edge, and two rects that share only an edge intersect. The special
/// ``null`` rect (origin at +∞) contains nothing and is the identity of ``union(_:)``.
///
/// Rects may extend east of the world (maxX > 2^28) to cross the 180th meridian; see
/// `MapRect+Antimeridian.swift`.
public struct MapRect: Hashable, Sendable, CustomStringConvertible {
    /// The top-left (north-west) corner.
    public let origin: MapPoint
    /// The extent, never negative.
    public let size: MapSize

    /// Creates a rect from its north-west corner and size.
    public init(origin: MapPoint, size: MapSize) {
        self.origin = origin
        self.size = size
    }

    /// Creates a rect from raw map-point values; width and height must be non-negative.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: MapPoint(x: x, y: y), size: MapSize(width: width, height: height))
    }

    /// The smallest rect containing two points, whichever corners they are.
    public init(corner first: MapPoint, corner second: MapPoint) {
        self.init(
            x: min(first.x, second.x), y: min(first.y, second.y),
            width: abs(second.x - first.x), height: abs(second.y - first.y)
        )
    }

    /// The smallest rect containing every point, or ``null`` for none.
    /// - Complexity: O(n).
    public init<Points: Sequence<MapPoint>>(bounding points: Points) {
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity
        for point in points {
            minX = min(minX, point.x); maxX = max(maxX, point.x)
            minY = min(minY, point.y); maxY = max(maxY, point.y)
        }
        if minX > maxX || minY > maxY {
            self = .null
        } else {
            self.init(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
        }
    }

    /// The smallest rect containing every coordinate's map point, or ``null`` for none: the same
    /// as `MapRect(bounding: coordinates.lazy.map(MapPoint.init))` up to rounding, but only the
    /// extreme latitudes and longitudes are projected (the projection keeps their order), which
    /// spares a tangent and a logarithm per coordinate.
    /// - Complexity: O(n). Inlinable, so that the loop is specialised for the caller's sequence.
    @inlinable
    public init<Coordinates: Sequence<Coordinate>>(boundingCoordinates coordinates: Coordinates) {
        var south = Double.infinity, north = -Double.infinity
        var west = Double.infinity, east = -Double.infinity
        for coordinate in coordinates {
            south = min(south, coordinate.latitude); north = max(north, coordinate.latitude)
            west = min(west, coordinate.longitude); east = max(east, coordinate.longitude)
        }
        guard south <= north, west <= east else {
            self = .null
            return
        }
        self.init(corner: MapPoint(x: WebMercator.x(longitudeDegrees: west), y: WebMercator.y(latitudeDegrees: south)),
                  corner: MapPoint(x: WebMercator.x(longitudeDegrees: east), y: WebMercator.y(latitudeDegrees: north)))
    }

    /// The rect that stands for "no rect": origin at (+∞, +∞), size zero (MapKit's `MKMapRect.null`).
    public static let null = MapRect(origin: MapPoint(x: .infinity, y: .infinity), size: .zero)
    /// The whole world, (0, 0) to (2^28, 2^28).
    public static let world = MapRect(origin: MapPoint(x: 0, y: 0), size: .world)

    /// Whether this is the ``null`` rect.
    public var isNull: Bool { origin.x.isInfinite || origin.y.isInfinite }
    /// Whether the rect is null or has no area.
    public var isEmpty: Bool { isNull || size.width == 0 || size.height == 0 }

    /// West edge, in map points.
    public var minX: Double { origin.x }
    /// North edge, in map points.
    public var minY: Double { origin.y }
    /// East edge, in map points.
    public var maxX: Double { origin.x + size.width }
    /// South edge, in map points.
    public var maxY: Double { origin.y + size.height }
    /// Middle of the east-west extent, in map points.
    public var midX: Double { origin.x + size.width / 2 }
    /// Middle of the north-south extent, in map points.
    public var midY: Double { origin.y + size.height / 2 }
    /// Width in map points.
    public var width: Double { size.width }
    /// Height in map points.
    public var height: Double { size.height }
    /// The centre point.
    public var center: MapPoint { MapPoint(x: midX, y: midY) }

    /// The smallest rect containing both rects; a null rect is ignored.
    /// Computed in the plane: rects on different world copies are not wrapped first.
    public func union(_ other: MapRect) -> MapRect {
        if isNull { return other }
        if other.isNull { return self }
        let minX = min(self.minX, other.minX), minY = min(self.minY, other.minY)
        return MapRect(x: minX, y: minY,
                       width: max(maxX, other.maxX) - minX, height: max(maxY, other.maxY) - minY)
    }

    /// The smallest rect containing this rect and a point.
    public func union(_ point: MapPoint) -> MapRect {
        union(MapRect(origin: point, size: .zero))
    }

    /// The common part of two rects, or ``null`` when they do not meet. Rects sharing only an
    /// edge give a rect of zero width or height.
    public func intersection(_ other: MapRect) -> MapRect {
        if isNull || other.isNull { return .null }
        let minX = max(self.minX, other.minX), maxX = min(self.maxX, other.maxX)
        let minY = max(self.minY, other.minY), maxY = min(self.maxY, other.maxY)
        guard minX <= maxX, minY <= maxY else { return .null }
        return MapRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// Whether the two rects share at least one point (edges included).
    public func intersects(_ other: MapRect) -> Bool {
        !isNull && !other.isNull
            && minX <= other.maxX && other.minX <= maxX
            && minY <= other.maxY && other.minY <= maxY
    }

    /// Whether the point lies in the rect, edges included.
    public func contains(_ point: MapPoint) -> Bool {
        !isNull && minX <= point.x && point.x <= maxX && minY <= point.y && point.y <= maxY
    }

    /// Whether every point of `other` lies in this rect; a null rect is contained in nothing.
    public func contains(_ other: MapRect) -> Bool {
        !isNull && !other.isNull
            && minX <= other.minX && other.maxX <= maxX
            && minY <= other.minY && other.maxY <= maxY
    }

    /// The rect shrunk by `dx` on the west and east and by `dy` on the north and south (grown
    /// for negative values). Shrinking past zero size gives ``null``; null stays null.
    public func insetBy(dx: Double, dy: Double) -> MapRect {
        if isNull { return .null }
        let width = size.width - 2 * dx, height = size.height - 2 * dy
        guard width >= 0, height >= 0 else { return .null }
        return MapRect(x: minX + dx, y: minY + dy, width: width, height: height)
    }

    /// The rect moved by `dx` east and `dy` south, in map points; null stays null.
    public func offsetBy(dx: Double, dy: Double) -> MapRect {
        if isNull { return .null }
        return MapRect(origin: MapPoint(x: minX + dx, y: minY + dy), size: size)
    }

    public var description: String {
        isNull ? "MapRect.null" : "MapRect(x: \(minX), y: \(minY), width: \(width), height: \(height))"
    }
}
