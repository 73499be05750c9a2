import Foundation
import Testing
import TravelogCore
import TravelogFormats

/// What reading a whole OwnTracks input gives.
struct OwnTracksReading {
    var records: [FormatRecord]
    var skipped: [OwnTracksReader.SkipReason: Int]

    init(_ text: String, chunk: Int = .max, blockSizeBytes: Int = 1 << 20,
         sourceLocation: SourceLocation = #_sourceLocation) throws(FormatError) {
        try self.init(bytes: Array(text.utf8), chunk: chunk, blockSizeBytes: blockSizeBytes, sourceLocation: sourceLocation)
    }

    init(bytes: [UInt8], chunk: Int = .max, blockSizeBytes: Int = 1 << 20,
         sourceLocation: SourceLocation = #_sourceLocation) throws(FormatError) {
        let reader = OwnTracksReader(source: MemoryByteSource(bytes, maximumChunkBytes: chunk), blockSizeBytes: blockSizeBytes)
        var records: [FormatRecord] = []
        while let record = try reader.next() { records.append(record) }
        #expect(try reader.next() == nil, sourceLocation: sourceLocation)
        #expect(reader.bytesConsumed == bytes.count, sourceLocation: sourceLocation)
        self.records = records
        skipped = reader.skipped
    }

    var locations: [Location] {
        records.compactMap { if case .point(let point) = $0 { point.position.location } else { nil } }
    }
}

@Suite("OwnTracksReader")
struct OwnTracksReaderTests {
    /// A `.rec` line as the Recorder writes it (`"%s\t%-18s\t%s\n"`).
    static func recLine(_ time: String, _ topic: String, _ json: String) -> String {
        time + "\t" + topic.padding(toLength: max(18, topic.count), withPad: " ", startingAt: 0) + "\t" + json + "\n"
    }

    static let location = #"{"_type":"location","tid":"RO","lat":52.225,"lon":13.332,"tst":1709283789,"acc":10,"alt":36,"vac":4,"vel":18,"cog":98,"batt":94,"bs":2,"conn":"w","inregions":["home"],"_http":true}"#

