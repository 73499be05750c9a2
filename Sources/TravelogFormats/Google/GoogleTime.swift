import Foundation
import TravelogCore

/// The times Google's location exports are written with, read from UTF-8 bytes without allocating.
///
/// Accepted:
/// - ISO 8601 / RFC 3339: `2013-04-15T06:31:26.860Z`, `2017-05-02T11:40:00+10:00`,
///   `2023-08-27T17:04:26.999-05:00`, any number of fraction digits, `Z`, `±HH:MM`, `±HHMM` or `±HH`;
/// - the variant with spaces seen in Semantic Location History files: `2025-03-24 20:07:24 +0100`;
/// - epoch digits, as `…Ms` fields and some `startTimestamp`s hold them: with 12 or more digits
///   milliseconds (`1742844302585`), fewer seconds (`1742844232`), unless the unit is given.
///
/// The offset a time was written with is kept (`utcOffsetSeconds`, nil for `Z`, for no designator
/// and for epoch numbers). A time without any designator is read as UTC.
///
/// Interim: a shared ISO 8601 parser is being written for every format; this one should fold into it.
enum GoogleTime {
    /// An instant and the offset from UTC it was written with.
    struct Instant: Hashable {
        var date: Date
        /// Local time minus UTC, seconds; nil when written in UTC (`Z`) or as an epoch number.
        var utcOffsetSeconds: Int?
    }

    /// What a time field held.
    enum Reading: Hashable {
        /// The field is absent (or `null`).
        case absent
        case valid(Instant)
        /// The field's text, which is not a time or names one that cannot be (month 13, February 30).
        case invalid(String)
    }

    /// How to read a time written as bare digits.
    enum EpochUnit {
        /// 12 digits or more are milliseconds, fewer seconds (1e11 s is the year 5138, 1e11 ms 1973).
        case automatic
        /// Always milliseconds (`timestampMs`, `startTimestampMs`).
        case milliseconds
    }

    /// Epoch values with at least this many digits are milliseconds under `.automatic`.
    static let millisecondDigitThreshold = 12

