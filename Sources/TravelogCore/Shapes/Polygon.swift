/// A closed area with optional holes (MapKit's `MKPolygon` with interior polygons, GeoJSON's
/// Polygon).
///
/// Edges are straight lines in longitude and latitude, as RFC 7946 §3.1.1 defines them for
/// GeoJSON, and a ring is not unwrapped across the 180th meridian: following RFC 7946 §3.1.9,
/// an area across it is given as two polygons, one on each side.
public struct Polygon: Overlay, Hashable {
    /// The outer boundary, open: the closing position equal to the first is not repeated.
    public let exteriorRing: [Coordinate]
    /// The holes, each an open ring.
    public let interiorRings: [[Coordinate]]
    /// The smallest rect holding the exterior ring.
    public let boundingMapRect: MapRect

    /// Creates a polygon. A ring may be given open or closed (last position equal to the
    /// first); winding order is free.
    /// - Throws: ``ShapeError/ringTooShort(ringIndex:positionCount:)`` when a ring has fewer
    ///   than three positions besides a closing one.
    /// - Complexity: O(n) in the number of positions.
    public init(exteriorRing: [Coordinate], interiorRings: [[Coordinate]] = []) throws(ShapeError) {
        var rings: [[Coordinate]] = []
        for (index, ring) in ([exteriorRing] + interiorRings).enumerated() {
            var open = ring
            if open.count > 1, open.first == open.last { open.removeLast() }
            guard open.count >= 3 else { throw .ringTooShort(ringIndex: index, positionCount: open.count) }
            rings.append(open)
        }
        self.exteriorRing = rings[0]
        self.interiorRings = Array(rings.dropFirst())
        boundingMapRect = MapRect(bounding: rings[0].lazy.map(MapPoint.init))
    }

    /// Whether a coordinate lies in the polygon under a fill rule (even-odd by default). Points
    /// exactly on an edge may fall either way. Longitudes are compared as given, in
    /// [-180, 180], consistently with the edges being straight in longitude and latitude.
    ///
    /// Crossing number and winding number in one pass over the edges: D. Sunday, "Inclusion of a
    /// point in a polygon" (2001), after W. R. Franklin's PNPOLY.
    /// - Complexity: O(n) in the number of positions.
    public func contains(_ coordinate: Coordinate, rule: FillRule = .evenOdd) -> Bool {
        var crossings = 0, winding = 0
        for ring in [exteriorRing] + interiorRings {
            let (ringCrossings, ringWinding) = Self.crossingsAndWinding(of: ring, around: coordinate)
            crossings += ringCrossings
            winding += ringWinding
        }
        switch rule {
        case .evenOdd: return crossings % 2 == 1
        case .nonZero: return winding != 0
        }
    }

    /// How many edges of a ring a ray from the point towards east crosses, and the ring's winding
    /// number around the point (positive counter-clockwise, in longitude east and latitude north).
    static func crossingsAndWinding(of ring: [Coordinate], around point: Coordinate) -> (crossings: Int, winding: Int) {
        var crossings = 0, winding = 0
        let x = point.longitude, y = point.latitude
        var previous = ring[ring.count - 1]
        for current in ring {
            let (a, b) = (previous, current)
            previous = current
            // Where the point lies relative to the line a→b: > 0 left, < 0 right.
            let side = (b.longitude - a.longitude) * (y - a.latitude) - (x - a.longitude) * (b.latitude - a.latitude)
            if a.latitude <= y, y < b.latitude, side > 0 {
                crossings += 1  // an upward edge passing east of the point
                winding += 1
            } else if b.latitude <= y, y < a.latitude, side < 0 {
                crossings += 1  // a downward edge passing east of the point
                winding -= 1
            }
        }
        return (crossings, winding)
    }
}
