/// A validated geographic coordinate on WGS84, in degrees.
///
/// Latitude is always in [-90, 90]; longitude is normalised into [-180, 180]
/// (values already in that range are kept as they are, others are wrapped into [-180, 180)).
/// A coordinate with latitude 91 or a NaN component cannot be constructed.
public struct Coordinate: Hashable, Sendable, CustomStringConvertible {
    /// Latitude in degrees, positive north, in [-90, 90].
    public let latitude: Double
    /// Longitude in degrees, positive east, in [-180, 180].
    public let longitude: Double

    /// Creates a coordinate, validating the latitude and normalising the longitude.
    /// - Parameters:
    ///   - latitude: degrees, must be finite and in [-90, 90].
    ///   - longitude: degrees, must be finite; wrapped into [-180, 180].
    /// - Throws: `CoordinateError` when a component is out of range or not finite.
    public init(latitude: Double, longitude: Double) throws(CoordinateError) {
        guard latitude.isFinite, (-90...90).contains(latitude) else {
            throw .latitudeOutOfRange(latitude)
        }
        guard longitude.isFinite else { throw .longitudeNotFinite(longitude) }
        self.latitude = latitude
        self.longitude = Coordinate.normalizedLongitude(longitude)
    }

    /// Creates a coordinate when the components are valid, `nil` otherwise.
    public init?(validLatitude latitude: Double, longitude: Double) {
        guard let coordinate = try? Coordinate(latitude: latitude, longitude: longitude) else { return nil }
        self = coordinate
    }

    /// Wraps a longitude in degrees into [-180, 180]; values already in range are unchanged.
    public static func normalizedLongitude(_ degrees: Double) -> Double {
        if (-180...180).contains(degrees) { return degrees }
        var wrapped = (degrees + 180).truncatingRemainder(dividingBy: 360)
        if wrapped < 0 { wrapped += 360 }
        return wrapped - 180
    }

    public var description: String { "(\(latitude), \(longitude))" }
}

/// Why a coordinate could not be constructed.
public enum CoordinateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The latitude (degrees) is not finite or lies outside [-90, 90].
    case latitudeOutOfRange(Double)
    /// The longitude is NaN or infinite.
    case longitudeNotFinite(Double)

    public var description: String {
        switch self {
        case .latitudeOutOfRange(let value): "latitude \(value) is outside [-90, 90]"
        case .longitudeNotFinite(let value): "longitude \(value) is not a finite number"
        }
    }
}
