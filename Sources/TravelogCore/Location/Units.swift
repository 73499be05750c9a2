/// Unit conversions, each factor defined once. Every function takes and returns SI-suffixed names.
public enum Units {
    /// Metres in one international nautical mile.
    public static let metersPerNauticalMile: Double = 1852
    /// Metres in one international foot.
    public static let metersPerFoot: Double = 0.3048
    /// Metres in one international statute mile.
    public static let metersPerMile: Double = 1609.344
    /// Seconds in one hour.
    public static let secondsPerHour: Double = 3600

    /// Converts knots to metres per second (1 kn = 1852 m / 3600 s).
    public static func metersPerSecond(knots: Double) -> Double { knots * metersPerNauticalMile / secondsPerHour }
    /// Converts kilometres per hour to metres per second.
    public static func metersPerSecond(kilometersPerHour: Double) -> Double { kilometersPerHour * 1000 / secondsPerHour }
    /// Converts statute miles per hour to metres per second.
    public static func metersPerSecond(milesPerHour: Double) -> Double { milesPerHour * metersPerMile / secondsPerHour }
    /// Converts metres per second to knots.
    public static func knots(metersPerSecond: Double) -> Double { metersPerSecond * secondsPerHour / metersPerNauticalMile }
    /// Converts metres per second to kilometres per hour.
    public static func kilometersPerHour(metersPerSecond: Double) -> Double { metersPerSecond * secondsPerHour / 1000 }
    /// Converts metres per second to statute miles per hour.
    public static func milesPerHour(metersPerSecond: Double) -> Double { metersPerSecond * secondsPerHour / metersPerMile }
    /// Converts feet to metres.
    public static func meters(feet: Double) -> Double { feet * metersPerFoot }
    /// Converts metres to feet.
    public static func feet(meters: Double) -> Double { meters / metersPerFoot }
    /// Converts statute miles to metres.
    public static func meters(miles: Double) -> Double { miles * metersPerMile }
    /// Converts metres to statute miles.
    public static func miles(meters: Double) -> Double { meters / metersPerMile }
}
