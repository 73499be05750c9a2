/// A date on the proleptic Gregorian calendar, without time or place: the "local day" that a
/// location's time falls on where it was taken.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    /// 1…12.
    public let month: Int
    /// 1…31, valid for the month.
    public let day: Int

    /// Creates a date, checking that it exists (no February 30th).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: year, month: month) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `daysSince1970` days after 1970-01-01 (negative before).
    /// Algorithm: H. Hinnant, "chrono-Compatible Low-Level Date Algorithms" (civil_from_days).
    /// - Complexity: O(1).
    public init(daysSince1970 days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPrime = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
        month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 1970-01-01 (negative before).
    public var daysSince1970: Int { CivilDate.daysSince1970(year: year, month: month, day: day) }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar, without checking the
    /// fields (31 April counts as 1 May). Years are counted from 1 March in 400-year eras of
    /// 146 097 days, so the leap day ends a year and the days before a month follow a linear formula.
    /// Source: H. Hinnant, "chrono-Compatible Low-Level Date Algorithms", days_from_civil.
    /// - Complexity: O(1), integer arithmetic only.
    public static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let monthFromMarch = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Parses `YYYY-MM-DD` or `YYYYMMDD` (what `--date`, `--from` and `--to` take); `nil` unless
    /// it is such a text and the date exists.
    public init?(isoDate text: some StringProtocol) {
        let bytes = Array(text.utf8)
        let ranges: [Range<Int>]
        switch bytes.count {
        case 10 where bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-"): ranges = [0..<4, 5..<7, 8..<10]
        case 8: ranges = [0..<4, 4..<6, 6..<8]
        default: return nil
        }
        var numbers: [Int] = []
        for range in ranges {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            numbers.append(value)
        }
        self.init(year: numbers[0], month: numbers[1], day: numbers[2])
    }

    /// The date `days` days later (earlier when negative).
    public func adding(days: Int) -> CivilDate { CivilDate(daysSince1970: daysSince1970 + days) }

    /// The local date of an instant, given the offset from UTC in force there.
    /// - Parameters:
    ///   - secondsSince1970: the instant (UTC).
    ///   - utcOffsetSeconds: local time minus UTC.
    public init(secondsSince1970: Double, utcOffsetSeconds: Int) {
        let local = (secondsSince1970 + Double(utcOffsetSeconds)) / 86_400
        self.init(daysSince1970: Int(local.rounded(.down)))
    }

    /// ISO weekday: 1 = Monday … 7 = Sunday.
    public var isoWeekday: Int {
        let days = daysSince1970
        // 1970-01-01 was a Thursday (4).
        return ((days % 7 + 7 + 3) % 7) + 1
    }

    /// ISO 8601 week-numbering year and week (1…53).
    public var isoWeek: (year: Int, week: Int) {
        // The week belongs to the year of its Thursday.
        let thursday = CivilDate(daysSince1970: daysSince1970 - isoWeekday + 4)
        let january1 = CivilDate(year: thursday.year, month: 1, day: 1)?.daysSince1970 ?? 0
        return (thursday.year, (thursday.daysSince1970 - january1) / 7 + 1)
    }

    public static func isLeapYear(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.daysSince1970 < rhs.daysSince1970 }

    /// `YYYY-MM-DD`.
    public var description: String {
        let y = String(year), m = month < 10 ? "0\(month)" : "\(month)", d = day < 10 ? "0\(day)" : "\(day)"
        return "\(y)-\(m)-\(d)"
    }
}
