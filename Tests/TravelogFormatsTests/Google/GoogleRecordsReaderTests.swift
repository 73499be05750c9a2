import Foundation
import Testing
import TravelogCore
import TravelogFormats

@Suite("GoogleRecordsReader: Records.json")
struct GoogleRecordsReaderTests {
    /// Every field the reader takes, the two time fields, and keys it must skip.
    static let sample = """
    {
      "locations": [{
        "latitudeE7": 525121303,
        "longitudeE7": 134309551,
        "accuracy": 25,
        "altitude": 41,
        "verticalAccuracy": 3,
        "velocity": 7,
        "heading": 273,
        "activity": [{ "activity": [{ "type": "STILL", "confidence": 100 }], "timestamp": "2013-04-15T06:34:36.153Z" }],
        "source": "GPS",
        "deviceTag": 335552189,
        "platformType": "ANDROID",
        "timestamp": "2013-04-15T06:31:26.860Z"
      }, {
        "timestampMs": "1355581289460",
        "latitudeE7": 533690550,
        "longitudeE7": 836950010,
        "accuracy": 150
      }, {
        "timestampMs": 1355581289460,
        "latitudeE7": -338688197,
        "longitudeE7": -1512092955
      }, {
        "latitude": 48.8583701,
        "longitude": 2.2944813,
        "timestamp": "2020-06-01T12:00:00+02:00"
      }]
    }
    """

    @Test("every field of a location is read, with units, and activity and unknown keys are skipped")
    func fields() throws {
        let records = try GoogleReading.records(Self.sample, as: .googleRecords)
        #expect(records.count == 4)
        let location = try #require(records[0].location)
        #expect(location.coordinate.latitude == 52.5121303)
        #expect(location.coordinate.longitude == 13.4309551)
        #expect(location.horizontalAccuracyMeters == 25)
        #expect(location.altitudeMeters == 41)
        #expect(location.verticalAccuracyMeters == 3)
        #expect(location.speedMetersPerSecond == 7)
        #expect(location.courseDegrees == 273)
        #expect(location.timestamp == GoogleReading.date("2013-04-15T06:31:26.860Z"))
        #expect(location.utcOffsetSeconds == nil)
        #expect(records[0].point?.kind == .track(track: 0, segment: 0))
    }

    @Test("timestampMs as a string and as a number give the same instant as the ISO time")
    func timestampMilliseconds() throws {
        let records = try GoogleReading.records(Self.sample, as: .googleRecords)
        let expected = GoogleReading.date("2012-12-15T14:21:29.460Z")
        #expect(records[1].location?.timestamp == expected)
        #expect(records[2].location?.timestamp == expected)
        #expect(records[1].location?.coordinate == Coordinate(validLatitude: 53.369055, longitude: 83.6950010))
        #expect(records[1].location?.altitudeMeters == nil)
        #expect(records[1].location?.speedMetersPerSecond == -1)
        #expect(records[2].location?.coordinate.latitude == -33.8688197)
        #expect(records[2].location?.coordinate.longitude == -151.2092955)
    }

    @Test("plain latitude and longitude in degrees are accepted, and an offset is kept")
    func plainDegrees() throws {
        let location = try #require(try GoogleReading.records(Self.sample, as: .googleRecords)[3].location)
        #expect(location.coordinate.latitude == 48.8583701)
        #expect(location.coordinate.longitude == 2.2944813)
        #expect(location.utcOffsetSeconds == 7200)
        #expect(location.timestamp == GoogleReading.date("2020-06-01T10:00:00Z"))
    }

    @Test("E7 values written as unsigned 32-bit integers are repaired (Google's export bug)")
    func e7Overflow() throws {
        // 4233738877 − 2³² = −61228419 → 6.1228419° S; 4294967296 − 1 512 092 955 = 2782874341 → −151.2092955°.
        let text = """
        {"locations": [
          {"latitudeE7": 4233738877, "longitudeE7": 1066510714, "timestamp": "2014-01-01T00:00:00Z"},
          {"latitudeE7": -338688197, "longitudeE7": 2782874341, "timestamp": "2014-01-01T00:00:00Z"}
        ]}
        """
        let records = try GoogleReading.records(text, as: .googleRecords)
        #expect(records[0].location?.coordinate.latitude == -6.1228419)
        #expect(records[0].location?.coordinate.longitude == 106.6510714)
        #expect(records[1].location?.coordinate.longitude == -151.2092955)
    }

