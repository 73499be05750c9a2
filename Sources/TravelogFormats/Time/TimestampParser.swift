import TravelogCore
/// Reads the timestamps location files write, straight from their UTF-8 bytes, without a
/// `DateFormatter` (days come from `CivilDate.daysSince1970`, pure integer arithmetic).
///
/// Calendar forms (ISO 8601 extended / RFC 3339 and the database style):
/// - `yyyy-MM-ddTHH:mm[:ss[.fffffffff]]` with `T`, `t` or spaces between date and time, `/` also
///   accepted between the date's fields (`2011/08/27 06:13:01`, GeoLife labels);
/// - a fraction of 1–9 digits after `.` or `,`;
/// - a zone, optionally after spaces: `Z`/`z`, `UTC`, `GMT`, `±hh:mm`, `±hhmm`, `±hh`, or none
///   (`2025-06-01 13:02:03.000000 +00:00` is PostgreSQL's text output).
///
/// Epoch forms: digits with an optional `.fraction`: seconds since 1970, or milliseconds when the
/// integer part is at least 2^31 − 1 (Traccar's rule). Negative epochs are not accepted.
///
/// Impossible values are errors, never rolled over: month 13, 30 February, hour 24, minute 60,
/// offsets beyond ±23:59. A leap second (`:60`) is accepted only when it falls at 23:59 UTC; it
/// counts as the first second of the next day, as in POSIX time.
public enum TimestampParser {
    /// Which forms a caller accepts (a GPX `<time>` is never an epoch number).
    public struct Forms: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Dates with a time of day (ISO 8601, RFC 3339, `yyyy-MM-dd HH:mm:ss`).
        public static let calendar = Forms(rawValue: 1)
        /// Epoch seconds or milliseconds.
        public static let epoch = Forms(rawValue: 2)
        public static let all: Forms = [.calendar, .epoch]
    }

    /// Epoch numbers from this value up are milliseconds (2^31 − 1: seconds that large would be
    /// after 2038-01-19, milliseconds that small are January 1970).
    public static let epochMillisecondsThreshold: Int64 = 2_147_483_647
    /// 9999-12-31T23:59:59Z, the last second a four-digit year can write.
    static let maximumSecondsSince1970: Int64 = 253_402_300_799

    /// Parses a timestamp given as text. - Throws: `TimestampError` saying what is wrong and where.
    public static func parse(_ text: some StringProtocol, accepting forms: Forms = .all) throws(TimestampError) -> ParsedTimestamp {
        let result = text.utf8.withContiguousStorageIfAvailable { bytes in parseResult(bytes, forms: forms) }
            ?? Array(text.utf8).withUnsafeBufferPointer { parseResult($0, forms: forms) }
        return try result.get()
    }

    /// Parses a timestamp given as UTF-8 bytes (a field of a CSV row, an XML text node).
    public static func parse(utf8 bytes: ArraySlice<UInt8>, accepting forms: Forms = .all) throws(TimestampError) -> ParsedTimestamp {
        try bytes.withUnsafeBufferPointer { parseResult($0, forms: forms) }.get()
    }

    /// Parses a timestamp given as UTF-8 bytes in place. Surrounding spaces and tabs are ignored.
    /// - Complexity: O(n) in the length of the text, no allocation.
    public static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>, accepting forms: Forms = .all) throws(TimestampError) -> ParsedTimestamp {
        var start = 0, end = bytes.count
        while start < end, isBlank(bytes[start]) { start += 1 }
        while end > start, isBlank(bytes[end - 1]) { end -= 1 }
        guard start < end else { throw .empty }
        if isEpochShaped(bytes, start, end) {
            guard forms.contains(.epoch) else {
                throw .unexpected(atByte: start, expected: "a date such as 2024-06-15T10:30:00Z, not an epoch number")
            }
            return try parseEpoch(bytes, start, end)
        }
        guard forms.contains(.calendar) else { throw .unexpected(atByte: start, expected: "an epoch number") }
        var cursor = Cursor(bytes: bytes, index: start, end: end)
        return try cursor.parseCalendar()
    }

    static func parseResult(_ bytes: UnsafeBufferPointer<UInt8>, forms: Forms) -> Result<ParsedTimestamp, TimestampError> {
        do throws(TimestampError) { return .success(try parse(utf8: bytes, accepting: forms)) } catch { return .failure(error) }
    }

    @inline(__always) static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    /// Digits with at most one `.` after the first digit.
    static func isEpochShaped(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        guard isDigit(bytes[start]) else { return false }
        var sawPoint = false
        for index in (start + 1)..<end {
            let byte = bytes[index]
            if isDigit(byte) { continue }
            if byte == UInt8(ascii: "."), !sawPoint { sawPoint = true; continue }
            return false
        }
        return true
    }

    static func parseEpoch(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws(TimestampError) -> ParsedTimestamp {
        var index = start
        var integer: Int64 = 0
        while index < end, isDigit(bytes[index]) {
            // 16 digits already exceed the largest accepted value (milliseconds of the year 9999).
            guard index - start < 16 else { throw .epochOutOfRange }
            integer = integer * 10 + Int64(bytes[index] &- 0x30)
            index += 1
        }
        var nanoseconds = 0
        if index < end {  // the decimal point
            index += 1
            guard index < end else { throw .unexpected(atByte: index, expected: "a digit after the decimal point") }
            nanoseconds = try fractionNanoseconds(bytes, &index, end)
        }
        if integer >= epochMillisecondsThreshold {
            guard integer <= maximumSecondsSince1970 * 1000 + 999 else { throw .epochOutOfRange }
            return ParsedTimestamp(secondsSince1970: integer / 1000,
                                   nanoseconds: Int(integer % 1000) * 1_000_000 + nanoseconds / 1000,
                                   zone: .utc)
        }
        return ParsedTimestamp(secondsSince1970: integer, nanoseconds: nanoseconds, zone: .utc)
    }

    /// Reads 1–9 digits at `index` as a fraction of a second, in nanoseconds.
    static func fractionNanoseconds(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, _ end: Int) throws(TimestampError) -> Int {
        let first = index
        var value = 0
        while index < end, isDigit(bytes[index]) {
            guard index - first < 9 else { throw .tooManyFractionDigits(atByte: index) }
            value = value * 10 + Int(bytes[index] &- 0x30)
            index += 1
        }
        let count = index - first
        guard count > 0 else { throw .unexpected(atByte: index, expected: "a digit of the fraction of a second") }
        for _ in count..<9 { value *= 10 }
        return value
    }
}
