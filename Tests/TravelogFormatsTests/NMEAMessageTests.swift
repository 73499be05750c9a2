import Testing
import TravelogCore
import TravelogFormats

@Suite("NMEA sentence types")
struct NMEAMessageTests {
    static func decode(_ text: String) throws -> NMEAMessage? {
        guard case .sentence(let sentence) = NMEASentence.parse(Array(text.utf8)).result else { return nil }
        return try NMEAMessage(sentence)
    }

    static func time(_ hour: Int, _ minute: Int, _ second: Int, nanoseconds: Int64 = 0) -> NMEATimeOfDay? {
        NMEATimeOfDay(hour: hour, minute: minute, second: second, nanoseconds: nanoseconds)
    }

    @Test("GGA: time, position, quality, satellites, HDOP, altitude and geoid separation")
    func gga() throws {
        guard case .gga(let gga)? = try Self.decode("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47") else {
            Issue.record("not decoded as GGA")
            return
        }
        #expect(gga.timeOfDay == Self.time(12, 35, 19))
        // 48° 07.038′ = 48 + 7.038/60; the minutes are parsed on their own, so this is the nearest double.
        #expect(gga.position?.coordinate.latitude == 48 + 7.038 / 60)
        #expect(gga.position?.coordinate.longitude == 11 + 31.0 / 60)
        #expect(gga.position?.minuteDecimals == 3)
        #expect(gga.quality == 1)
        #expect(gga.satellitesUsed == 8)
        #expect(gga.horizontalDilution == 0.9)
        #expect(gga.altitudeMSLMeters == 545.4)
        #expect(gga.geoidSeparationMeters == 46.9)
        #expect(gga.fixReport == .fix)
    }

    @Test("GGA quality 0 (invalid), 7 (manual) and 8 (simulator) are not fixes; 1–6 are", arguments: 0...8)
    func ggaQuality(quality: Int) throws {
        let text = NMEATestSupport.sentence("GNGGA,000001.00,5013.476,S,01710.477,W,\(quality),09,0.8,468.770,M,0.0,M,,")
        guard case .gga(let gga)? = try Self.decode(text) else {
            Issue.record("not decoded")
            return
        }
        let isFix = (1...6).contains(quality)
        #expect(gga.fixReport == (isFix ? .fix : .noFix))
        #expect((gga.position != nil) == isFix)
        if isFix {
            #expect(gga.position?.coordinate.latitude == -(50 + 13.476 / 60))
            #expect(gga.position?.coordinate.longitude == -(17 + 10.477 / 60))
        }
    }

    @Test("GGA altitude in feet is converted to metres")
    func ggaFeet() throws {
        guard case .gga(let gga)? = try Self.decode(NMEATestSupport.sentence("GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,1000,F,46.9,M,,")) else {
            Issue.record("not decoded")
            return
        }
        #expect(gga.altitudeMSLMeters == Units.meters(feet: 1000))
    }

    @Test("RMC: status, speed in knots, course, date ddmmyy, magnetic variation (west negative), mode")
    func rmc() throws {
        guard case .rmc(let rmc)? = try Self.decode("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A") else {
            Issue.record("not decoded as RMC")
            return
        }
        #expect(rmc.fixReport == .fix)
        #expect(rmc.speedKnots == 22.4)
        #expect(rmc.courseDegrees == 84.4)
        #expect(rmc.date == CivilDate(year: 1994, month: 3, day: 23))
        #expect(rmc.magneticVariationDegrees == -3.1)
        #expect(rmc.mode == nil)
        #expect(rmc.position?.coordinate.latitude == 48 + 7.038 / 60)
    }

    @Test("RMC status V, or mode N, M or S, is no fix and gives no position",
          arguments: ["V,4807.038,N,01131.000,E,0.1,,230394,,,A", "A,4807.038,N,01131.000,E,0.1,,230394,,,N",
                      "A,4807.038,N,01131.000,E,0.1,,230394,,,S", "A,4807.038,N,01131.000,E,0.1,,230394,,,M"])
    func rmcNoFix(fields: String) throws {
        guard case .rmc(let rmc)? = try Self.decode(NMEATestSupport.sentence("GPRMC,123519," + fields)) else {
            Issue.record("not decoded")
            return
        }
        #expect(rmc.fixReport == .noFix)
        #expect(rmc.position == nil)
        #expect(rmc.date == CivilDate(year: 1994, month: 3, day: 23))
    }

