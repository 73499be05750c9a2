import TravelogCore
import Foundation
import Testing
import TravelogTestSupport
import TravelogFormats

@Suite("TimestampParser")
struct TimestampParserTests {
    // Expected seconds computed with Python's calendar.timegm.
    @Test("calendar forms give the instant and the zone they were written with", arguments: [
        ("2024-06-15T10:30:00Z", Int64(1_718_447_400), 0, ParsedTimestamp.Zone.utc),
        ("2024-06-15T10:30:00.000Z", 1_718_447_400, 0, .utc),
        ("2024-06-15t10:30:00z", 1_718_447_400, 0, .utc),
        ("2024-06-15T10:30Z", 1_718_447_400, 0, .utc),
        ("2024-06-15T10:30:00.123456789Z", 1_718_447_400, 123_456_789, .utc),
        ("2024-06-15T10:30:00.1Z", 1_718_447_400, 100_000_000, .utc),
        ("2024-06-15T10:30:00,25Z", 1_718_447_400, 250_000_000, .utc),
        ("2024-06-15T12:30:00.5+02:00", 1_718_447_400, 500_000_000, .offset(seconds: 7200)),
        ("2024-06-15T12:30:00+0200", 1_718_447_400, 0, .offset(seconds: 7200)),
        ("2024-06-15T12:30:00+02", 1_718_447_400, 0, .offset(seconds: 7200)),
        ("2024-06-15T16:00:00+05:30", 1_718_447_400, 0, .offset(seconds: 19_800)),
        ("2024-12-02T11:00:00.000-08:00", 1_733_166_000, 0, .offset(seconds: -28_800)),
        ("2024-06-15T10:30:00-00:00", 1_718_447_400, 0, .utc),
        ("2024-06-15T10:30:00+00:00", 1_718_447_400, 0, .offset(seconds: 0)),
        ("2024-06-15 10:30:00", 1_718_447_400, 0, .unspecified),
        ("2024-06-15  10:30:00", 1_718_447_400, 0, .unspecified),
        ("2024-06-15 10:30:00 UTC", 1_718_447_400, 0, .utc),
        ("2024-06-15 10:30:00 gmt", 1_718_447_400, 0, .utc),
        ("  2024-06-15T10:30:00Z\t", 1_718_447_400, 0, .utc),
        ("2025-06-01 13:02:03.000000 +00:00", 1_748_782_923, 0, .offset(seconds: 0)),
        ("2025-06-01 13:02:03.056000 +00:00", 1_748_782_923, 56_000_000, .offset(seconds: 0)),
        ("2011/08/27 06:13:01", 1_314_425_581, 0, .unspecified),
        ("2024-02-29T12:00:00Z", 1_709_208_000, 0, .utc),
        ("2000-02-29T00:00:00Z", 951_782_400, 0, .utc),
        ("1900-03-01T00:00:00Z", -2_203_891_200, 0, .utc),
        ("1969-12-31T23:59:59.75Z", -1, 750_000_000, .utc),
        ("0000-03-01T00:00:00Z", -62_162_035_200, 0, .utc),
        ("0001-01-01T00:00:00Z", -62_135_596_800, 0, .utc),
        ("9999-12-31T23:59:59Z", 253_402_300_799, 0, .utc),
        // A leap second counts as the first second of the next day (POSIX).
        ("2016-12-31T23:59:60Z", 1_483_228_800, 0, .utc),
        ("2017-01-01T00:59:60.5+01:00", 1_483_228_800, 500_000_000, .offset(seconds: 3600)),
    ])
    func calendar(text: String, seconds: Int64, nanoseconds: Int, zone: ParsedTimestamp.Zone) throws {
        let parsed = try TimestampParser.parse(text)
        #expect(parsed == ParsedTimestamp(secondsSince1970: seconds, nanoseconds: nanoseconds, zone: zone))
    }

    @Test("epoch numbers are seconds below 2^31 − 1 and milliseconds from there up", arguments: [
        ("1718444200", Int64(1_718_444_200), 0),
        ("1718444200.25", 1_718_444_200, 250_000_000),
        ("1718444200123", 1_718_444_200, 123_000_000),
        ("1718444200123.5", 1_718_444_200, 123_500_000),
        ("2147483646", 2_147_483_646, 0),
        ("2147483647", 2_147_483, 647_000_000),
        ("0", 0, 0),
        (" 42 ", 42, 0),
        ("253402300799999", 253_402_300_799, 999_000_000),
    ])
    func epoch(text: String, seconds: Int64, nanoseconds: Int) throws {
        #expect(try TimestampParser.parse(text) == ParsedTimestamp(secondsSince1970: seconds, nanoseconds: nanoseconds, zone: .utc))
    }

