import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogTestSupport

/// Our fixes against GPSBabel's expected conversions of its NMEA reference inputs
/// (../shared/fixtures/gpsbabel/nmea).
@Suite("NMEA against GPSBabel's reference outputs", .enabled(if: SharedFixtures.available, SharedFixtures.absentReason))
struct NMEAGPSBabelFixtureTests {
    struct ExpectedPoint: Equatable {
        var latitude: Double
        var longitude: Double
        /// Milliseconds since 1970, UTC.
        var milliseconds: Int64
    }

    /// `unicsv,utc=0` rows: `No,Latitude,Longitude,…,Date,Time` with `YYYY/MM/DD` and `hh:mm:ss[.sss]`.
    static func expectedCSV(_ name: String) throws -> [ExpectedPoint] {
        let text = try String(decoding: Data(contentsOf: SharedFixtures.url("gpsbabel/nmea/" + name)), as: UTF8.self)
        var rows = text.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let header = rows.removeFirst().map(String.init)
        guard let latitude = header.firstIndex(of: "Latitude"), let longitude = header.firstIndex(of: "Longitude"),
              let date = header.firstIndex(of: "Date"), let time = header.firstIndex(of: "Time") else { return [] }
        return rows.compactMap { row in
            guard let lat = Double(row[latitude]), let lon = Double(row[longitude]),
                  let day = CivilDate(isoDate: row[date].replacingOccurrences(of: "/", with: "-")) else { return nil }
            let clock = row[time].split(separator: ":")
            guard clock.count == 3, let hours = Int64(clock[0]), let minutes = Int64(clock[1]),
                  let seconds = Double(clock[2]) else { return nil }
            let milliseconds = Int64(day.daysSince1970) * 86_400_000 + (hours * 3600 + minutes * 60) * 1000
                + Int64((seconds * 1000).rounded())
            return ExpectedPoint(latitude: lat, longitude: lon, milliseconds: milliseconds)
        }
    }

    /// The `trkpt`s of a GPX 1.0 file: `lat`, `lon` and `<time>` (ISO, UTC).
    static func expectedGPX(_ name: String) throws -> [ExpectedPoint] {
        let text = try String(decoding: Data(contentsOf: SharedFixtures.url("gpsbabel/nmea/" + name)), as: UTF8.self)
        let pattern = try NSRegularExpression(
            pattern: #"<trkpt lat="([-0-9.]+)" lon="([-0-9.]+)">.*?<time>(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):([0-9.]+)Z</time>"#,
            options: [.dotMatchesLineSeparators])
        let range = NSRange(text.startIndex..., in: text)
        return pattern.matches(in: text, range: range).compactMap { match in
            func group(_ index: Int) -> String { Range(match.range(at: index), in: text).map { String(text[$0]) } ?? "" }
            guard let lat = Double(group(1)), let lon = Double(group(2)), let day = CivilDate(isoDate: group(3)),
                  let hours = Int64(group(4)), let minutes = Int64(group(5)), let seconds = Double(group(6)) else { return nil }
            let milliseconds = Int64(day.daysSince1970) * 86_400_000 + (hours * 3600 + minutes * 60) * 1000
                + Int64((seconds * 1000).rounded())
            return ExpectedPoint(latitude: lat, longitude: lon, milliseconds: milliseconds)
        }
    }

    static func ours(_ name: String, options: NMEAReader.Options = .init()) throws -> [ExpectedPoint] {
        let records = try NMEATestSupport.records(file: SharedFixtures.url("gpsbabel/nmea/" + name), options: options)
        return NMEATestSupport.locations(records).map { location in
            ExpectedPoint(latitude: location.coordinate.latitude, longitude: location.coordinate.longitude,
                          milliseconds: Int64((location.timestamp.timeIntervalSince1970 * 1000).rounded()))
        }
    }