    static var log: String {
        recLine("2024-03-01T09:03:09Z", "*", location)
            + recLine("2024-03-01T18:26:55Z", "*", #"{"_type":"transition","event":"leave","lat":52.227,"lon":13.334,"tst":1709317615,"wtst":1696359532,"desc":"home"}"#)
            + recLine("2024-03-01T18:40:08Z", "lwt", #"{"_type":"lwt","tst":"1717459208"}"#)
            + recLine("2024-03-01T18:40:09Z", "waypoints", #"{"_type":"waypoint","desc":"Home","lat":52.232,"lon":13.339,"rad":50,"tst":1717459768}"#)
            + "\n"
            + recLine("2024-03-01T18:42:57Z", "*", #"{"_type":"location","lat":"52.232","lon":13.339,"tst":"1709318577","vel":-1,"cog":-1,"acc":5}"#)
    }

    /// `location`, read: 18 km/h is 5 m/s.
    static func firstFix() throws -> Location {
        Location(coordinate: try Coordinate(latitude: 52.225, longitude: 13.332), altitudeMeters: 36,
                 horizontalAccuracyMeters: 10, verticalAccuracyMeters: 4, speedMetersPerSecond: 5, courseDegrees: 98,
                 timestamp: Date(timeIntervalSince1970: 1_709_283_789))
    }

    @Test("a .rec log: locations are fixes timed by tst, vel km/h in m/s, -1 unknown; other messages skipped and counted",
          arguments: [1, 3, 50, Int.max])
    func recorderLog(chunk: Int) throws {
        let reading = try OwnTracksReading(Self.log, chunk: chunk, blockSizeBytes: 16)
        let second = Location(coordinate: try Coordinate(latitude: 52.232, longitude: 13.339), horizontalAccuracyMeters: 5,
                              timestamp: Date(timeIntervalSince1970: 1_709_318_577))
        #expect(reading.records == [.trackPoint(0, 0, try Self.firstFix()), .trackPoint(0, 0, second)])
        #expect(reading.skipped == [.message(type: "transition"): 1, .message(type: "lwt"): 1, .message(type: "waypoint"): 1])
    }

    @Test("old logs separated by spaces, with CR LF, a BOM, and a first column that disagrees with tst")
    func oldLog() throws {
        let text = "\u{FEFF}2015-08-24T05:55:07Z *                  " + Self.location + "\r\n"
        #expect(try OwnTracksReading(text).records == [.trackPoint(0, 0, try Self.firstFix())])
    }

    @Test("a broken line is rejected at its first bad byte and the lines after it are read")
    func brokenLine() throws {
        let cut = String(Self.location.prefix(60))
        let garbage = #"{"_type":"location","lat":52.2 "lon":13.3}"#
        let text = Self.recLine("2024-03-01T09:03:09Z", "*", cut) + Self.recLine("2024-03-01T09:03:10Z", "*", garbage)
            + "2024-03-01T09:03:11Z\t*\n" + Self.recLine("2024-03-01T09:03:12Z", "*", Self.location)
        // Each line starts with the 20-byte time, a tab, the 18-byte topic and a tab: JSON at column 41.
        let firstLineLength = 40 + cut.utf8.count + 1
        let secondLineLength = 40 + garbage.utf8.count + 1
        for chunk in [1, 4, Int.max] {
            let reading = try OwnTracksReading(text, chunk: chunk)
            #expect(reading.records == [
                .rejected(RecordRejection(position: SourcePosition(byteOffset: firstLineLength - 1, line: 1, column: 40 + cut.utf8.count + 1),
                                          reason: .invalidJSON(.unexpectedEndOfInput(inside: .string)))),
                .rejected(RecordRejection(position: position(of: "\"lon\":13.3}", in: text),
                                          reason: .invalidJSON(.unexpectedByte(UInt8(ascii: "\""), expected: .commaOrObjectEnd)))),
                .rejected(RecordRejection(position: SourcePosition(byteOffset: firstLineLength + secondLineLength + 20, line: 3, column: 21),
                                          reason: .missingField("the message's JSON"))),
                .trackPoint(0, 0, try Self.firstFix()),
            ])
        }
    }

    @Test("a location that is wrong is rejected at the value that makes it so", arguments: [
        (#"{"_type":"location","lat":200,"lon":13.3,"tst":1709283789}"#, "200", RecordRejection.Reason.invalidCoordinate(.latitudeOutOfRange(200))),
        (#"{"_type":"location","lat":52,"lon":13.3}"#, "{", .missingField("tst")),
        (#"{"_type":"location","lon":13.3,"tst":1709283789}"#, "{", .missingField("lat")),
        (#"{"_type":"location","lat":52,"lon":13.3,"tst":0}"#, "0}", .invalidTime("0")),
        (#"{"_type":"location","lat":52,"lon":13.3,"tst":"yesterday"}"#, "\"yesterday\"", .invalidTime("yesterday")),
        (#"{"_type":"location","lat":52,"lon":13.3,"tst":1709283789,"acc":"good"}"#, "\"good\"", .invalidValue(field: "acc", value: "good")),
        (#"{"_type":"location","lat":52,"lon":13.3,"tst":1709283789,"cog":361}"#, "361", .invalidValue(field: "cog", value: "361.0")),
        (#"{"lat":52,"lon":13.3,"tst":1709283789}"#, "{", .missingField("_type")),
    ])
    func wrongLocation(json: String, marker: String, reason: RecordRejection.Reason) throws {
        let text = Self.recLine("2024-03-01T09:03:09Z", "*", json)
        let jsonStart = position(of: "{", in: text).byteOffset
        let markerOffset = jsonStart + position(of: marker, in: json).byteOffset
        #expect(try OwnTracksReading(text).records == [
            .rejected(RecordRejection(position: SourcePosition(byteOffset: markerOffset, line: 1, column: markerOffset + 1), reason: reason)),
        ])
        // The same message in a JSON file is rejected at the same place in its own text.
        #expect(try OwnTracksReading(json).records == [
            .rejected(RecordRejection(position: position(of: marker, in: json), reason: reason)),
        ])
    }

    @Test("JSON files: one message, an array, one per line, and the Recorder's exports", arguments: [
        location,
        "[" + location + "," + location + "]",
        "\n  " + location + "\n" + location + "\n",
        #"{"count":2,"data":["# + location + "," + location + "]}",
        #"{"locations":["# + location + "," + location + #"],"count":2}"#,
        "\u{FEFF}[" + location + #",{"_type":"card","name":"Jane"}]"#,
    ])
    func jsonFiles(text: String) throws {
        for chunk in [1, 7, Int.max] {
            let reading = try OwnTracksReading(text, chunk: chunk, blockSizeBytes: 16)
            #expect(!reading.locations.isEmpty)
            let expected = try Self.firstFix()
            #expect(reading.locations.allSatisfy { $0 == expected })
            #expect(reading.records.count == reading.locations.count)
        }
    }

    @Test("a broken JSON file throws: it is a document, not a log")
    func brokenJSONFile() {
        let text = "[" + Self.location + "," + String(Self.location.prefix(30))
        #expect(throws: FormatError.truncated(endPosition(of: text), expected: "the rest of an object")) {
            _ = try OwnTracksReading(text)
        }
        #expect(throws: FormatError.unexpected(SourcePosition(byteOffset: 3, line: 2, column: 1),
                                               expected: "an OwnTracks message (a JSON object) or an array of them", found: "a number")) {
            _ = try OwnTracksReading("[]\n42")  // a file that starts like JSON and goes on with a number
        }
    }

    @Test("an empty input and a blank one have no records")
    func empty() throws {
        #expect(try OwnTracksReading("").records.isEmpty)
        #expect(try OwnTracksReading(" \n\r\n\t").records.isEmpty)
    }
}