    @Test("impossible values are errors, never rolled over", arguments: [
        ("2024-13-01T00:00:00Z", TimestampError.outOfRange(.month, value: 13)),
        ("2024-00-10T00:00:00Z", .outOfRange(.month, value: 0)),
        ("2024-06-00T00:00:00Z", .outOfRange(.day, value: 0)),
        ("2023-02-29T00:00:00Z", .outOfRange(.day, value: 29)),
        ("2024-02-30T00:00:00Z", .outOfRange(.day, value: 30)),
        ("1900-02-29T00:00:00Z", .outOfRange(.day, value: 29)),
        ("2024-04-31T00:00:00Z", .outOfRange(.day, value: 31)),
        ("2024-06-15T25:00:00Z", .outOfRange(.hour, value: 25)),
        ("2024-06-15T24:00:00Z", .outOfRange(.hour, value: 24)),
        ("2024-06-15T10:60:00Z", .outOfRange(.minute, value: 60)),
        ("2024-06-15T10:30:61Z", .outOfRange(.second, value: 61)),
        ("2024-06-15T10:30:60Z", .outOfRange(.second, value: 60)),
        ("2016-12-31T23:59:60+01:00", .outOfRange(.second, value: 60)),
        ("2024-06-15T10:30:00+24:00", .outOfRange(.offsetHours, value: 24)),
        ("2024-06-15T10:30:00+02:60", .outOfRange(.offsetMinutes, value: 60)),
    ])
    func impossible(text: String, error: TimestampError) {
        #expect(throws: error) { try TimestampParser.parse(text) }
    }

    @Test("malformed text says what was expected and at which byte", arguments: [
        ("", TimestampError.empty),
        ("  \t ", .empty),
        ("2024-06-15T10:30:00.1234567890Z", .tooManyFractionDigits(atByte: 29)),
        ("2024-06-15T10:30:00.Z", .unexpected(atByte: 20, expected: "a digit of the fraction of a second")),
        ("2024-06-15", .unexpected(atByte: 10, expected: "'T' or a space, then the time of day")),
        ("2024-06-15X10:30", .unexpected(atByte: 10, expected: "'T' or a space, then the time of day")),
        ("24-06-15T10:30:00Z", .unexpected(atByte: 2, expected: "a four-digit year")),
        ("2024.06.15T10:30:00Z", .unexpected(atByte: 4, expected: "'-' after the year")),
        ("2024-6-15T10:30:00Z", .unexpected(atByte: 6, expected: "a two-digit month")),
        ("2024-06/15T10:30:00Z", .unexpected(atByte: 7, expected: "'-' after the month")),
        ("2024-06-15T1:30:00Z", .unexpected(atByte: 12, expected: "a two-digit hour")),
        ("2024-06-15T10-30", .unexpected(atByte: 13, expected: "':' after the hour")),
        ("2024-06-15T10:30:00 PST", .unexpected(atByte: 20, expected: "a zone (Z, ±hh:mm) or the end of the time")),
        ("2024-06-15T10:30:00Zjunk", .unexpected(atByte: 20, expected: "the end of the time")),
        ("2024-06-15T10:30:00+2", .unexpected(atByte: 21, expected: "two-digit offset hours")),
        ("2024-06-15T10:30:00+02:3", .unexpected(atByte: 24, expected: "two-digit offset minutes")),
        ("hello", .unexpected(atByte: 0, expected: "a four-digit year")),
        ("-1718444200", .unexpected(atByte: 0, expected: "a four-digit year")),
        ("1718444200.", .unexpected(atByte: 11, expected: "a digit after the decimal point")),
        ("1718444200.1234567891", .tooManyFractionDigits(atByte: 20)),
        ("99999999999999999", .epochOutOfRange),
        ("253402300800000", .epochOutOfRange),
    ])
    func malformed(text: String, error: TimestampError) {
        #expect(throws: error) { try TimestampParser.parse(text) }
    }

