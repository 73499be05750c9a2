import Foundation
import Testing
import TravelogCore
import TravelogFormats

@Suite("NMEA reader")
struct NMEAReaderTests {
    typealias Support = NMEATestSupport

    static func log(_ bodies: [String]) -> String {
        bodies.map { Support.sentence($0) + "\r\n" }.joined()
    }

    static func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Double) -> Date {
        let days = CivilDate.daysSince1970(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days) * 86_400 + Double(hour * 3600 + minute * 60) + second)
    }

    /// Whether two instants are within a microsecond: a `Date` is a double, and the same instant
    /// reached by different sums can differ in its last bit; NMEA times have at most milliseconds.
    static func same(_ lhs: Date, _ rhs: Date) -> Bool {
        abs(lhs.timeIntervalSince(rhs)) < 1e-6
    }

    static func gga(_ time: String, quality: Int = 1) -> String {
        "GPGGA,\(time),5013.476,N,01710.477,E,\(quality),09,0.8,468.770,M,0.0,M,,"
    }

    @Test("one epoch becomes one Location with every value the sentences give, in SI units")
    func location() throws {
        let text = Self.log([
            "GNRMC,150119.250,A,5104.0859,N,11405.7387,W,10.0,194.17,090322,,,D",
            "GNGGA,150119.250,5104.0859,N,11405.7387,W,2,8,0.94,1102.4,M,-17.5,M,,",
            "GNGSA,A,3,04,09,16,26,07,03,27,02,,,,,1.21,0.94,0.76",
            "GNGST,150119.250,004.0,008.7,004.7,132.3,006.8,007.2,00014",
        ])
        let records = try Support.records(text)
        let points = Support.points(records)
        #expect(points.count == 1)
        #expect(points.first?.kind == .track(track: 0, segment: 0))
        let location = try #require(Support.locations(records).first)
        #expect(Self.same(location.timestamp, Self.date(2022, 3, 9, 15, 1, 19.25)))
        let latitude: Double = 51 + 4.0859 / 60, longitude: Double = -(114 + 5.7387 / 60)
        #expect(location.coordinate.latitude == latitude)
        #expect(location.coordinate.longitude == longitude)
        #expect(location.altitudeMeters == 1102.4)
        let speed: Double = 10.0 * 1852 / 3600
        #expect(location.speedMetersPerSecond == speed)
        #expect(location.courseDegrees == 194.17)
        let accuracy: Double = (6.8 * 6.8 + 7.2 * 7.2).squareRoot()
        #expect(location.horizontalAccuracyMeters == accuracy)
        #expect(location.verticalAccuracyMeters == 14)
        #expect(location.utcOffsetSeconds == nil)
    }

    @Test("without GST, accuracy is DOP × the user-equivalent range error; a 2D fix has no vertical accuracy")
    func dopAccuracy() throws {
        let bodies = ["GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W",
                      "GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
                      "GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1"]
        let location = try #require(Support.locations(try Support.records(Self.log(bodies))).first)
        #expect(location.horizontalAccuracyMeters == 0.9 * NMEAEpoch.typicalUserEquivalentRangeErrorMeters)
        #expect(location.verticalAccuracyMeters == 2.1 * NMEAEpoch.typicalUserEquivalentRangeErrorMeters)
        let custom = try #require(Support.locations(try Support.records(Self.log(bodies), options: .init(userEquivalentRangeErrorMeters: 2))).first)
        #expect(custom.horizontalAccuracyMeters == 1.8)
        let twoD = bodies.dropLast() + ["GPGSA,A,2,04,05,,09,,,,,,,,,2.5,1.3,2.1"]
        let flat = try #require(Support.locations(try Support.records(Self.log(Array(twoD)))).first)
        #expect(flat.verticalAccuracyMeters < 0)
        let bare = try #require(Support.locations(try Support.records(Self.log(["GPRMC,123519,A,4807.038,N,01131.000,E,,,230394,,"]))).first)
        #expect(bare.horizontalAccuracyMeters < 0)
        #expect(bare.speedMetersPerSecond < 0)
        #expect(bare.courseDegrees < 0)
        #expect(bare.altitudeMeters == nil)
    }

    @Test("every talker gives the same fix, and talkers mix within an epoch",
          arguments: ["GP", "GN", "GL", "GA", "GB", "BD", "GQ", "GI", "IN"])
    func talkers(talker: String) throws {
        let text = Self.log(["\(talker)RMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W",
                             "GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"])
        let locations = Support.locations(try Support.records(text))
        #expect(locations.count == 1)
        #expect(locations.first?.coordinate.latitude == 48 + 7.038 / 60)
        #expect(locations.first?.altitudeMeters == 545.4)
        #expect(locations.first?.timestamp == Self.date(1994, 3, 23, 12, 35, 19))
    }

    @Test("epochs without a valid position are not points")
    func noFixNoPoint() throws {
        let records = try Support.records(Self.log([
            "GPRMC,095255.810,V,2712.6404,S,15303.1201,E,0.00,0.00,080407,,,A",
            Self.gga("095257.809", quality: 0),
            "GPGSA,A,1,,,,,,,,,,,,,0.0,0.0,0.0",
        ]))
        #expect(records.isEmpty)
    }

    @Test("a GGA-only log with a date option crosses midnight into the next day")
    func dateOption() throws {
        let text = Self.log([Self.gga("235958.000"), Self.gga("235959.000"), Self.gga("000000.000"), Self.gga("000001.500")])
        let locations = Support.locations(try Support.records(text, options: .init(date: CivilDate(year: 2019, month: 3, day: 8))))
        #expect(locations.map(\.timestamp) == [Self.date(2019, 3, 8, 23, 59, 58), Self.date(2019, 3, 8, 23, 59, 59),
                                               Self.date(2019, 3, 9, 0, 0, 0), Self.date(2019, 3, 9, 0, 0, 1.5)])
    }

    @Test("the log's own date takes over from the option")
    func streamDateWins() throws {
        let text = Self.log([Self.gga("120000"), "GPRMC,120001,A,5013.476,N,01710.477,E,0.1,,010120,,", Self.gga("120002")])
        let locations = Support.locations(try Support.records(text, options: .init(date: CivilDate(year: 2019, month: 3, day: 8))))
        #expect(locations.map(\.timestamp) == [Self.date(2019, 3, 8, 12, 0, 0), Self.date(2020, 1, 1, 12, 0, 1), Self.date(2020, 1, 1, 12, 0, 2)])
    }

    @Test("fixes before the first date wait for it and are dated back across midnight")
    func backFill() throws {
        let text = Self.log([Self.gga("235959"), Self.gga("000000"), "GPZDA,000001,09,03,2019,00,00", Self.gga("000002")])
        let records = try Support.records(text)
        #expect(Support.locations(records).map(\.timestamp) == [Self.date(2019, 3, 8, 23, 59, 59), Self.date(2019, 3, 9, 0, 0, 0),
                                                                Self.date(2019, 3, 9, 0, 0, 2)])
    }

    @Test("midnights crossed while waiting count even when the fix was lost in between")
    func backFillAcrossLostFix() throws {
        let text = Self.log([Self.gga("220000"), Self.gga("230000", quality: 0), Self.gga("000000", quality: 0),
                             Self.gga("060000"), "GPZDA,060001,09,03,2019,00,00"])
        let locations = Support.locations(try Support.records(text))
        #expect(locations.map(\.timestamp) == [Self.date(2019, 3, 8, 22, 0, 0), Self.date(2019, 3, 9, 6, 0, 0)])
    }

    @Test("without any date the fixes are untimed points, with their altitude")
    func untimed() throws {
        let points = Support.points(try Support.records(Self.log([Self.gga("120000"), Self.gga("120001")])))
        #expect(points.count == 2)
        for point in points {
            guard case .untimed(let coordinate, let altitude) = point.position else {
                Issue.record("a point without a date got a time")
                continue
            }
            let latitude: Double = 50 + 13.476 / 60
            #expect(coordinate.latitude == latitude)
            #expect(altitude == 468.77)
        }
    }

    @Test("the wait for a date is bounded: the oldest fixes leave untimed, in order")
    func heldBound() throws {
        let bodies = (0..<5).map { Self.gga("12000\($0)") } + ["GPZDA,120005,09,03,2019,00,00"]
        let points = Support.points(try Support.records(Self.log(bodies), options: .init(maximumHeldFixes: 2)))
        #expect(points.count == 5)
        #expect(points.prefix(3).allSatisfy { $0.position.location == nil })
        #expect(points.suffix(2).map { $0.position.location?.timestamp } == [Self.date(2019, 3, 9, 12, 0, 3), Self.date(2019, 3, 9, 12, 0, 4)])
    }

    @Test("GPS week rollover: dates are kept as written unless a cutoff is given")
    func rollover() throws {
        let text = "$GPRMC,000231.42,A,4829.0005,N,00022.0016,E,0.16,212.28,220899,,,A*59\n"
        let asWritten = try #require(Support.locations(try Support.records(text)).first)
        #expect(Self.same(asWritten.timestamp, Self.date(1999, 8, 22, 0, 2, 31.42)))
        let corrected = try #require(Support.locations(try Support.records(
            text, options: .init(gpsWeekRolloverCutoff: CivilDate(year: 2010, month: 1, day: 1)))).first)
        #expect(Self.same(corrected.timestamp, Self.date(2019, 4, 7, 0, 2, 31.42)))
    }

    @Test("a bad checksum rejects that sentence only, with where it is")
    func badChecksum() throws {
        let text = "# comment\n$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6B\n"
            + "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\n"
        let records = try Support.records(text)
        #expect(Support.rejections(records) == [RecordRejection(position: SourcePosition(byteOffset: 10, line: 2, column: 1),
                                                                reason: .badChecksum(expected: 0x6A, found: 0x6B))])
        let location = try #require(Support.locations(try Support.records(text, options: .init(date: CivilDate(year: 1994, month: 3, day: 23)))).first)
        #expect(location.timestamp == Self.date(1994, 3, 23, 12, 35, 19))
    }

    @Test("comments, gpsd JSON, blank lines, noise and other sentence types are skipped, not errors")
    func garbageLines() throws {
        let text = "# Name: test\n\n{\"class\":\"TPV\",\"mode\":3}\n\u{1}\u{2}\u{3}\u{7F}\n$GPGSV,1,1,00*79\n$PGRME,15.0,M,45.0,M,25.0,M*1C\n"
            + "!AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0*26\nGPGGA,not,a,sentence\n"
            + "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\n"
        let records = try Support.records(text)
        #expect(records.count == 1)
        #expect(Support.locations(records).count == 1)
    }

    @Test("UTF-16 with a BOM and any block boundary read the same", arguments: [1, 3, 17, 4096])
    func chunksAndEncodings(chunk: Int) throws {
        let text = Self.log(["GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W",
                             "GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
                             "GPRMC,123520,A,4807.039,N,01131.001,E,022.4,084.4,230394,003.1,W"])
        let utf8 = try Support.records(text, chunk: chunk)
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(try Support.records(utf16, chunk: chunk) == utf8)
        #expect(Support.locations(utf8).count == 2)
    }

    @Test("bytes consumed reach the input's length")
    func progress() throws {
        let bytes = Array(Self.log([Self.gga("120000"), Self.gga("120001")]).utf8)
        var reader = NMEAReader(source: MemoryByteSource(bytes))
        while try reader.next() != nil {}
        #expect(reader.bytesConsumed == bytes.count)
    }
}
