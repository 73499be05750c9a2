/// A disc on the ellipsoid: every place within a geodesic distance of a centre (MapKit's
/// `MKCircle`, Core Location's `CLCircularRegion`).
public struct Circle: Overlay, Hashable {
    /// The centre.
    public let center: Coordinate
    /// The radius, a WGS84 geodesic distance in metres, finite and non-negative.
    public let radiusMeters: Double
    /// A rect holding the whole disc, computed once.
    public let boundingMapRect: MapRect

    /// Creates a circle.
    /// - Throws: ``ShapeError/radiusOutOfRange(meters:)`` for a negative or non-finite radius.
    public init(center: Coordinate, radiusMeters: Double) throws(ShapeError) {
        guard radiusMeters.isFinite, radiusMeters >= 0 else { throw .radiusOutOfRange(meters: radiusMeters) }
        self.center = center
        self.radiusMeters = radiusMeters
        boundingMapRect = Self.bounds(center: center, radiusMeters: radiusMeters)
    }

    /// Whether a coordinate lies within the radius of the centre (the boundary included), by
    /// the WGS84 geodesic distance.
    public func contains(_ coordinate: Coordinate) -> Bool {
        center.distanceMeters(to: coordinate) <= radiusMeters
    }

    /// A rect that holds the disc, tight north and south.
    ///
    /// North and south, the disc ends where the meridian through the centre (a geodesic, and the
    /// shortest way to another parallel) is `r` long, or at a pole it reaches. Every point of the
    /// disc lies between those parallels, and a path that gains `Δλ` of longitude there is at
    /// least `Δλ · N cos φ` long at the most poleward latitude `φ` of the band, so
    /// `Δλ ≤ r / (N cos φ)`. A disc holding a pole spans every longitude.
    private static func bounds(center: Coordinate, radiusMeters: Double) -> MapRect {
        let world = WebMercator.worldSizeMapPoints
        let poles = [90.0, -90.0].compactMap { Coordinate(validLatitude: $0, longitude: center.longitude) }
        let reachesPole = poles.map { center.distanceMeters(to: $0) <= radiusMeters }
        let north = reachesPole[0] ? 90 : center.destination(bearingDegrees: 0, distanceMeters: radiusMeters).latitude
        let south = reachesPole[1] ? -90 : center.destination(bearingDegrees: 180, distanceMeters: radiusMeters).latitude
        let top = WebMercator.y(latitudeDegrees: north), bottom = WebMercator.y(latitudeDegrees: south)
        let parallelRadius = WGS84.parallelRadiusMeters(latitudeDegrees: max(abs(north), abs(south)))
        let halfWidthDegrees = parallelRadius > 0 ? radiusMeters / parallelRadius * 180 / .pi : 180
        guard !reachesPole.contains(true), halfWidthDegrees < 180 else {
            return MapRect(x: 0, y: top, width: world, height: bottom - top)
        }
        let west = WebMercator.x(longitudeDegrees: center.longitude - halfWidthDegrees)
        let east = WebMercator.x(longitudeDegrees: center.longitude + halfWidthDegrees)
        return MapRect(x: west, y: top, width: east - west, height: bottom - top).worldWrapped
    }
}
