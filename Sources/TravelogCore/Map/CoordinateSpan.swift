/// The extent of a region in degrees of latitude and longitude (MapKit's `MKCoordinateSpan`).
public struct CoordinateSpan: Hashable, Sendable, CustomStringConvertible {
    /// North-south extent in degrees, in [0, 180].
    public let latitudeDeltaDegrees: Double
    /// East-west extent in degrees, in [0, 360].
    public let longitudeDeltaDegrees: Double

    /// Creates a span.
    /// - Throws: ``MapGeometryError/spanOutOfRange(latitudeDeltaDegrees:longitudeDeltaDegrees:)``
    ///   when a delta is not finite or lies outside [0, 180] × [0, 360].
    public init(latitudeDeltaDegrees: Double, longitudeDeltaDegrees: Double) throws(MapGeometryError) {
        guard (0...180).contains(latitudeDeltaDegrees), (0...360).contains(longitudeDeltaDegrees) else {
            throw .spanOutOfRange(latitudeDeltaDegrees: latitudeDeltaDegrees, longitudeDeltaDegrees: longitudeDeltaDegrees)
        }
        self.latitudeDeltaDegrees = latitudeDeltaDegrees
        self.longitudeDeltaDegrees = longitudeDeltaDegrees
    }

    public var description: String { "\(latitudeDeltaDegrees)° × \(longitudeDeltaDegrees)°" }
}
