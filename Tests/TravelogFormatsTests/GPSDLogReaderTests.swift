import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogTestSupport

@Suite("gpsd JSON logs (gpspipe -w) and mixed captures")
struct GPSDLogReaderTests {
    static func records(_ text: String) throws -> [FormatRecord] {
        var reader = GPSDLogReader(source: MemoryByteSource(Array(text.utf8)))
        var records: [FormatRecord] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }

    static let log = """
        {"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}
        {"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyUSB0","driver":"NMEA0183","activated":"2026-03-01T10:00:00.000Z","flags":1,"native":0,"bps":4800,"parity":"N","stopbits":1,"cycle":1.00}]}
        {"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,"timing":false,"split24":false,"pps":false}
        {"class":"TPV","device":"/dev/ttyUSB0","mode":1,"time":"2026-03-01T10:00:00.000Z"}
        {"class":"TPV","device":"/dev/ttyUSB0","status":2,"mode":3,"time":"2026-03-01T10:00:01.000Z","lat":46.500000001,"lon":6.600000002,"altHAE":420.5,"altMSL":372.1,"track":91.5,"speed":1.25,"eph":4.2,"epv":7.1,"eps":0.5,"epd":12.0}
        {"class":"SKY","device":"/dev/ttyUSB0","hdop":0.9,"nSat":12,"uSat":9,"satellites":[{"PRN":1,"el":40,"az":100,"ss":30,"used":true}]}
        {"class":"TPV","device":"/dev/ttyUSB0","mode":2,"time":"2026-03-01T10:00:02.000Z","lat":46.5001,"lon":6.6001,"epx":3.0,"epy":5.0,"alt":371.0}
        {"class":"TPV","device":"/dev/ttyUSB0","mode":1,"time":"2026-03-01T10:00:03.000Z"}
        {"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2026-03-01T10:00:04.000Z","lat":46.5002,"lon":6.6002}
        """

    @Test("a TPV with a 2D or 3D fix, a time and a position is a fix: eph, else the larger of epx/epy, is its accuracy")
    func tpvFixes() throws {
        let records = try Self.records(Self.log)
        let points = records.compactMap { if case .point(let point) = $0 { point } else { nil } }
        #expect(points.count == 3)
        let first = try #require(points.first?.position.location)
        #expect(first.coordinate.latitude == 46.500000001 && first.coordinate.longitude == 6.600000002)
        #expect(first.altitudeMeters == 372.1 && first.horizontalAccuracyMeters == 4.2 && first.verticalAccuracyMeters == 7.1)
        #expect(first.speedMetersPerSecond == 1.25 && first.courseDegrees == 91.5 && first.courseAccuracyDegrees == 12)
        #expect(first.timestamp == Date(timeIntervalSince1970: 1_772_359_201))
        let twoD = try #require(points[1].position.location)
        #expect(twoD.altitudeMeters == nil && twoD.horizontalAccuracyMeters == 5)
    }

    @Test("a lost fix between fixes starts a new segment")
    func segments() throws {
        let kinds = try Self.records(Self.log).compactMap { if case .point(let point) = $0 { point.kind } else { nil } }
        #expect(kinds == [.track(track: 0, segment: 0), .track(track: 0, segment: 0), .track(track: 0, segment: 1)])
    }

    @Test("a broken line is rejected with its position and reading goes on")
    func brokenLine() throws {
        let records = try Self.records("{\"class\":\"TPV\",\"mode\":3,\n" + Self.log)
        guard case .rejected(let rejection) = records.first else { Issue.record("expected a rejection first"); return }
        #expect(rejection.position.line == 1)
        #expect(records.filter { if case .point = $0 { true } else { false } }.count == 3)
    }

    @Test("gpspipe -w is detected as gpsd JSON; gpspipe -r (gpsd's greeting, then NMEA) as NMEA")
    func detection() {
        #expect(FormatDetector.detect(prefix: Array(Self.log.utf8)) == .format(.gpsd))
        let raw = """
            {"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}
            $GPRMC,100001.00,A,4630.0000,N,00636.0000,E,0.5,90.0,010326,,,A*6B
            $GPGGA,100001.00,4630.0000,N,00636.0000,E,1,08,0.9,372.1,M,48.4,M,,*5C
            """
        #expect(FormatDetector.detect(prefix: Array(raw.utf8)) == .format(.nmea))
    }

