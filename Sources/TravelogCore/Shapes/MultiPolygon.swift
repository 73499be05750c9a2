/// Several polygons that together make one area (GeoJSON's MultiPolygon), such as a coverage
/// area made of a mainland and islands, or a country cut at the 180th meridian.
public struct MultiPolygon: Overlay, Hashable {
    /// The parts, in the order given.
    public let polygons: [Polygon]
    /// The union of the parts' bounding rects, ``MapRect/null`` when there are none.
    public let boundingMapRect: MapRect

    /// Creates a multipolygon from its parts (possibly none).
    public init(polygons: [Polygon]) {
        self.polygons = polygons
        boundingMapRect = polygons.reduce(MapRect.null) { $0.union($1.boundingMapRect) }
    }

    /// Whether any part contains the coordinate; see ``Polygon/contains(_:rule:)``.
    /// - Complexity: O(n) in the number of positions, parts whose bounding rect misses the point skipped.
    public func contains(_ coordinate: Coordinate, rule: FillRule = .evenOdd) -> Bool {
        let point = MapPoint(coordinate)
        return polygons.contains { $0.boundingMapRect.contains(point) && $0.contains(coordinate, rule: rule) }
    }

    /// Whether any part's bounding rect meets the rect, on the wrapped world.
    public func intersects(_ mapRect: MapRect) -> Bool {
        polygons.contains { $0.intersects(mapRect) }
    }
}