    /// Compares point by point: times exactly (to the millisecond GPSBabel writes), coordinates
    /// within half a unit of the last decimal GPSBabel prints.
    static func compare(_ ours: [ExpectedPoint], _ expected: [ExpectedPoint], decimals: Int) -> (matched: Int, mismatches: [String]) {
        let tolerance = 0.5 * pow(10, -Double(decimals)) + 1e-12
        var mismatches: [String] = []
        var matched = 0
        for (index, (mine, theirs)) in zip(ours, expected).enumerated() {
            if mine.milliseconds == theirs.milliseconds, abs(mine.latitude - theirs.latitude) <= tolerance,
               abs(mine.longitude - theirs.longitude) <= tolerance {
                matched += 1
            } else {
                mismatches.append("#\(index + 1): ours \(mine), GPSBabel \(theirs)")
            }
        }
        return (matched, mismatches)
    }

    @Test("a GGA-only log with the date given (adddate, GPSBabel `date=20190308`) is dated and crosses midnight")
    func addDate() throws {
        let expected = try Self.expectedCSV("adddate.expected.csv")
        let ours = try Self.ours("adddate.nmea", options: .init(date: CivilDate(year: 2019, month: 3, day: 8)))
        #expect(expected.count == 500)
        #expect(ours.count == expected.count)
        let (matched, mismatches) = Self.compare(ours, expected, decimals: 6)
        #expect(matched == 500, "\(mismatches.prefix(5))")
    }

    @Test("a GGA log dated only by a ZDA at its very end (backfilldate) is back-filled across midnight")
    func backfillDate() throws {
        let expected = try Self.expectedCSV("backfilldate.expected.csv")
        let ours = try Self.ours("backfilldate.nmea")
        #expect(ours.count == expected.count)
        let (matched, mismatches) = Self.compare(ours, expected, decimals: 6)
        #expect(matched == 500, "\(mismatches.prefix(5))")
    }

    /// Two differences, both GPSBabel's. It turns the malformed times `222515.x`, `222523.0x` and
    /// `.1` into midnight (its rows 9, 17 and 19); we reject those sentences, so those epochs give no
    /// point. And once it has seen a GGA, each RMC amends the point of the last GGA, time included
    /// (nmea.cc, `gprmc_parse`): in this log, where RMC comes before GGA, its row k carries the time
    /// of epoch k but the position of epoch k − 1 (row 1, from the first RMC, has no altitude).
    /// So times are compared row for row, positions one row later.
    @Test("fractional seconds of every length, and malformed times rejected (nmeadatetime)")
    func dateTime() throws {
        let expected = try Self.expectedCSV("nmeadatetime.expected.csv")
        #expect(expected.count == 19)
        let records = try NMEATestSupport.records(file: SharedFixtures.url("gpsbabel/nmea/nmeadatetime.nmea"))
        let rejected = NMEATestSupport.rejections(records).map(\.reason)
        #expect(rejected == [.invalidTime("222515.x"), .invalidTime("222515.x"), .invalidTime("222523.0x"),
                             .invalidTime("222523.0x"), .invalidTime(".1"), .invalidTime(".1")])
        let ours = try Self.ours("nmeadatetime.nmea")
        #expect(ours.count == 16)
        // Rows (1-based) whose time is well formed, and rows holding the position of a well-formed epoch.
        let timeRows = Array(1...8) + Array(10...16) + [18]
        let positionRows = Array(2...9) + Array(11...17) + [19]
        #expect(ours.map(\.milliseconds) == timeRows.map { expected[$0 - 1].milliseconds })
        let tolerance = 0.5e-6 + 1e-12  // GPSBabel prints 6 decimals
        for (mine, row) in zip(ours, positionRows) {
            #expect(abs(mine.latitude - expected[row - 1].latitude) <= tolerance, "row \(row)")
            #expect(abs(mine.longitude - expected[row - 1].longitude) <= tolerance, "row \(row)")
        }
        #expect(abs(ours[0].longitude - expected[0].longitude) <= tolerance)
    }

    @Test("a full GP log (RMC, GGA, GSA, GSV, VTG, ZDA, MSS) gives GPSBabel's track, in UTF-8 and UTF-16",
          arguments: ["nmea.txt", "nmea_utf16.txt"])
    func fullLog(name: String) throws {
        let expected = try Self.expectedGPX("nmea.expected.gpx")
        #expect(expected.count == 154)
        let ours = try Self.ours(name)
        #expect(ours.count == expected.count)
        let (matched, mismatches) = Self.compare(ours, expected, decimals: 9)
        #expect(matched == 154, "\(mismatches.prefix(5))")
    }
}