    @Test("gpsd's client framing case: several objects on one line, after a comment, is read as gpsd JSON",
          .enabled(if: SharedFixtures.available, SharedFixtures.absentReason))
    func multipacket() throws {
        let url = SharedFixtures.url("gpsd/json-client/multipacket.log")
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(FormatDetector.detect(prefix: Array(text.utf8)) == .format(.gpsd))
        var reader = GPSDLogReader(source: MemoryByteSource(Array(text.utf8)))
        while try reader.next() != nil {}
        #expect(reader.skippedRecords == ["gpsd VERSION report (not a fix)": 1, "gpsd DEVICES report (not a fix)": 1,
                                          "gpsd WATCH report (not a fix)": 1])
    }

    @Test("every TPV fix in gpsd's regression captures is read, in order, at its time and position",
          .enabled(if: SharedFixtures.available, SharedFixtures.absentReason),
          arguments: ["binary-receiver-chk/ublox-neo-m8n.log.chk", "binary-receiver-chk/ublox-zed-f9p-rtk.log.chk",
                      "binary-receiver-chk/trimble-lassen_iq-3dfix.log.chk", "nmea/saab-r4.log.chk", "nmea/haicom-305N.log.chk"])
    func regressionCaptures(_ name: String) throws {
        let data = try Data(contentsOf: SharedFixtures.url("gpsd/" + name))
        var expected: [(Double, Double, String)] = []
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) where line.hasPrefix("{\"class\":\"TPV\"") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let mode = object["mode"] as? Int, mode >= 2, let lat = object["lat"] as? Double, let lon = object["lon"] as? Double,
                  let time = object["time"] as? String else { continue }
            expected.append((lat, lon, time))
        }
        var reader = GPSDLogReader(source: MemoryByteSource(Array(data)))
        var found: [Location] = []
        while let record = try reader.next() {
            if case .point(let point) = record, let location = point.position.location { found.append(location) }
        }
        #expect(found.count == expected.count)
        for (location, (lat, lon, time)) in zip(found, expected) {
            // The project's JSON number parser against Foundation's: both round to the nearest double.
            #expect(abs(location.coordinate.latitude - lat) < 1e-12 && abs(location.coordinate.longitude - lon) < 1e-12)
            #expect(location.timestamp == (try TimestampParser.parse(time).date))
        }
    }
}

@Suite("NMEA heading sentences: HDT, THS, HDG")
struct NMEAHeadingTests {
    static func heading(_ line: String) -> NMEAHeading? {
        guard case .sentence(let sentence) = NMEASentence.parse(Array(line.utf8)).result else { return nil }
        return NMEAHeading(sentence)
    }

    @Test("HDT and THS are true headings; a THS marked V is not valid")
    func trueHeadings() {
        #expect(Self.heading("$HEHDT,274.07,T") == NMEAHeading(headingDegrees: 274.07, reference: .trueNorth, variationDegrees: nil))
        #expect(Self.heading("$GPTHS,12.5,A") == NMEAHeading(headingDegrees: 12.5, reference: .trueNorth, variationDegrees: nil))
        #expect(Self.heading("$GPTHS,12.5,V") == nil)
        #expect(Self.heading("$HEHDT,,T") == nil)
    }

    @Test("HDG is magnetic: the sensor heading plus the deviation, with the variation kept (west negative)")
    func magneticHeading() {
        let heading = Self.heading("$HCHDG,98.3,1.5,W,12.6,W")
        #expect(heading?.reference == .magneticNorth && heading?.variationDegrees == -12.6)
        #expect(abs((heading?.headingDegrees ?? 0) - 96.8) < 1e-9)
    }

    @Test("the Saab R4 log's HEHDT sentences decode", .enabled(if: SharedFixtures.available, SharedFixtures.absentReason))
    func saab() throws {
        let text = try String(contentsOf: SharedFixtures.url("gpsd/nmea/saab-r4.log"), encoding: .utf8)
        let headings = text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("$HEHDT") }.compactMap { Self.heading(String($0)) }
        #expect(!headings.isEmpty)
        #expect(headings.allSatisfy { $0.reference == .trueNorth && (0..<360).contains($0.headingDegrees) })
    }
}
