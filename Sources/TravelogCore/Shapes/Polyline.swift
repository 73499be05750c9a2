/// A connected sequence of line segments drawn straight on the map (MapKit's `MKPolyline`).
///
/// Points are kept as map points. Built from coordinates, each point is placed on the copy of
/// the world nearest to the previous one, so a track across the 180th meridian continues east
/// past x = 2^28 instead of jumping across the whole map.
public struct Polyline: Overlay, Hashable {
    /// The vertices in order, in map points.
    public let points: [MapPoint]
    /// The smallest rect holding every vertex, ``MapRect/null`` when there are none.
    public let boundingMapRect: MapRect

    /// Creates a polyline through map points as given.
    /// - Complexity: O(n).
    public init(points: [MapPoint]) {
        self.points = points
        boundingMapRect = MapRect(bounding: points)
    }

    /// For points whose bounding rect is already known.
    init(points: [MapPoint], boundingMapRect: MapRect) {
        self.points = points
        self.boundingMapRect = boundingMapRect
    }

    /// Creates a polyline through coordinates, unwrapped across the 180th meridian (each
    /// segment takes the shorter way east or west).
    /// - Complexity: O(n).
    public init(coordinates: [Coordinate]) {
        var points: [MapPoint] = []
        points.reserveCapacity(coordinates.count)
        for coordinate in coordinates {
            let point = MapPoint(coordinate)
            points.append(points.last.map { point.wrapped(near: $0) } ?? point)
        }
        self.init(points: points)
    }

    /// The vertices as coordinates (longitudes wrapped back into [-180, 180]).
    public var coordinates: [Coordinate] { points.map(\.coordinate) }

    /// The sum of the WGS84 geodesic lengths of the segments, in metres.
    /// - Complexity: O(n) geodesic inverse problems.
    public var lengthMeters: Double {
        zip(points, points.dropFirst()).reduce(0) { $0 + $1.0.distanceMeters(to: $1.1) }
    }

    /// Whether a vertex or a segment of the line lies in the rect (edges included), on the
    /// wrapped world: the rect is also tried one or more world widths east and west.
    ///
    /// Each segment is clipped with the Liang–Barsky algorithm (Y.-D. Liang, B. A. Barsky,
    /// "A new concept and method for line clipping", ACM Transactions on Graphics 3(1), 1984).
    /// - Complexity: O(n) per world copy of the rect that meets the bounding rect.
    public func intersects(_ mapRect: MapRect) -> Bool {
        guard boundingMapRect.intersectsOnWrappedWorld(mapRect) else { return false }
        let world = WebMercator.worldSizeMapPoints
        let bounds = boundingMapRect
        if mapRect.width >= world {
            // Every x is covered: only the rect's rows matter.
            let band = MapRect(x: bounds.minX, y: mapRect.minY, width: bounds.width, height: mapRect.height)
            return Self.meets(points, band)
        }
        let firstShift = ((bounds.minX - mapRect.maxX) / world).rounded(.down)
        let lastShift = ((bounds.maxX - mapRect.minX) / world).rounded(.up)
        for shift in stride(from: firstShift, through: lastShift, by: 1) {
            let moved = mapRect.offsetBy(dx: shift * world, dy: 0)
            if moved.intersects(bounds), Self.meets(points, moved) { return true }
        }
        return false
    }

    /// Whether a vertex or segment of the line lies in the rect, in the plane.
    private static func meets(_ points: [MapPoint], _ rect: MapRect) -> Bool {
        if points.count == 1 { return rect.contains(points[0]) }
        return zip(points, points.dropFirst()).contains { segment($0, $1, meets: rect) }
    }

    /// Whether the closed segment from `start` to `end` shares a point with the closed rect.
    static func segment(_ start: MapPoint, _ end: MapPoint, meets rect: MapRect) -> Bool {
        let dx = end.x - start.x, dy = end.y - start.y
        var entering = 0.0, leaving = 1.0
        // Each edge of the rect as (p, q): the segment is inside that edge where t·p ≤ q.
        let edges = [
            (-dx, start.x - rect.minX), (dx, rect.maxX - start.x),
            (-dy, start.y - rect.minY), (dy, rect.maxY - start.y),
        ]
        for (p, q) in edges {
            if p == 0 {
                if q < 0 { return false }  // parallel to this edge and outside it
                continue
            }
            let t = q / p
            if p < 0 {
                entering = max(entering, t)
            } else {
                leaving = min(leaving, t)
            }
            if entering > leaving { return false }
        }
        return true
    }
}
