import Foundation
import TravelogCore

/// Writes instants as ISO 8601 / RFC 3339 UTC times ("2024-03-01T12:00:00Z",
/// "2024-03-01T12:00:00.123Z"), computing the civil date with integer arithmetic instead of a
/// calendar, and without allocating.
///
/// Times are rounded to the nearest millisecond (half away from zero); the fraction is written only
/// when those milliseconds are not zero. Dates are in the proleptic Gregorian calendar; years
/// outside 0...9999 carry a sign and at least four digits (ISO 8601's expanded form), and instants
/// further than about 285,000 years from 1970 (or NaN) are clamped to that range.
///
/// The date comes from `CivilDate` (Hinnant's `civil_from_days`).
/// - Complexity: O(1).
public enum ISO8601TimeFormatter {
    /// The most bytes one time takes: a sign, six year digits, "-MM-DDTHH:MM:SS.mmmZ".
    public static let maximumByteCount = 27

    /// `date` as an ISO 8601 UTC time.
    public static func string(_ date: Date) -> String {
        String(unsafeUninitializedCapacity: maximumByteCount) { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            return write(date, to: base)
        }
    }

    /// `date` as the local time of a place `utcOffsetSeconds` east of UTC, to the whole second (the
    /// fraction is dropped after rounding to the millisecond, as Foundation's formatter does), with its offset: "2024-03-01T13:00:00+01:00"; "Z" when the offset is 0.
    /// This is how the journal writes a visit's local times.
    public static func string(_ date: Date, utcOffsetSeconds: Int) -> String {
        // To the millisecond first, as the UTC form is, then the whole second it falls in.
        let milliseconds = ((date.timeIntervalSince1970 + Double(utcOffsetSeconds)) * 1000).rounded()
        let local = Date(timeIntervalSince1970: (milliseconds / 1000).rounded(.down))
        var text = string(local)
        guard utcOffsetSeconds != 0 else { return text }
        text.removeLast()  // the "Z"
        let magnitude = utcOffsetSeconds.magnitude
        let hours = magnitude / 3600, minutes = magnitude / 60 % 60
        text += (utcOffsetSeconds < 0 ? "-" : "+") + (hours < 10 ? "0" : "") + String(hours) + ":" + (minutes < 10 ? "0" : "") + String(minutes)
        return text
    }

    /// Milliseconds beyond which instants are clamped: 2^53, about 285,000 years.
    static let limitMilliseconds: Double = 9_007_199_254_740_992

    /// Writes `date` at `output`, which must have room for `maximumByteCount` bytes, and returns how
    /// many bytes were written.
    static func write(_ date: Date, to output: UnsafeMutablePointer<UInt8>) -> Int {
        var milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        if !(milliseconds.magnitude <= limitMilliseconds) {
            milliseconds = milliseconds.isNaN ? 0 : (milliseconds < 0 ? -limitMilliseconds : limitMilliseconds)
        }
        let total = Int64(milliseconds)
        let millisecondsPerDay: Int64 = 86_400_000
        var days = total / millisecondsPerDay
        var millisecondOfDay = total % millisecondsPerDay
        if millisecondOfDay < 0 {
            days -= 1
            millisecondOfDay += millisecondsPerDay
        }
        let date = CivilDate(daysSince1970: Int(days))
        let (year, month, day) = (Int64(date.year), date.month, date.day)
        var cursor = output
        cursor += writeYear(year, to: cursor)
        writeTwoDigits(UInt64(month), after: UInt8(ascii: "-"), to: cursor)
        writeTwoDigits(UInt64(day), after: UInt8(ascii: "-"), to: cursor + 3)
        let secondOfDay = UInt64(millisecondOfDay / 1000)
        writeTwoDigits(secondOfDay / 3600, after: UInt8(ascii: "T"), to: cursor + 6)
        writeTwoDigits(secondOfDay / 60 % 60, after: UInt8(ascii: ":"), to: cursor + 9)
        writeTwoDigits(secondOfDay % 60, after: UInt8(ascii: ":"), to: cursor + 12)
        cursor += 15
        let millisecond = UInt64(millisecondOfDay % 1000)
        if millisecond != 0 {
            cursor.pointee = UInt8(ascii: ".")
            FixedDecimalFormatter.writePadded(millisecond, width: 3, to: cursor + 1)
            cursor += 4
        }
        cursor.pointee = UInt8(ascii: "Z")
        return cursor + 1 - output
    }

    /// Four digits for years 0...9999, otherwise a sign and as many digits as needed.
    private static func writeYear(_ year: Int64, to output: UnsafeMutablePointer<UInt8>) -> Int {
        if (0...9999).contains(year) {
            FixedDecimalFormatter.writePadded(UInt64(year), width: 4, to: output)
            return 4
        }
        output.pointee = year < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
        let magnitude = year.magnitude
        let width = magnitude < 10_000 ? 4 : (magnitude < 100_000 ? 5 : 6)
        FixedDecimalFormatter.writePadded(magnitude, width: width, to: output + 1)
        return width + 1
    }

    @inline(__always)
    private static func writeTwoDigits(_ value: UInt64, after separator: UInt8, to output: UnsafeMutablePointer<UInt8>) {
        output[0] = separator
        output[1] = UInt8(truncatingIfNeeded: value / 10) &+ UInt8(ascii: "0")
        output[2] = UInt8(truncatingIfNeeded: value % 10) &+ UInt8(ascii: "0")
    }
}