    @Test("wrong records are rejected at their position, and the reading goes on")
    func rejections() throws {
        let text = """
        {"locations": [
          {"latitude": 200, "longitude": 13.4309551, "timestamp": "2013-04-15T06:31:26.860Z"},
          {"latitudeE7": 525121303, "longitudeE7": 1900000000, "timestamp": "2013-04-15T06:31:26.860Z"},
          {"latitudeE7": 525121303, "longitudeE7": 134309551, "timestamp": "2013-02-30T06:31:26.860Z"},
          {"latitudeE7": 525121303, "longitudeE7": 134309551},
          {"longitudeE7": 134309551, "timestamp": "2013-04-15T06:31:26.860Z"},
          {"latitudeE7": "north", "longitudeE7": 134309551, "timestamp": "2013-04-15T06:31:26.860Z"},
          {"latitudeE7": 525121303, "longitudeE7": 134309551, "timestamp": {"seconds": 1}},
          [1, 2],
          {"latitudeE7": 525121303, "longitudeE7": 134309551, "timestamp": "2013-04-15T06:31:26.860Z", "accuracy": "far"}
        ]}
        """
        let records = try GoogleReading.records(text, as: .googleRecords)
        #expect(records.count == 9)
        let reasons = records.map { $0.rejection?.reason }
        #expect(reasons[0] == .invalidCoordinate(.latitudeOutOfRange(200)))
        // 1 900 000 000 is taken for an unsigned overflow (see e7Overflow) and is out of range either way.
        #expect(reasons[1] == .invalidValue(field: "longitudeE7", value: "-239.4967296° is outside [-180, 180]"))
        #expect(reasons[2] == .invalidTime("2013-02-30T06:31:26.860Z"))
        #expect(reasons[3] == .missingField("timestamp"))
        #expect(reasons[4] == .missingField("latitudeE7"))
        #expect(reasons[5] == .invalidValue(field: "latitudeE7", value: "not a number"))
        #expect(reasons[6] == .invalidTime("an object"))
        #expect(reasons[7] == .invalidValue(field: "locations[]", value: "an array"))
        // An unreadable optional field is unknown, not a reason to drop the fix.
        #expect(records[8].location?.horizontalAccuracyMeters == -1)
        #expect(records[1].rejection?.position == SourcePosition(byteOffset: 105, line: 3, column: 3))
        #expect(records[7].rejection?.position.line == 9)
    }

    @Test("a UTF-8 byte order mark before the JSON is skipped")
    func byteOrderMark() throws {
        let records = try GoogleReading.records([0xEF, 0xBB, 0xBF] + Array(Self.sample.utf8), as: .googleRecords)
        #expect(records.count == 4)
        #expect(records.allSatisfy { $0.location != nil })
    }

    @Test("other top-level keys are skipped, an empty file of locations has no records")
    func otherKeys() throws {
        #expect(try GoogleReading.records(#"{"locations": []}"#, as: .googleRecords).isEmpty)
        #expect(try GoogleReading.records(#"{"deviceSettings": [{"a": 1}]}"#, as: .googleRecords).isEmpty)
        let records = try GoogleReading.records(#"{"x": {"locations": 1}, "locations": [{"latitudeE7": 1, "longitudeE7": 2, "timestampMs": "0"}]}"#, as: .googleRecords)
        #expect(records.count == 1)
        #expect(records[0].location?.timestamp == Date(timeIntervalSince1970: 0))
    }

    @Test("a truncated file throws a FormatError at its end, after the records read so far")
    func truncated() {
        let cut = Self.sample.range(of: "\"timestampMs\": 1355")?.upperBound ?? Self.sample.endIndex
        let text = String(Self.sample[..<cut])
        let (records, error) = GoogleReading.recordsUntilFailure(text, as: .googleRecords)
        #expect(records.count == 2)
        guard case .truncated(let position, _)? = error else {
            Issue.record("expected .truncated, got \(String(describing: error))")
            return
        }
        #expect(position.byteOffset == text.utf8.count)
    }

    @Test("a broken file throws the same error on every later call", arguments: [
        #"{"locations": [{"latitudeE7": 1,, }]}"#, #"{"locations": {}}"#, #"[]"#, #"{"locations": []} x"#,
    ])
    func broken(text: String) throws {
        let reader = GoogleRecordsReader(source: MemoryByteSource(Array(text.utf8)))
        var first: FormatError?
        do { while try reader.next() != nil {} } catch { first = error }
        let error = try #require(first)
        #expect(throws: error) { try reader.next() }
        if case .unexpected = error {} else { Issue.record("expected .unexpected, got \(error)") }
    }

    @Test("bytes that are not UTF-8 are an encoding error at their offset")
    func invalidEncoding() {
        let bytes = Array(#"{"locations": [{"source": ""#.utf8) + [0xFF] + Array(#""}]}"#.utf8)
        var thrown: FormatError?
        do { _ = try GoogleReading.records(bytes, as: .googleRecords) } catch { thrown = error as? FormatError }
        #expect(thrown == .invalidEncoding(SourcePosition(byteOffset: 27, line: 1, column: 28), expected: "UTF-8"))
    }

    @Test("reading in chunks of any size gives the same records", arguments: [1, 2, 3, 7, 16, 64])
    func chunked(size: Int) throws {
        let whole = try GoogleReading.records(Self.sample, as: .googleRecords)
        #expect(try GoogleReading.records(Self.sample, as: .googleRecords, chunkBytes: size) == whole)
    }

    @Test("bytesConsumed reaches the file's length")
    func progress() throws {
        let bytes = Array(Self.sample.utf8)
        let reader = GoogleRecordsReader(source: MemoryByteSource(bytes))
        while try reader.next() != nil {}
        #expect(reader.bytesConsumed == bytes.count)
    }
}
