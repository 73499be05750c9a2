import Foundation

/// Where the device points: Core Location's `CLHeading`. Negative values mean unknown.
public struct Heading: Hashable, Sendable {
    /// Degrees clockwise from magnetic north, [0, 360); -1 when the source gave a true heading only.
    public var magneticHeadingDegrees: Double
    /// Degrees clockwise from true north, [0, 360); -1 when it cannot be known (a magnetic
    /// heading with no location or outside the magnetic model's validity).
    public var trueHeadingDegrees: Double
    /// The largest expected error, in degrees; -1 when invalid.
    public var headingAccuracyDegrees: Double
    /// When the heading was measured.
    public var timestamp: Date

    public init(magneticHeadingDegrees: Double = -1, trueHeadingDegrees: Double = -1,
                headingAccuracyDegrees: Double = -1, timestamp: Date) {
        self.magneticHeadingDegrees = magneticHeadingDegrees
        self.trueHeadingDegrees = trueHeadingDegrees
        self.headingAccuracyDegrees = headingAccuracyDegrees
        self.timestamp = timestamp
    }

    /// The heading to compare for the heading filter: true when known, else magnetic.
    public var comparableDegrees: Double { trueHeadingDegrees >= 0 ? trueHeadingDegrees : magneticHeadingDegrees }

    /// An angle in [0, 360).
    public static func normalizedDegrees(_ degrees: Double) -> Double {
        let value = degrees.truncatingRemainder(dividingBy: 360)
        return value < 0 ? value + 360 : (value == 360 ? 0 : value)
    }

    /// The smaller angle between two directions, in degrees, [0, 180].
    public static func separationDegrees(_ a: Double, _ b: Double) -> Double {
        let difference = abs(normalizedDegrees(a) - normalizedDegrees(b))
        return min(difference, 360 - difference)
    }
}
