/// A polygon on the ellipsoid whose edges are geodesics: its perimeter and the area it encloses,
/// accumulated vertex by vertex.
///
/// Each edge contributes its area to the equator, S12 (Karney 2013, §6, eqs. 58–62), kept in a
/// double-double sum; counting the edges' crossings of the prime meridian tells whether the
/// polygon encircles a pole, which shifts the area by half the ellipsoid. So polygons around a
/// pole, across the antimeridian, or with a vertex at a pole are measured correctly, and the
/// polygon does not need to be closed (the last vertex joins the first). Self-intersecting
/// polygons count their loops algebraically (the two loops of a figure of eight cancel).
///
/// Source: C. F. F. Karney, "Algorithms for geodesics", J. Geodesy 87 (2013) 43–55, §6; the
/// area convention is that of GeographicLib's `Planimeter`.
public struct GeodesicPolygon: Sendable {
    /// Perimeter and area of a polygon.
    public struct Measurement: Sendable, Equatable {
        /// The number of vertices.
        public var vertexCount: Int
        /// The length of the closed boundary, in metres.
        public var perimeterMeters: Double
        /// The enclosed area, in m² (see `GeodesicPolygon.measure(signed:)` for the sign).
        public var areaSquareMeters: Double
    }

    /// The ellipsoid the polygon lies on.
    public let geodesic: Geodesic
    /// The number of vertices added.
    public private(set) var vertexCount = 0
    private var first = (latitude: 0.0, longitude: 0.0)
    private var last = (latitude: 0.0, longitude: 0.0)
    private var perimeterSum = CompensatedSum()
    /// Σ S12 over the edges so far: the area clockwise, modulo the ellipsoid's area.
    private var areaSum = CompensatedSum()
    /// Net number of eastward crossings of the prime meridian by the edges so far.
    private var crossings = 0

    /// An empty polygon on the given ellipsoid.
    public init(geodesic: Geodesic = .wgs84) {
        self.geodesic = geodesic
    }

    /// The polygon through `vertices`, in order.
    /// - Complexity: O(n) for n vertices.
    public init(_ vertices: some Sequence<Coordinate>, geodesic: Geodesic = .wgs84) {
        self.init(geodesic: geodesic)
        for vertex in vertices { add(vertex) }
    }

    /// Adds the next vertex; the edge from the previous one is the shortest geodesic.
    /// - Complexity: O(1): one inverse geodesic problem.
    public mutating func add(_ vertex: Coordinate) {
        let next = (latitude: vertex.latitude, longitude: vertex.longitude)
        if vertexCount == 0 {
            first = next
        } else {
            let edge = geodesic.solveInverse(latitude1: last.latitude, longitude1: last.longitude,
                                             latitude2: next.latitude, longitude2: next.longitude, extras: .area)
            perimeterSum.add(edge.distanceMeters)
            areaSum.add(edge.areaSquareMeters)
            crossings += Self.primeMeridianCrossing(from: last.longitude, to: next.longitude)
        }
        last = next
        vertexCount += 1
    }

    /// The perimeter and area of the polygon closed from the last vertex back to the first.
    ///
    /// - Parameter signed: with `true` (GeographicLib Planimeter's default), a counter-clockwise
    ///   polygon has a positive area and a clockwise one a negative area, and of the two regions
    ///   the boundary separates the smaller is reported: the area is in (−A/2, A/2] for an
    ///   ellipsoid of area A. With `false`, the area is that of the region on the left of the
    ///   boundary (enclosed counter-clockwise), in [0, A).
    /// - Returns: zero perimeter and area for fewer than two vertices; for two, twice the distance
    ///   and zero area.
    /// - Complexity: O(1): one inverse geodesic problem for the closing edge.
    public func measure(signed: Bool = true) -> Measurement {
        guard vertexCount >= 2 else { return Measurement(vertexCount: vertexCount, perimeterMeters: 0, areaSquareMeters: 0) }
        let closing = geodesic.solveInverse(latitude1: last.latitude, longitude1: last.longitude,
                                            latitude2: first.latitude, longitude2: first.longitude, extras: .area)
        var area = areaSum.adding(closing.areaSquareMeters)
        let totalCrossings = crossings + Self.primeMeridianCrossing(from: last.longitude, to: first.longitude)
        let total = geodesic.ellipsoidAreaSquareMeters
        area.formRemainder(dividingBy: total)  // now in [−A/2, A/2]
        if totalCrossings % 2 != 0 {
            // An odd number of crossings: the boundary encircles a pole, and the sum of the edges'
            // areas to the equator counts the wrong side of it by half the ellipsoid.
            area.add(area.value < 0 ? total / 2 : -total / 2)
        }
        area.negate()  // the sum is clockwise-positive; report counter-clockwise-positive
        if signed {
            if area.value > total / 2 { area.add(-total) } else if area.value <= -total / 2 { area.add(total) }
        } else {
            if area.value >= total { area.add(-total) } else if area.value < 0 { area.add(total) }
        }
        return Measurement(vertexCount: vertexCount,
                           perimeterMeters: perimeterSum.adding(closing.distanceMeters).value,
                           areaSquareMeters: area.value + 0)
    }

    /// +1 when the edge from `lon1` to `lon2` (the shorter way round) crosses the prime meridian
    /// eastwards, −1 westwards, 0 otherwise. A longitude of ±0 counts as east of it, so an edge
    /// ending on the meridian crosses it and one starting there does not.
    static func primeMeridianCrossing(from lon1: Double, to lon2: Double) -> Int {
        let lon12 = DegreeArithmetic.difference(from: lon1, to: lon2).difference
        let start = DegreeArithmetic.normalized(lon1), end = DegreeArithmetic.normalized(lon2)
        if lon12 > 0 && ((start < 0 && end >= 0) || (start > 0 && end == 0)) { return 1 }  // 180 → 360 ≡ 0 eastwards
        if lon12 < 0 && start >= 0 && end < 0 { return -1 }
        return 0
    }
}