    @Test("two-digit years 80–99 are 19xx and 00–79 are 20xx; a week-rollover date '2208-1' is no date",
          arguments: [("220899", CivilDate(year: 1999, month: 8, day: 22)), ("010180", CivilDate(year: 1980, month: 1, day: 1)),
                      ("311279", CivilDate(year: 2079, month: 12, day: 31)), ("2208-1", nil), ("300219", nil), ("", nil)])
    func rmcDates(field: String, date: CivilDate?) throws {
        guard case .rmc(let rmc)? = try Self.decode(NMEATestSupport.sentence("GPRMC,000231.42,A,4829.0005,N,00022.0016,E,0.16,212.28,\(field),,,A")) else {
            Issue.record("not decoded")
            return
        }
        #expect(rmc.date == date)
        #expect(rmc.fixReport == .fix)
    }

    @Test("GLL: position, time, status and mode; NMEA 1.5 GLL without status is a fix")
    func gll() throws {
        guard case .gll(let gll)? = try Self.decode("$GPGLL,4916.45,N,12311.12,W,225444,A,*1D") else {
            Issue.record("not decoded as GLL")
            return
        }
        #expect(gll.timeOfDay == Self.time(22, 54, 44))
        #expect(gll.position?.coordinate.longitude == -(123 + 11.12 / 60))
        #expect(gll.fixReport == .fix)
        guard case .gll(let old)? = try Self.decode(NMEATestSupport.sentence("GPGLL,4916.45,N,12311.12,W")) else {
            Issue.record("NMEA 1.5 GLL not decoded")
            return
        }
        #expect(old.fixReport == .fix)
        #expect(old.timeOfDay == nil)
        guard case .gll(let void)? = try Self.decode("$GPGLL,,,,,,V,N*64") else {
            Issue.record("empty GLL not decoded")
            return
        }
        #expect(void.fixReport == .noFix)
    }

    @Test("VTG: true and magnetic course, knots and km/h; the NMEA 1.5 form without unit letters too")
    func vtg() throws {
        guard case .vtg(let vtg)? = try Self.decode("$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K*48") else {
            Issue.record("not decoded as VTG")
            return
        }
        #expect(vtg.courseDegrees == 54.7)
        #expect(vtg.magneticCourseDegrees == 34.4)
        #expect(vtg.speedKnots == 5.5)
        #expect(vtg.speedKilometersPerHour == 10.2)
        guard case .vtg(let old)? = try Self.decode(NMEATestSupport.sentence("GPVTG,054.7,034.4,005.5,010.2")) else {
            Issue.record("NMEA 1.5 VTG not decoded")
            return
        }
        #expect(old == vtg.with(mode: nil))
    }

    @Test("GSA: fix mode, satellites, PDOP, HDOP, VDOP and the NMEA 4.11 system id")
    func gsa() throws {
        guard case .gsa(let gsa)? = try Self.decode("$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39") else {
            Issue.record("not decoded as GSA")
            return
        }
        #expect(gsa.fixMode == 3)
        #expect(gsa.satellites == [4, 5, 9, 12, 24])
        #expect(gsa.positionDilution == 2.5)
        #expect(gsa.horizontalDilution == 1.3)
        #expect(gsa.verticalDilution == 2.1)
        #expect(gsa.systemID == nil)
        guard case .gsa(let multi)? = try Self.decode("$GNGSA,A,2,65,66,73,81,82,,,,,,,,1.6,1.3,0.9,2*3B") else {
            Issue.record("GNGSA not decoded")
            return
        }
        #expect(multi.systemID == 2)
        #expect(multi.fixMode == 2)
    }

    @Test("GST: 1σ errors of latitude, longitude and altitude in metres")
    func gst() throws {
        guard case .gst(let gst)? = try Self.decode("$GPGST,150119.000,004.0,008.7,004.7,132.3,006.8,007.2,00014*71") else {
            Issue.record("not decoded as GST")
            return
        }
        #expect(gst.timeOfDay == Self.time(15, 1, 19))
        #expect(gst.rangeRMSMeters == 4)
        #expect(gst.semiMajorSigmaMeters == 8.7)
        #expect(gst.orientationDegrees == 132.3)
        #expect(gst.latitudeSigmaMeters == 6.8)
        #expect(gst.longitudeSigmaMeters == 7.2)
        #expect(gst.altitudeSigmaMeters == 14)
    }

    @Test("GNS: a fix when any constellation's mode has one; all N is none")
    func gns() throws {
        guard case .gns(let gns)? = try Self.decode("$GNGNS,043539.00,4333.190206,N,00127.618380,E,AAAAN,14,1.3,250.8,50.0,,,V*62") else {
            Issue.record("not decoded as GNS")
            return
        }
        #expect(gns.fixReport == .fix)
        #expect(gns.modes == "AAAAN")
        #expect(gns.satellitesUsed == 14)
        #expect(gns.altitudeMSLMeters == 250.8)
        #expect(gns.position?.minuteDecimals == 6)
        guard case .gns(let none)? = try Self.decode("$GNGNS,074150.799,,,,,NNNN,00,,,0.0,,0000*63") else {
            Issue.record("empty GNS not decoded")
            return
        }
        #expect(none.fixReport == .noFix)
    }

