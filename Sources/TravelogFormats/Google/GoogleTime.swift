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
        guard let parsed = try? TimestampParser.parse(utf8: text, accepting: .calendar) else { return nil }
        return Instant(date: parsed.date, utcOffsetSeconds: parsed.utcOffsetSeconds)
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
}
