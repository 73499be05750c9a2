import TravelogCore

/// A date and time of day on the proleptic Gregorian calendar (years 0000–9999), validated when
/// built: 30 February or hour 25 cannot exist. Readers that take a time apart themselves (NMEA's
/// `ddmmyy` and `hhmmss`) build one of these to get the instant without a `DateFormatter`.
public struct CivilDateTime: Hashable, Sendable {
    public let year: Int
    /// 1–12.
    public let month: Int
    /// 1–28, 29, 30 or 31 depending on the month.
    public let day: Int
    /// 0–23.
    public let hour: Int
    /// 0–59.
    public let minute: Int
    /// 0–59, or 60 for a leap second (`ParsedTimestamp` says when 60 is allowed).
    public let second: Int
    /// 0–999 999 999.
    public let nanosecond: Int

    /// Creates a date and time, checking every field against the calendar.
    /// - Throws: `TimestampError.outOfRange` naming the first impossible field.
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0,
                nanosecond: Int = 0) throws(TimestampError) {
        guard (0...9999).contains(year) else { throw .outOfRange(.year, value: year) }
        guard (1...12).contains(month) else { throw .outOfRange(.month, value: month) }
        guard day >= 1, day <= CivilDate.daysInMonth(year: year, month: month) else { throw .outOfRange(.day, value: day) }
        guard (0...23).contains(hour) else { throw .outOfRange(.hour, value: hour) }
        guard (0...59).contains(minute) else { throw .outOfRange(.minute, value: minute) }
        guard (0...60).contains(second) else { throw .outOfRange(.second, value: second) }
        guard (0..<1_000_000_000).contains(nanosecond) else { throw .outOfRange(.nanosecond, value: nanosecond) }
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.nanosecond = nanosecond
    }

    /// Whole seconds from 1970-01-01T00:00:00 to this date and time read as UTC (a leap second
    /// counts like the first second of the next minute, as in POSIX time).
    public var secondsSince1970: Int64 {
        let days = Int64(CivilDate.daysSince1970(year: year, month: month, day: day))
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }
}
