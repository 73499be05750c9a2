import Foundation
import Testing
import TravelogCore
import TravelogFormats

@Suite("GeoJSONReader: wrong records and broken files")
struct GeoJSONErrorTests {
    static func collection(_ features: String...) -> String {
        #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}"
    }

    static let good = #"{"type":"Feature","geometry":{"type":"Point","coordinates":[10,50]},"properties":{"time":1609459200}}"#

    @Test("a wrong record is rejected at its position, and the features after it are still read", arguments: [
        (#"{"type":"Feature","geometry":{"type":"Point","coordinates":[10,200]},"properties":{"time":1609459200}}"#,
         "[10,200]", RecordRejection.Reason.invalidCoordinate(.latitudeOutOfRange(200))),
        (#"{"type":"Feature","geometry":{"type":"Point","coordinates":[10]},"properties":{"time":1609459200}}"#,
         "[10]", .missingField("latitude")),
        (#"{"type":"Feature","geometry":{"type":"Point","coordinates":["east","north"]},"properties":{}}"#,
         "\"east\"", .invalidValue(field: "coordinates", value: "east")),
        (#"{"type":"Feature","geometry":{"type":"Point","coordinates":[10,50]},"properties":{"time":"2024-02-30T10:00:00Z"}}"#,
         "\"2024-02-30", .invalidTime("2024-02-30T10:00:00Z")),
        (#"{"type":"Feature","geometry":{"type":"Point","coordinates":[10,50]},"properties":{"timestamp":true}}"#,
         "true", .invalidTime("true")),
        (#"{"type":"Feature","geometry":{"type":"Point","coordinates":[10,50]},"properties":{"time":1609459200,"speed":"fast"}}"#,
         "\"fast\"", .invalidValue(field: "speed", value: "fast")),
        (#"{"type":"Feature","geometry":{"type":"Point","coordinates":[10,50]},"properties":{"time":1609459200,"course":400}}"#,
         "400", .invalidValue(field: "course", value: "400.0")),
        (#"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[[10,50],[11,51]]]},"properties":{}}"#,
         "{\"type\":\"LineString", .invalidValue(field: "coordinates",
                                                value: "positions nested 3 deep in a LineString, which nests them 2 deep")),
        (#"{"type":"Feature","geometry":{"type":"Circle","coordinates":[10,50]},"properties":{}}"#,
         "{\"type\":\"Circle", .invalidValue(field: "type", value: "Circle")),
        (#"{"type":"Feature","geometry":{"coordinates":[10,50]},"properties":{}}"#,
         "{\"coordinates", .missingField("type")),
        (#"{"type":"Feature","geometry":"here","properties":{}}"#,
         "\"here\"", .invalidValue(field: "geometry", value: "here")),
        (#"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[10,50],[11,51]]},"properties":{"coordTimes":[1609459200]}}"#,
         "{\"type\":\"LineString", .invalidValue(field: "coordTimes", value: "1 times for 2 positions")),
        ("42", "42", .invalidValue(field: "features", value: "a number")),
        ("[1,2]", "[1,2]", .invalidValue(field: "features", value: "an array")),
    ])
    func rejected(feature: String, marker: String, reason: RecordRejection.Reason) throws {
        let text = Self.collection(feature, Self.good)
        for chunk in [1, 7, Int.max] {
            let reading = try GeoJSONReading(text, chunk: chunk)
            #expect(reading.records == [
                .rejected(RecordRejection(position: position(of: marker, in: text), reason: reason)),
                .trackPoint(0, 0, try simpleFix(50, 10, 1_609_459_200)),
            ])
        }
    }

    @Test("a bad position of a line rejects that position only, and a bad time its own position")
    func partialLine() throws {
        let text = Self.collection(#"{"type":"Feature","properties":{"coordTimes":[1609459200,"never",1609459202]},"geometry":{"type":"LineString","coordinates":[[10,50],[10,95],[10,50.2]]}}"#)
        let reading = try GeoJSONReading(text)
        #expect(reading.records == [
            .trackPoint(0, 0, try simpleFix(50, 10, 1_609_459_200)),
            .rejected(RecordRejection(position: position(of: "[10,95]", in: text), reason: .invalidCoordinate(.latitudeOutOfRange(95)))),
            .trackPoint(0, 0, try simpleFix(50.2, 10, 1_609_459_202)),
        ])
        let badTime = Self.collection(#"{"type":"Feature","properties":{"coordTimes":[1609459200,"never"]},"geometry":{"type":"LineString","coordinates":[[10,50],[10,50.1]]}}"#)
        #expect(try GeoJSONReading(badTime).rejections == [
            RecordRejection(position: position(of: "\"never\"", in: badTime), reason: .invalidTime("never")),
        ])
    }

    // `{"type":"FeatureCollection","features":[` is 40 bytes, and 60 more end after `"coordinates":[`.
    @Test("a truncated file throws where it ends, whatever the chunk size", arguments: [1, 2, 5, Int.max])
    func truncated(chunk: Int) {
        let whole = Self.collection(Self.good, Self.good)
        let cut = String(whole.prefix(100))
        #expect(cut.hasSuffix(#""coordinates":["#))
        #expect(geoJSONError(cut, chunk: chunk) == .truncated(SourcePosition(byteOffset: 100, line: 1, column: 101),
                                                              expected: "the rest of an array"))
        #expect(geoJSONError(String(whole.dropLast()), chunk: chunk) == .truncated(endPosition(of: String(whole.dropLast())),
                                                                                   expected: "the rest of an object"))
        #expect(geoJSONError(String(whole.prefix(50)), chunk: chunk) == .truncated(endPosition(of: String(whole.prefix(50))),
                                                                                   expected: "the rest of a string"))
    }

    @Test("a file that is not well-formed JSON throws at the offending byte")
    func malformed() {
        let missingComma = #"{"type":"FeatureCollection","features":[{"type":"Feature" "geometry":null}]}"#
        #expect(geoJSONError(missingComma) == .unexpected(position(of: "\"geometry", in: missingComma),
                                                          expected: "',' or '}' after object member", found: "'\"'"))
        let trailing = #"{"type":"Point","coordinates":[1,2]} x"#
        #expect(geoJSONError(trailing) == .unexpected(position(of: "x", in: trailing),
                                                      expected: "end of input after the top-level value", found: "'x'"))
        var invalidUTF8 = Array(#"{"type":"Feature","properties":{"name":""#.utf8)
        invalidUTF8 += [0xC3, 0x28] + Array(#""}}"#.utf8)
        let reader = GeoJSONReader(source: MemoryByteSource(invalidUTF8))
        #expect(throws: FormatError.invalidEncoding(SourcePosition(byteOffset: 40, line: 1, column: 41), expected: "UTF-8")) {
            while try reader.next() != nil {}
        }
    }

    @Test("JSON that is not GeoJSON throws at the value that is not", arguments: [
        (#""just a string""#, FormatError.unexpected(SourcePosition(byteOffset: 0, line: 1, column: 1),
                                                    expected: "a GeoJSON object or an array of features", found: "a string")),
        (#"{"type":"FeatureCollection","features":{"0":{}}}"#,
         .unexpected(SourcePosition(byteOffset: 39, line: 1, column: 40), expected: "an array of features", found: "an object")),
        (#"{"name":"settings","value":3}"#,
         .unexpected(SourcePosition(byteOffset: 0, line: 1, column: 1),
                     expected: "a GeoJSON FeatureCollection, Feature or geometry, or an Overland batch",
                     found: "an object without a GeoJSON type")),
        (#"{"type":"Topology","objects":{}}"#,
         .unexpected(SourcePosition(byteOffset: 0, line: 1, column: 1),
                     expected: "a GeoJSON FeatureCollection, Feature or geometry, or an Overland batch",
                     found: "an object of type 'Topology'")),
        ("", .truncated(SourcePosition(byteOffset: 0, line: 1, column: 1), expected: "a value")),
    ])
    func notGeoJSON(text: String, error: FormatError) {
        #expect(geoJSONError(text) == error)
    }

    @Test("records are the same whatever the chunk and window sizes")
    func chunking() throws {
        let texts = [GeoJSONOverlandTests.batch, Self.collection(
            Self.good,
            #"{"type":"Feature","properties":{"coordTimes":[["2021-01-01T00:00:00.123456789+01:00"],["2021-01-01T00:00:01Z"]],"name":"a long name with \u00e9scapes \" and more"},"geometry":{"type":"MultiLineString","coordinates":[[[10.123456789,50.987654321,1e2]],[["10.5","50.5"]]]}}"#,
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[10,200]},"properties":{}}"#)]
        for text in texts {
            let whole = try GeoJSONReading(text).records
            #expect(whole.count >= 3)
            for chunk in [1, 2, 3, 5, 8, 13] {
                for window in [16, 17, 64] {
                    #expect(try GeoJSONReading(text, chunk: chunk, blockSizeBytes: window).records == whole)
                }
            }
        }
    }
}