    /// The instant `milliseconds` after 1970-01-01T00:00:00Z, rounded once to the nearest Double.
    @inline(__always)
    static func date(millisecondsSince1970 milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// The instant `value` seconds or milliseconds after the epoch, a JSON number.
    static func instant(epoch value: Double, unit: EpochUnit) -> Instant? {
        guard value.isFinite, value.magnitude < 1e16 else { return nil }
        let isMilliseconds = unit == .milliseconds || value.magnitude >= 1e11
        let milliseconds = isMilliseconds ? value : value * 1000
        return Instant(date: Date(timeIntervalSince1970: milliseconds / 1000), utcOffsetSeconds: nil)
    }

    /// Parses a whole field; nil when it is not a valid time.
    /// - Complexity: O(length of the text).
    static func parse(_ text: UnsafeBufferPointer<UInt8>, unit: EpochUnit = .automatic) -> Instant? {
        guard !text.isEmpty else { return nil }
        if let epoch = parseEpoch(text, unit: unit) { return epoch }
        var cursor = Cursor(text: text)
        return parseCalendar(&cursor)
    }

    /// Bare digits (an optional minus sign first): an epoch number.
    private static func parseEpoch(_ text: UnsafeBufferPointer<UInt8>, unit: EpochUnit) -> Instant? {
        var index = 0
        let negative = text[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        let digitCount = text.count - index
        guard digitCount >= 1, digitCount <= 16 else { return nil }
        var value: Int64 = 0
        while index < text.count {
            let digit = text[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int64(digit)
            index += 1
        }
        if negative { value = -value }
        let milliseconds = unit == .milliseconds || digitCount >= millisecondDigitThreshold ? value : value * 1000
        return Instant(date: date(millisecondsSince1970: milliseconds), utcOffsetSeconds: nil)
    }

    /// `YYYY-MM-DD(T| )HH:MM[:SS[.fff…]][ ](Z|±HH[:]MM|±HH)?`
    private static func parseCalendar(_ cursor: inout Cursor) -> Instant? {
        guard let year = cursor.digits(4), cursor.skip(UInt8(ascii: "-")),
              let month = cursor.digits(2), cursor.skip(UInt8(ascii: "-")),
              let day = cursor.digits(2),
              let days = CivilDate(year: year, month: month, day: day)?.daysSince1970
        else { return nil }
        guard cursor.skip(UInt8(ascii: "T")) || cursor.skip(UInt8(ascii: "t")) || cursor.skip(UInt8(ascii: " ")),
              let hour = cursor.digits(2), hour <= 23, cursor.skip(UInt8(ascii: ":")),
              let minute = cursor.digits(2), minute <= 59
        else { return nil }
        var second = 0
        var milliseconds: Int64 = 0
        var belowMilliseconds = 0.0  // seconds, from fraction digits after the third
        if cursor.skip(UInt8(ascii: ":")) {
            // 60 is a leap second (RFC 3339 §5.6); it reads as the first second of the next minute.
            guard let value = cursor.digits(2), value <= 60 else { return nil }
            second = value
            if cursor.skip(UInt8(ascii: ".")) || cursor.skip(UInt8(ascii: ",")) {
                guard let fraction = cursor.fraction() else { return nil }
                milliseconds = fraction.milliseconds
                belowMilliseconds = fraction.belowMilliseconds
            }
        }
        _ = cursor.skip(UInt8(ascii: " "))
        var offsetSeconds: Int?
        if cursor.skip(UInt8(ascii: "Z")) || cursor.skip(UInt8(ascii: "z")) {
            offsetSeconds = nil
        } else if let sign = cursor.sign() {
            guard let hours = cursor.digits(2), hours <= 23 else { return nil }
            var minutes = 0
            if cursor.skip(UInt8(ascii: ":")) {
                guard let value = cursor.digits(2) else { return nil }
                minutes = value
            } else if let value = cursor.digits(2) {
                minutes = value
            }
            guard minutes <= 59 else { return nil }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        }
        guard cursor.atEnd else { return nil }
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetSeconds ?? 0)
        var date = self.date(millisecondsSince1970: seconds * 1000 + milliseconds)
        if belowMilliseconds != 0 { date = Date(timeIntervalSince1970: date.timeIntervalSince1970 + belowMilliseconds) }
        return Instant(date: date, utcOffsetSeconds: offsetSeconds)
    }

    /// Reads ASCII fields left to right.
    private struct Cursor {
        let text: UnsafeBufferPointer<UInt8>
        var index = 0

        var atEnd: Bool { index == text.count }

        /// Consumes `byte` when it comes next.
        @inline(__always)
        mutating func skip(_ byte: UInt8) -> Bool {
            guard index < text.count, text[index] == byte else { return false }
            index += 1
            return true
        }

        /// Exactly `count` decimal digits.
        @inline(__always)
        mutating func digits(_ count: Int) -> Int? {
            guard text.count - index >= count else { return nil }
            var value = 0
            for offset in 0..<count {
                let digit = text[index + offset] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            index += count
            return value
        }

        /// `+1` or `-1` for a sign (ASCII or U+2212 is not accepted: Google writes ASCII).
        mutating func sign() -> Int? {
            if skip(UInt8(ascii: "+")) { return 1 }
            if skip(UInt8(ascii: "-")) { return -1 }
            return nil
        }

        /// One or more fraction digits: whole milliseconds, and the rest in seconds.
        mutating func fraction() -> (milliseconds: Int64, belowMilliseconds: Double)? {
            var milliseconds: Int64 = 0
            var count = 0
            var rest = 0.0
            var scale = 1e-4
            while index < text.count {
                let digit = text[index] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                if count < 3 {
                    milliseconds = milliseconds * 10 + Int64(digit)
                } else if scale >= 1e-12 {
                    rest += Double(digit) * scale
                    scale /= 10
                }
                count += 1
                index += 1
            }
            guard count > 0 else { return nil }
            if count < 3 {
                for _ in count..<3 { milliseconds *= 10 }
            }
            return (milliseconds, rest)
        }
    }
}
