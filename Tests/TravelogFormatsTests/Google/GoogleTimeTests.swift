import Foundation
import Testing
@testable import TravelogFormats

@Suite("GoogleTime: the times Google's exports are written with")
struct GoogleTimeTests {
    static func parse(_ text: String, unit: GoogleTime.EpochUnit = .automatic) -> GoogleTime.Instant? {
        Array(text.utf8).withUnsafeBufferPointer { GoogleTime.parse($0, unit: unit) }
    }

    @Test("ISO 8601 times read to the millisecond, keeping the offset they were written with", arguments: [
        ("2013-04-15T06:31:26.860Z", 1_366_007_486.860, nil as Int?),
        ("2012-12-15T14:21:29.460Z", 1_355_581_289.460, nil),
        ("2017-05-02T11:40:00+10:00", 1_493_689_200, 36_000),
        ("2023-08-27T17:04:26.999-05:00", 1_693_173_866.999, -18_000),
        ("2025-03-24T20:25:02+01:00", 1_742_844_302, 3600),
        ("2025-03-24 20:07:24 +0100", 1_742_843_244, 3600),
        ("2024-01-01T10:00:00Z", 1_704_103_200, nil),
        ("2024-01-01T10:00:00.5Z", 1_704_103_200.5, nil),
        ("2024-01-01T10:00:00.50Z", 1_704_103_200.5, nil),
        ("2024-01-01T10:00:00+00:00", 1_704_103_200, 0),
        ("2024-01-01T10:00:00+0530", 1_704_083_400, 19_800),
        ("2024-01-01T10:00:00-03", 1_704_114_000, -10_800),
        ("2024-01-01T10:00Z", 1_704_103_200, nil),
        ("2024-01-01T10:00:00", 1_704_103_200, nil),
        ("2024-02-29T00:00:00Z", 1_709_164_800, nil),
        ("1969-12-31T23:59:59Z", -1, nil),
    ])
    func iso(text: String, seconds: Double, offset: Int?) {
        let instant = Self.parse(text)
        #expect(instant?.date == Date(timeIntervalSince1970: seconds), "\(text)")
        #expect(instant?.utcOffsetSeconds == offset, "\(text)")
    }

    @Test("a seventh fraction digit still counts, and milliseconds stay exact")
    func longFractions() throws {
        let instant = try #require(Self.parse("2024-01-01T10:00:00.1234567Z"))
        // Whole milliseconds through one division, the rest added: within a Double's step at 1.7e9 s.
        #expect(abs(instant.date.timeIntervalSince1970 - 1_704_103_200.1234567) < 1e-6)
        #expect(Self.parse("2024-01-01T10:00:00.860000Z")?.date == Self.parse("2024-01-01T10:00:00.860Z")?.date)
    }

    @Test("epoch digits: 12 or more are milliseconds, fewer seconds, unless the unit says milliseconds", arguments: [
        ("1742844302585", GoogleTime.EpochUnit.automatic, 1_742_844_302.585),
        ("1742844232", .automatic, 1_742_844_232),
        ("1355581289460", .milliseconds, 1_355_581_289.460),
        ("86400000", .milliseconds, 86_400),
        ("86400000", .automatic, 86_400_000),
    ])
    func epoch(text: String, unit: GoogleTime.EpochUnit, seconds: Double) {
        let instant = Self.parse(text, unit: unit)
        #expect(instant?.date == Date(timeIntervalSince1970: seconds))
        #expect(instant?.utcOffsetSeconds == nil)
    }

    @Test("times that cannot be are not times", arguments: [
        "", "2013-13-01T00:00:00Z", "2013-02-29T00:00:00Z", "2013-04-31T00:00:00Z", "2013-04-15T24:00:00Z",
        "2013-04-15T23:60:00Z", "2013-04-15T23:59:61Z", "2013-04-15T06:31:26.Z", "2013-04-15", "2013-04-15T06",
        "2013-04-15T06:31:26+25:00", "2013-04-15T06:31:26+05:61", "2013-04-15T06:31:26Zjunk", "yesterday",
        "12345678901234567", "17428443O2585",
    ])
    func invalid(text: String) {
        #expect(Self.parse(text) == nil, "\(text)")
    }

    @Test("a leap second reads as the first second of the next minute")
    func leapSecond() {
        #expect(Self.parse("2016-12-31T23:59:60Z")?.date == Self.parse("2017-01-01T00:00:00Z")?.date)
    }

    @Test("epoch numbers from JSON follow the same rule")
    func epochNumbers() {
        #expect(GoogleTime.instant(epoch: 1_742_844_302_585, unit: .automatic)?.date == Date(timeIntervalSince1970: 1_742_844_302.585))
        #expect(GoogleTime.instant(epoch: 1_742_844_232, unit: .automatic)?.date == Date(timeIntervalSince1970: 1_742_844_232))
        #expect(GoogleTime.instant(epoch: .infinity, unit: .automatic) == nil)
    }
}
