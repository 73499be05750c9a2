import TravelogCore

/// The unit a client writes speeds in. The apps disagree: Traccar Client's query parameters are
/// in knots, the OsmAnd app's tracking template and GPSLogger's `%SPD` in metres per second.
public enum SpeedUnit: String, Hashable, Sendable, CaseIterable {
    /// Metres per second.
    case metersPerSecond
    /// International knots (1852 m per hour).
    case knots
    /// Kilometres per hour.
    case kilometersPerHour

    /// Converts a speed written in this unit to metres per second, with the factors of `Units`.
    public func metersPerSecond(_ value: Double) -> Double {
        switch self {
        case .metersPerSecond: value
        case .knots: Units.metersPerSecond(knots: value)
        case .kilometersPerHour: Units.metersPerSecond(kilometersPerHour: value)
        }
    }
}
