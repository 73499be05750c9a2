/// A UTC time of day as NMEA sentences write it (`hhmmss[.sss]`), kept exactly to the nanosecond.
///
/// Two sentences belong to the same epoch when their times of day are equal, so equality is exact:
/// `123519`, `123519.0` and `123519.000` are the same instant.
public struct NMEATimeOfDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds in a day of 86 400 seconds.
    public static let nanosecondsPerDay: Int64 = 86_400 * nanosecondsPerSecond
    /// Nanoseconds in one second.
    public static let nanosecondsPerSecond: Int64 = 1_000_000_000
    /// Half a day, the largest backward jump of the time of day that is still read as the same day.
    /// A larger one (23:59:59 → 00:00:00) means midnight has passed.
    public static let midnightWrapThresholdNanoseconds: Int64 = nanosecondsPerDay / 2

    /// Nanoseconds since 00:00:00 UTC, in [0, 86 401 s) (a leap second `hhmm60` is allowed).
    public let nanosecondsSinceMidnight: Int64

    /// Creates a time of day; `nil` outside [0, 86 401 s).
    public init?(nanosecondsSinceMidnight: Int64) {
        guard nanosecondsSinceMidnight >= 0,
              nanosecondsSinceMidnight < Self.nanosecondsPerDay + Self.nanosecondsPerSecond else { return nil }
        self.nanosecondsSinceMidnight = nanosecondsSinceMidnight
    }

    /// Creates a time of day from its parts; `nil` when one is out of range (hour 24, minute 60,
    /// second 61, a negative or ≥ 1 s fraction).
    public init?(hour: Int, minute: Int, second: Int, nanoseconds: Int64 = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
              (0..<Self.nanosecondsPerSecond).contains(nanoseconds) else { return nil }
        let seconds = Int64((hour * 60 + minute) * 60 + second)
        self.nanosecondsSinceMidnight = seconds * Self.nanosecondsPerSecond + nanoseconds
    }

    /// Seconds since midnight, with the fraction.
    public var secondsSinceMidnight: Double {
        Double(nanosecondsSinceMidnight / Self.nanosecondsPerSecond)
            + Double(nanosecondsSinceMidnight % Self.nanosecondsPerSecond) / Double(Self.nanosecondsPerSecond)
    }

    /// Whether going from `earlier` to this time of day, within one continuous stream, crossed
    /// midnight: the clock went back by more than half a day.
    public func hasWrappedPastMidnight(since earlier: NMEATimeOfDay) -> Bool {
        earlier.nanosecondsSinceMidnight - nanosecondsSinceMidnight > Self.midnightWrapThresholdNanoseconds
    }

    public static func < (lhs: NMEATimeOfDay, rhs: NMEATimeOfDay) -> Bool {
        lhs.nanosecondsSinceMidnight < rhs.nanosecondsSinceMidnight
    }

    /// `hh:mm:ss.nnnnnnnnn`.
    public var description: String {
        let seconds = nanosecondsSinceMidnight / Self.nanosecondsPerSecond
        let fraction = nanosecondsSinceMidnight % Self.nanosecondsPerSecond
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let digits = String(fraction)
        return "\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))."
            + String(repeating: "0", count: 9 - digits.count) + digits
    }
}