    @Test("a caller can accept only calendar dates or only epoch numbers")
    func forms() throws {
        #expect(throws: TimestampError.unexpected(atByte: 0, expected: "a date such as 2024-06-15T10:30:00Z, not an epoch number")) {
            try TimestampParser.parse("1718444200", accepting: .calendar)
        }
        #expect(throws: TimestampError.unexpected(atByte: 0, expected: "an epoch number")) {
            try TimestampParser.parse("2024-06-15T10:30:00Z", accepting: .epoch)
        }
        #expect(try TimestampParser.parse("1718444200", accepting: .epoch).secondsSince1970 == 1_718_444_200)
    }

    @Test("bytes, slices and substrings parse alike")
    func inputs() throws {
        let text = "x,2024-06-15T10:30:00Z,y"
        let bytes = Array(text.utf8)
        let expected = ParsedTimestamp(secondsSince1970: 1_718_447_400, zone: .utc)
        #expect(try TimestampParser.parse(utf8: bytes[2..<22]) == expected)
        #expect(try TimestampParser.parse(text.dropFirst(2).dropLast(2)) == expected)
        #expect(try bytes.withUnsafeBufferPointer { try TimestampParser.parse(utf8: UnsafeBufferPointer(rebasing: $0[2..<22])) } == expected)
    }

    @Test("the offset kept for a Location is the written numeric one")
    func utcOffset() throws {
        #expect(try TimestampParser.parse("2024-06-15T10:30:00Z").utcOffsetSeconds == nil)
        #expect(try TimestampParser.parse("2024-06-15 10:30:00").utcOffsetSeconds == nil)
        #expect(try TimestampParser.parse("1718444200").utcOffsetSeconds == nil)
        #expect(try TimestampParser.parse("2024-06-15T10:30:00+00:00").utcOffsetSeconds == 0)
        #expect(try TimestampParser.parse("2024-12-02T11:00:00.000-08:00").utcOffsetSeconds == -28_800)
        #expect(try TimestampParser.parse("2024-06-15T10:30:00-03:30").utcOffsetSeconds == -12_600)
    }

    @Test("the Date is the instant to well under a microsecond")
    func date() throws {
        let parsed = try TimestampParser.parse("2024-06-15T10:30:00.123456Z")
        // A Double of seconds since 2001 resolves about 0.03 µs in 2024.
        #expect(abs(parsed.date.timeIntervalSince1970 - 1_718_447_400.123456) < 1e-6)
        #expect(try TimestampParser.parse("1970-01-01T00:00:00Z").date == Date(timeIntervalSince1970: 0))
        #expect(try TimestampParser.parse("2001-01-01T00:00:00Z").date == Date(timeIntervalSinceReferenceDate: 0))
    }

    @Test("every day from 1600 to 2400 agrees with Foundation's Gregorian calendar")
    func againstFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        var day = try #require(calendar.date(from: DateComponents(year: 1600, month: 1, day: 1)))
        let end = try #require(calendar.date(from: DateComponents(year: 2400, month: 12, day: 31)))
        var mismatches = 0
        // Foundation counts days itself; stepping by 86 400 s keeps the test independent of it
        // except for the components it reports.
        while day <= end {
            let parts = calendar.dateComponents([.year, .month, .day], from: day)
            guard let year = parts.year, let month = parts.month, let dayOfMonth = parts.day else { break }
            let days = CivilDate.daysSince1970(year: year, month: month, day: dayOfMonth)
            if Double(days) * 86_400 != day.timeIntervalSince1970 { mismatches += 1 }
            day += 86_400
        }
        #expect(mismatches == 0)
    }

    @Test("random timestamps written by ISO8601DateFormatter read back to the same millisecond")
    func randomRoundTrip() throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var generator = SplitMix64(seed: 0x7EA7_E106)
        for _ in 0..<2000 {
            // 1900 … 2100, whole milliseconds, an offset of whole quarter hours.
            let milliseconds = Int64(generator.next() % 6_311_433_600_000) - 2_208_988_800_000
            let offsetSeconds = (Int(generator.next() % 105) - 48) * 900
            formatter.timeZone = TimeZone(secondsFromGMT: offsetSeconds)
            let text = formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
            let parsed = try TimestampParser.parse(text)
            let parsedMilliseconds = parsed.secondsSince1970 * 1000 + Int64(parsed.nanoseconds / 1_000_000)
            #expect(parsedMilliseconds == milliseconds, "\(text)")
        }
    }

    @Test("CivilDateTime checks its fields and counts seconds like the parser")
    func civil() throws {
        let time = try CivilDateTime(year: 2008, month: 10, day: 23, hour: 2, minute: 53, second: 4)
        #expect(time.secondsSince1970 == 1_224_730_384)
        #expect(throws: TimestampError.outOfRange(.day, value: 29)) { try CivilDateTime(year: 2100, month: 2, day: 29) }
        #expect(throws: TimestampError.outOfRange(.year, value: 10_000)) { try CivilDateTime(year: 10_000, month: 1, day: 1) }
        #expect(throws: TimestampError.outOfRange(.nanosecond, value: 1_000_000_000)) {
            try CivilDateTime(year: 2000, month: 1, day: 1, nanosecond: 1_000_000_000)
        }
        #expect(CivilDate.isLeapYear(2000) && !CivilDate.isLeapYear(1900) && CivilDate.isLeapYear(2024))
    }
}

