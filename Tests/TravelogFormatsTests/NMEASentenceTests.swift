import Testing
import TravelogFormats

@Suite("NMEA sentences")
struct NMEASentenceTests {
    static func parse(_ text: String) -> NMEASentence.ParseResult {
        NMEASentence.parse(Array(text.utf8)).result
    }

    static func sentence(_ text: String) -> NMEASentence? {
        if case .sentence(let sentence) = parse(text) { return sentence }
        return nil
    }

    @Test("a sentence splits into talker, type and fields, with its checksum checked")
    func structure() throws {
        let sentence = try #require(Self.sentence("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47"))
        #expect(sentence.talker == "GP")
        #expect(sentence.type == "GGA")
        #expect(sentence.hasChecksum)
        #expect(!sentence.isProprietary)
        #expect(sentence.fieldCount == 14)
        #expect(sentence.text(0) == "123519")
        #expect(sentence.text(13) == "")
        #expect(sentence.text(99) == "")
    }

    @Test("the checksum is the XOR of the bytes between $ and *, in either case of hex digits")
    func checksum() {
        #expect(Self.sentence("$GPZDA,201530.00,04,07,2002,00,00*60") != nil)
        #expect(Self.sentence("$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39") != nil)
        #expect(Self.sentence("$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K*48") != nil)
        #expect(Self.sentence("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6a") != nil)
    }

    @Test("a wrong checksum says what the bytes give and what was written")
    func badChecksum() {
        guard case .badChecksum(let expected, let found) = Self.parse("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*48") else {
            Issue.record("not reported as a bad checksum")
            return
        }
        #expect(expected == 0x47)
        #expect(found == 0x48)
    }

    @Test("a missing checksum (or a bare '*') is accepted; a malformed one is not",
          arguments: [("$GPGLL,4916.45,N,12311.12,W,225444,A", true), ("$GPBOD,,T,,M,,*", true),
                      ("$GPGLL,4916.45,N,12311.12,W,225444,A*1", false), ("$GPGLL,4916.45,N,12311.12,W,225444,A*G1", false)])
    func missingChecksum(text: String, accepted: Bool) {
        switch Self.parse(text) {
        case .sentence(let sentence): #expect(accepted && !sentence.hasChecksum)
        case .malformedChecksum: #expect(!accepted)
        default: Issue.record("unexpected result for \(text)")
        }
    }

    @Test("any two-letter talker is accepted", arguments: ["GP", "GN", "GL", "GA", "GB", "BD", "GQ", "GI", "QZ", "IN", "HE"])
    func talkers(talker: String) throws {
        let sentence = try #require(Self.sentence(NMEATestSupport.sentence(talker + "ZDA,201530.00,04,07,2002,00,00")))
        #expect(sentence.talker == talker)
        #expect(sentence.type == "ZDA")
    }

    @Test("'!' opens encapsulated sentences (AIS) and 'P' proprietary ones")
    func startsAndProprietary() throws {
        let ais = try #require(Self.sentence("!" + NMEATestSupport.sentence("AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0").dropFirst()))
        #expect(ais.talker == "AI")
        #expect(ais.type == "VDM")
        let garmin = try #require(Self.sentence("$PGRME,15.0,M,45.0,M,25.0,M*1C"))
        #expect(garmin.isProprietary)
        #expect(garmin.talker == "P")
        #expect(garmin.type == "GRME")
    }

    @Test("comments, gpsd JSON, blank lines and noise are not NMEA", arguments: [
        "# Date: 2019-3-14", "   # indented comment $GPGGA,1", "", "   ",
        #"{"class":"TPV","mode":3,"time":"2020-03-18T13:28:20.600Z"}"#,
        "\u{1}\u{2}binary\u{7F}", "$", "$GP", "$gpgga,123519", "$GPGGA1,x", "$12345,1,2", "GPGGA,123519",
    ])
    func notNMEA(text: String) {
        guard case .notNMEA = Self.parse(text) else {
            Issue.record("'\(text)' taken for NMEA")
            return
        }
    }

    @Test("noise before the '$' is skipped, and the start of the sentence is reported")
    func noiseBefore() {
        let line = Array("\u{FF}\u{1}xx$GPZDA,201530.00,04,07,2002,00,00*60".utf8)
        let (result, start, next) = NMEASentence.parse(line)
        guard case .sentence(let sentence) = result else {
            Issue.record("sentence after noise not found")
            return
        }
        #expect(sentence.type == "ZDA")
        #expect(line[start] == UInt8(ascii: "$"))
        #expect(next == nil)
    }

    @Test("sentences glued after a checksum on one line are found one after the other")
    func glued() {
        let line = Array("$GPZDA,201530.00,04,07,2002,00,00*60$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K*48".utf8)
        let first = NMEASentence.parse(line)
        let second = first.next.map { NMEASentence.parse(line, from: $0) }
        guard case .sentence(let zda) = first.result, case .sentence(let vtg)? = second?.result else {
            Issue.record("glued sentences not split")
            return
        }
        #expect(zda.type == "ZDA")
        #expect(vtg.type == "VTG")
        #expect(second?.next == nil)
    }

    @Test("a truncated sentence glued to the next one fails its checksum (isync.log)")
    func truncatedAndGlued() {
        let text = "$GPGSV,3,3,10,06,26,174,35,2$PTNTA,20160203131547,2,T4,000000000,+092,3,0,3*1C"
        guard case .badChecksum = Self.parse(text) else {
            Issue.record("a truncated sentence was accepted")
            return
        }
    }

    @Test("fields lose surrounding spaces")
    func spaces() throws {
        let sentence = try #require(Self.sentence("$GPRMC, 222519,A,4249.96551,S,14726.73171,E,0.042,,231019,,,A*62"))
        #expect(sentence.text(0) == "222519")
        let trailing = try #require(Self.sentence("$GPRMC,222517 ,A,4249.96551,S,14726.73171,E,0.042,,231019,,,A*6C"))
        #expect(trailing.text(0) == "222517")
    }
}
