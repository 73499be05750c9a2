import Foundation
import Testing
import TravelogTestSupport
import TravelogFormats

@Suite("ISO 8601 UTC time formatting")
struct ISO8601TimeFormatterTests {
    static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()

    @Test("whole seconds from 1600 to 9999 read as Foundation's ISO 8601 format style writes them")
    func randomWholeSeconds() {
        var random = SplitMix64(seed: 23)
        let style = Date.ISO8601FormatStyle()  // UTC, "2024-03-01T12:00:00Z"
        var mismatches: [Int64] = []
        // 1600-01-01 … 9999-12-31, in seconds since 1970 (Foundation switches to the Julian
        // calendar before 1582, where the proleptic Gregorian dates rightly differ).
        for _ in 0..<50_000 {
            let seconds = Int64.random(in: -11_676_096_000...253_402_300_799, using: &random)
            let date = Date(timeIntervalSince1970: Double(seconds))
            if ISO8601TimeFormatter.string(date) != style.format(date) { mismatches.append(seconds) }
        }
        let mismatchCount = mismatches.count
        #expect(mismatchCount == 0, "first mismatches: \(mismatches.prefix(5))")
    }

    @Test("milliseconds are written when present and rounded to the nearest", arguments: [
        (1_709_294_400.0, "2024-03-01T12:00:00Z"),
        (1_709_294_400.123, "2024-03-01T12:00:00.123Z"),
        (1_709_294_400.5, "2024-03-01T12:00:00.500Z"),
        (1_709_294_400.0004, "2024-03-01T12:00:00Z"),
        (1_709_294_459.9996, "2024-03-01T12:01:00Z"),
        (951_782_400.0, "2000-02-29T00:00:00Z"),
        (-1.0, "1969-12-31T23:59:59Z"),
        (-0.001, "1969-12-31T23:59:59.999Z"),
        (0.0, "1970-01-01T00:00:00Z"),
        (253_402_300_799.999, "9999-12-31T23:59:59.999Z"),
        (253_402_300_800.0, "+10000-01-01T00:00:00Z"),
        (-62_167_219_200.0, "0000-01-01T00:00:00Z"),
        (-62_198_755_200.0, "-0001-01-01T00:00:00Z"),
    ])
    func examples(secondsSince1970: Double, expected: String) {
        #expect(ISO8601TimeFormatter.string(Date(timeIntervalSince1970: secondsSince1970)) == expected)
    }

    @Test("random milliseconds keep the date and time of their second and add the fraction")
    func randomMilliseconds() {
        var random = SplitMix64(seed: 31)
        let style = Date.ISO8601FormatStyle()
        for _ in 0..<20_000 {
            let milliseconds = Int64.random(in: 0...4_102_444_800_000, using: &random)  // 1970 … 2100
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let second = Date(timeIntervalSince1970: Double(milliseconds / 1000))
            let fraction = milliseconds % 1000
            let expected = fraction == 0 ? style.format(second)
                : style.format(second).dropLast() + "." + String(fraction + 1000).dropFirst() + "Z"
            #expect(ISO8601TimeFormatter.string(date) == expected)
        }
    }

    @Test("instants out of range are clamped, not a crash")
    func clamped() {
        #expect(ISO8601TimeFormatter.string(Date(timeIntervalSince1970: .nan)) == "1970-01-01T00:00:00Z")
        // ±2^53 ms: 104,249,991.37 days, 285,426.8 Gregorian years of 365.2425 days from 1970.
        #expect(ISO8601TimeFormatter.string(Date(timeIntervalSince1970: 1e300)) == "+287396-10-12T08:59:00.992Z")
        #expect(ISO8601TimeFormatter.string(Date(timeIntervalSince1970: -1e300)) == "-283457-03-21T15:00:59.008Z")
        #expect(ISO8601TimeFormatter.string(.distantFuture) == "4001-01-01T00:00:00Z")
    }

    @Test("local times with an offset read as Foundation's ISO 8601 formatter writes them in that zone")
    func randomOffsets() {
        var random = SplitMix64(seed: 41)
        // Offsets of real zones: whole hours, half hours (India), 45 minutes (Nepal), and UTC.
        let offsets = [0, 3600, -18_000, 19_800, 20_700, -12_600, 50_400, -39_600]
        var mismatches: [String] = []
        for _ in 0..<5_000 {
            let seconds = Double(Int64.random(in: 0...4_102_444_800, using: &random)) + Double.random(in: 0..<1, using: &random)
            let offset = offsets[Int.random(in: 0..<offsets.count, using: &random)]
            let date = Date(timeIntervalSince1970: seconds)
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime]
            formatter.timeZone = TimeZone(secondsFromGMT: offset)
            let ours = ISO8601TimeFormatter.string(date, utcOffsetSeconds: offset)
            if ours != formatter.string(from: date) { mismatches.append("\(ours) vs \(formatter.string(from: date))") }
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(3))")
    }
}
