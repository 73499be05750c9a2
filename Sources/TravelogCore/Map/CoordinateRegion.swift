/// A rectangular area of latitudes and longitudes around a centre (MapKit's
/// `MKCoordinateRegion`). It may cross the 180th meridian, but never a pole.
public struct CoordinateRegion: Hashable, Sendable, CustomStringConvertible {
    /// The centre.
    public let center: Coordinate
    /// The extent, half of it on each side of the centre.
    public let span: CoordinateSpan

    /// Creates a region.
    /// - Throws: ``MapGeometryError/regionBeyondPole(southLatitudeDegrees:northLatitudeDegrees:)``
    ///   when `center.latitude ± span.latitudeDeltaDegrees / 2` leaves [-90, 90].
    public init(center: Coordinate, span: CoordinateSpan) throws(MapGeometryError) {
        let south = center.latitude - span.latitudeDeltaDegrees / 2
        let north = center.latitude + span.latitudeDeltaDegrees / 2
        guard south >= -90, north <= 90 else {
            throw .regionBeyondPole(southLatitudeDegrees: south, northLatitudeDegrees: north)
        }
        self.center = center
        self.span = span
    }

    /// The northern edge, degrees.
    public var northLatitude: Double { center.latitude + span.latitudeDeltaDegrees / 2 }
    /// The southern edge, degrees.
    public var southLatitude: Double { center.latitude - span.latitudeDeltaDegrees / 2 }
    /// The western edge, degrees, wrapped into [-180, 180].
    public var westLongitude: Double { Coordinate.normalizedLongitude(center.longitude - span.longitudeDeltaDegrees / 2) }
    /// The eastern edge, degrees, wrapped into [-180, 180].
    public var eastLongitude: Double { Coordinate.normalizedLongitude(center.longitude + span.longitudeDeltaDegrees / 2) }

    /// Whether the region runs across the 180th meridian.
    public var spansAntimeridian: Bool {
        let west = center.longitude - span.longitudeDeltaDegrees / 2
        let east = center.longitude + span.longitudeDeltaDegrees / 2
        return west < -180 || east > 180
    }

    /// Whether a coordinate lies in the region, edges included, across the 180th meridian too.
    public func contains(_ coordinate: Coordinate) -> Bool {
        guard southLatitude <= coordinate.latitude, coordinate.latitude <= northLatitude else { return false }
        if span.longitudeDeltaDegrees >= 360 { return true }
        // East of the western edge by less than the span, measured around the globe.
        var east = coordinate.longitude - (center.longitude - span.longitudeDeltaDegrees / 2)
        east -= (east / 360).rounded(.down) * 360
        return east <= span.longitudeDeltaDegrees
    }

    public var description: String { "CoordinateRegion(center: \(center), span: \(span))" }
}