    @Test("ZDA: time and full date; empty fields give neither")
    func zda() throws {
        guard case .zda(let zda)? = try Self.decode("$GPZDA,201530.00,04,07,2002,00,00*60") else {
            Issue.record("not decoded as ZDA")
            return
        }
        #expect(zda.timeOfDay == Self.time(20, 15, 30))
        #expect(zda.date == CivilDate(year: 2002, month: 7, day: 4))
        #expect(zda.localZoneHours == 0)
        guard case .zda(let empty)? = try Self.decode("$GPZDA,,,,,00,00*48") else {
            Issue.record("empty ZDA not decoded")
            return
        }
        #expect(empty.timeOfDay == nil)
        #expect(empty.date == nil)
    }

    @Test("times keep every fraction digit up to the nanosecond; equal instants are equal", arguments: [
        ("222509", Int64(0)), ("222509.", 0), ("222509.1", 100_000_000), ("222509.01", 10_000_000),
        ("222509.001", 1_000_000), ("222509.0009", 900_000), ("222509.123456789123", 123_456_789),
    ])
    func fractions(field: String, nanoseconds: Int64) throws {
        let message = try Self.decode(NMEATestSupport.sentence("GPGGA,\(field),4249.96542,S,14726.73195,E,1,09,0.96,30.0,M,-8.8,M,,"))
        #expect(message?.timeOfDay == Self.time(22, 25, 9, nanoseconds: nanoseconds))
    }

    @Test("a malformed time rejects the sentence", arguments: ["222515.x", "222523.0x", ".1", "2225", "246000", "226100", "22:25:15"])
    func malformedTime(field: String) {
        #expect(throws: NMEADecodingError(.invalidTime(field))) {
            try Self.decode(NMEATestSupport.sentence("GPGGA,\(field),4249.96551,S,14726.73171,E,1,09,0.96,30.2,M,-8.8,M,,"))
        }
    }

    @Test("a fix with a malformed or impossible position is rejected with the reason", arguments: [
        ("48x7.038,N,01131.000,E", RecordRejection.Reason.invalidValue(field: "latitude", value: "48x7.038")),
        ("4807.038,Q,01131.000,E", .invalidValue(field: "latitude hemisphere", value: "Q")),
        ("4807.038,,01131.000,E", .missingField("latitude hemisphere")),
        ("4860.000,N,01131.000,E", .invalidValue(field: "latitude", value: "4860.000")),
        ("9100.000,N,01131.000,E", .invalidCoordinate(.latitudeOutOfRange(91))),
        ("4807.038,N,18100.000,E", .invalidValue(field: "longitude", value: "18100.000")),
        ("4807.038,N,,E", .missingField("longitude")),
        (",,,", .missingField("latitude")),
    ])
    func malformedPosition(fields: String, reason: RecordRejection.Reason) {
        #expect(throws: NMEADecodingError(reason)) {
            try Self.decode(NMEATestSupport.sentence("GPGGA,123519,\(fields),1,08,0.9,545.4,M,46.9,M,,"))
        }
    }

    @Test("a sentence without a fix is not checked for a position (tn200: 36000.0000,N)")
    func noFixPositionIgnored() throws {
        let message = try Self.decode("$GPRMC,000452.981,V,36000.0000,N,72000.0000,E,0.000000,,190120,,*32")
        #expect(message?.fixReport == .noFix)
    }

    @Test("a fix without a time is rejected")
    func fixWithoutTime() {
        #expect(throws: NMEADecodingError(.missingField("time"))) {
            try Self.decode(NMEATestSupport.sentence("GPRMC,,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W"))
        }
    }

    @Test("malformed auxiliary values read as unknown, not as errors")
    func lenientAuxiliary() throws {
        guard case .gga(let gga)? = try Self.decode(NMEATestSupport.sentence("GPGGA,123519,4807.038,N,01131.000,E,1,x8,0..9,5-45.4,M,,M,,")) else {
            Issue.record("not decoded")
            return
        }
        #expect(gga.satellitesUsed == nil)
        #expect(gga.horizontalDilution == nil)
        #expect(gga.altitudeMSLMeters == nil)
        #expect(gga.fixReport == .fix)
    }

    @Test("other types and proprietary sentences are not decoded", arguments: [
        "$GPGSV,1,1,00*79", "$PGRME,15.0,M,45.0,M,25.0,M*1C", "$GPTXT,01,01,02,ANTSTATUS=OK*3B", "$GPBOD,,T,,M,,*",
    ])
    func otherTypes(text: String) throws {
        #expect(try Self.decode(text) == nil)
    }
}

extension NMEAMessage.VTG {
    fileprivate func with(mode: Unicode.Scalar?) -> NMEAMessage.VTG {
        var copy = self
        copy.mode = mode
        return copy
    }
}
