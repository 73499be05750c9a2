/// A UTC calendar date (proleptic Gregorian), as RMC (`ddmmyy`), ZDA (`dd,mm,yyyy`) or the user
/// (`--date`) give it.
public struct NMEADate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days in 1024 GPS weeks: how far back a receiver with a week-number rollover bug dates its fixes.
    public static let gpsWeekRolloverDays = 1024 * 7

    public let year: Int
    /// 1…12.
    public let month: Int
    /// 1…31, valid for the month and year.
    public let day: Int

    /// Creates a date; `nil` unless it exists (year 1…9999, February 29 only in leap years).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              day >= 1, day <= Self.daysInMonth(month, year: year) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD` or `YYYYMMDD` (what a `--date` option takes); `nil` otherwise.
    public init?(_ text: String) {
        let digits = Array(text.utf8)
        let parts: [ArraySlice<UInt8>]
        switch digits.count {
        case 10 where digits[4] == UInt8(ascii: "-") && digits[7] == UInt8(ascii: "-"):
            parts = [digits[0..<4], digits[5..<7], digits[8..<10]]
        case 8:
            parts = [digits[0..<4], digits[4..<6], digits[6..<8]]
        default:
            return nil
        }
        let numbers = parts.compactMap(NMEANumber.unsignedInteger)
        guard numbers.count == 3 else { return nil }
        self.init(year: numbers[0], month: numbers[1], day: numbers[2])
    }

    /// Creates the date `days` days after 1970-01-01 (negative: before).
    /// Howard Hinnant, "chrono-Compatible Low-Level Date Algorithms", `civil_from_days`.
    /// - Complexity: O(1).
    public init?(daysSince1970 days: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        self.init(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }

    /// Days from 1970-01-01 to this date (negative before it).
    /// Howard Hinnant, "chrono-Compatible Low-Level Date Algorithms", `days_from_civil`.
    /// - Complexity: O(1).
    public var daysSince1970: Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` days later (earlier when negative); `nil` outside years 1…9999.
    public func adding(days: Int) -> NMEADate? {
        days == 0 ? self : NMEADate(daysSince1970: daysSince1970 + days)
    }

    /// The date moved forward by whole GPS week-number rollovers (1024 weeks each) until it is not
    /// before `cutoff`; unchanged when it is not before `cutoff` already.
    public func correctingWeekRollover(notBefore cutoff: NMEADate) -> NMEADate {
        guard self < cutoff else { return self }
        let behind = cutoff.daysSince1970 - daysSince1970
        let rollovers = (behind + Self.gpsWeekRolloverDays - 1) / Self.gpsWeekRolloverDays
        return adding(days: rollovers * Self.gpsWeekRolloverDays) ?? self
    }

    public static func < (lhs: NMEADate, rhs: NMEADate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        func padded(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
