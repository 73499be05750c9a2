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
        guard day >= 1, day <= CivilDateTime.daysInMonth(month, year: year) else { throw .outOfRange(.day, value: day) }
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
        let days = Int64(CivilDateTime.daysSince1970(year: year, month: month, day: day))
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// Whether `year` has a 29 February.
    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days of `month` (1–12) in `year`.
    public static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (negative before 1970).
    /// The fields are not checked: 31 April counts as 1 May.
    ///
    /// Counts in 400-year eras of 146 097 days, with years starting on 1 March so that the leap
    /// day falls at the end of a year and the days before a month follow a linear formula.
    /// Source: Howard Hinnant, "chrono-Compatible Low-Level Date Algorithms", `days_from_civil`.
    /// - Complexity: O(1), integer arithmetic only.
    public static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400                                  // 0…399
        let monthFromMarch = month > 2 ? month - 3 : month + 9                // 0 = March … 11 = February
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1               // 0…365
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear  // 0…146096
        // 719 468 days separate 0000-03-01, the start of era 0, from 1970-01-01.
        return era * 146_097 + dayOfEra - 719_468
    }
}
