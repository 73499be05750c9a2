import Foundation

/// One fix: where a device was, how well it knew it, how it moved, and when.
///
/// Follows Core Location's `CLLocation`: a negative accuracy means the matching value is
/// invalid, and a negative speed or course means unknown. Use the `…IfValid` accessors rather
/// than testing signs by hand.
public struct Location: Hashable, Sendable {
    /// Where the fix is.
    public var coordinate: Coordinate
    /// Height in metres (above mean sea level unless the source says otherwise), `nil` when the
    /// source gave none.
    public var altitudeMeters: Double?
    /// Radius of uncertainty of `coordinate`, in metres; negative when the coordinate is invalid.
    public var horizontalAccuracyMeters: Double
    /// Uncertainty of `altitudeMeters`, in metres; negative when not reported.
    public var verticalAccuracyMeters: Double
    /// Instantaneous speed in metres per second; negative when unknown.
    public var speedMetersPerSecond: Double
    /// Uncertainty of the speed in metres per second; negative when invalid.
    public var speedAccuracyMetersPerSecond: Double
    /// Direction of travel in degrees clockwise from true north, [0, 360); negative when unknown.
    public var courseDegrees: Double
    /// Uncertainty of the course in degrees; negative when invalid.
    public var courseAccuracyDegrees: Double
    /// When the fix was taken.
    public var timestamp: Date
    /// The offset from UTC, in seconds, that the source wrote the time with (a GPX time written as
    /// `…+02:00`, an Overland timestamp); `nil` when the source gave UTC or no offset. It says what
    /// local time the device kept, which is how days are counted when nothing better is known.
    public var utcOffsetSeconds: Int?

    /// Creates a location. Only the coordinate and the timestamp are required; every other value
    /// defaults to "invalid/unknown" (-1, or `nil` for the altitude).
    public init(
        coordinate: Coordinate,
        altitudeMeters: Double? = nil,
        horizontalAccuracyMeters: Double = -1,
        verticalAccuracyMeters: Double = -1,
        speedMetersPerSecond: Double = -1,
        speedAccuracyMetersPerSecond: Double = -1,
        courseDegrees: Double = -1,
        courseAccuracyDegrees: Double = -1,
        timestamp: Date,
        utcOffsetSeconds: Int? = nil
    ) {
        self.coordinate = coordinate
        self.altitudeMeters = altitudeMeters.flatMap { $0.isFinite ? $0 : nil }
        self.horizontalAccuracyMeters = Location.sanitized(horizontalAccuracyMeters)
        self.verticalAccuracyMeters = Location.sanitized(verticalAccuracyMeters)
        self.speedMetersPerSecond = Location.sanitized(speedMetersPerSecond)
        self.speedAccuracyMetersPerSecond = Location.sanitized(speedAccuracyMetersPerSecond)
        self.courseDegrees = Location.sanitized(courseDegrees)
        self.courseAccuracyDegrees = Location.sanitized(courseAccuracyDegrees)
        self.timestamp = timestamp
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// NaN and infinities carry no information: they are stored as "unknown" (-1).
    private static func sanitized(_ value: Double) -> Double { value.isFinite ? value : -1 }

    /// The horizontal accuracy in metres, or `nil` when the coordinate's accuracy is invalid.
    public var horizontalAccuracyIfValid: Double? { horizontalAccuracyMeters >= 0 ? horizontalAccuracyMeters : nil }
    /// The speed in m/s, or `nil` when unknown.
    public var speedIfKnown: Double? { speedMetersPerSecond >= 0 ? speedMetersPerSecond : nil }
    /// The course in degrees from true north, or `nil` when unknown.
    public var courseIfKnown: Double? { courseDegrees >= 0 ? courseDegrees : nil }

    /// The WGS84 geodesic distance to another location, in metres (Karney 2013).
    public func distanceMeters(from other: Location) -> Double {
        Geodesic.wgs84.distanceMeters(from: coordinate, to: other.coordinate)
    }
}
