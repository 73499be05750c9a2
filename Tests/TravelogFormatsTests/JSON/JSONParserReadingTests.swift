import Foundation
import Testing
import TravelogFormats
import TravelogTestSupport

@Suite("JSONParser: the reader's conveniences")
struct JSONParserReadingTests {
    enum RecordKey: String, CaseIterable {
        case latitudeE7, longitudeE7, timestamp
    }

    static let records = """
        {"locations": [
          {"latitudeE7": 525121303, "longitudeE7": 134309551, "accuracy": 25,
           "activity": [{"activity": [{"type": "STILL", "confidence": 100}], "timestamp": "2013-04-15T06:34:36.153Z"}],
           "timestamp": "2013-04-15T06:31:26.860Z"},
          {"timestamp": "2013-04-15T06:32:31.475Z", "latitudeE7": -525122834, "longitudeE7": 134313306, "extra": {"a": [1, {"b": null}]}}
        ], "other": [1, 2, 3]}
        """

    /// Reads a Records.json-like document the way a format reader would.
    static func readLocations(_ text: String, chunk: Int = .max) throws -> [(Int64, Int64, String)] {
        let keys = JSONKeyTable(RecordKey.self)
        var parser = JSONParser(source: MemoryByteSource(Array(text.utf8), maximumChunkBytes: chunk), options: smallWindow)
        var result: [(Int64, Int64, String)] = []
        try parser.expect(.objectStart)
        while try parser.nextKey() {
            guard parser.stringEquals("locations") else {
                try parser.skipValue()
                continue
            }
            try parser.expect(.arrayStart)
            while let element = try parser.nextElement() {
                #expect(element == .objectStart)
                var latitudeE7: Int64 = 0
                var longitudeE7: Int64 = 0
                var timestamp = ""
                while try parser.nextKey() {
                    switch parser.key(in: keys) {
                    case .latitudeE7?: latitudeE7 = try parser.readInt64()
                    case .longitudeE7?: longitudeE7 = try parser.readInt64()
                    case .timestamp?: timestamp = try parser.readString()
                    case nil: try parser.skipValue()
                    }
                }
                result.append((latitudeE7, longitudeE7, timestamp))
            }
        }
        #expect(try parser.next() == nil)
        return result
    }

    @Test("a reader walks keys, reads what it knows and skips the rest, in any chunking", arguments: [1, 3, 7, 4096])
    func reader(chunk: Int) throws {
        let locations = try Self.readLocations(Self.records, chunk: chunk)
        #expect(locations.map(\.0) == [525_121_303, -525_122_834])
        #expect(locations.map(\.1) == [134_309_551, 134_313_306])
        #expect(locations.map(\.2) == ["2013-04-15T06:31:26.860Z", "2013-04-15T06:32:31.475Z"])
    }

    @Test("skipValue skips a whole subtree and leaves the parser after it")
    func skipValue() throws {
        var parser = JSONParser(text: #"[{"a":[1,[2,{"b":"\u00e9"}]],"c":true}, "next", 3]"#)
        try parser.expect(.arrayStart)
        try parser.skipValue()
        #expect(try parser.readString() == "next")
        try parser.skipValue()
        #expect(try parser.nextElement() == nil)
        #expect(try parser.next() == nil)
    }

    @Test("skipValue still reports a syntax error inside what it skips")
    func skipValueChecks() {
        var parser = JSONParser(text: #"{"a": [1, 2 3], "b": 1}"#)
        #expect(throws: JSONSyntaxError(.unexpectedByte(UInt8(ascii: "3"), expected: .commaOrArrayEnd),
                                        at: SourcePosition(byteOffset: 12, line: 1, column: 13))) {
            try parser.expect(.objectStart)
            _ = try parser.nextKey()
            try parser.skipValue()
        }
    }

    @Test("skipValue where no value comes next is a mismatch, not a silent skip")
    func skipValueMisuse() throws {
        var parser = JSONParser(text: "[]")
        try parser.expect(.arrayStart)
        #expect(throws: JSONTypeMismatchError(expected: .value, found: .arrayEnd, at: SourcePosition(byteOffset: 1, line: 1, column: 2))) {
            try parser.skipValue()
        }
    }

    @Test("skipToContainerEnd leaves the innermost object or array")
    func skipToContainerEnd() throws {
        var parser = JSONParser(text: #"{"a": {"x": [1, 2], "y": 3}, "b": 4}"#)
        try parser.expect(.objectStart)
        _ = try parser.nextKey()
        try parser.expect(.objectStart)
        _ = try parser.nextKey()
        try parser.skipToContainerEnd()
        #expect(parser.depth == 1)
        #expect(try parser.nextKey())
        #expect(parser.stringValue == "b")
        #expect(try parser.readInt64() == 4)
    }

    @Test("a value of the wrong kind is a mismatch with its position")
    func mismatches() throws {
        var parser = JSONParser(text: #"{"lat": "52.1", "n": 1.5, "b": null}"#)
        try parser.expect(.objectStart)
        _ = try parser.nextKey()
        #expect(throws: JSONTypeMismatchError(expected: .number, found: .string, at: SourcePosition(byteOffset: 8, line: 1, column: 9))) {
            _ = try parser.readDouble()
        }
        _ = try parser.nextKey()
        #expect(throws: JSONTypeMismatchError(expected: .integer, found: .number, at: SourcePosition(byteOffset: 21, line: 1, column: 22))) {
            _ = try parser.readInt64()
        }
        _ = try parser.nextKey()
        #expect(try parser.readStringOrNull() == nil)
        #expect(throws: JSONTypeMismatchError(expected: .key, found: nil, at: SourcePosition(byteOffset: 35, line: 1, column: 36))) {
            _ = try parser.nextKey()
            _ = try parser.nextKey()
        }
    }

    @Test("a mismatch says what was expected and found")
    func mismatchMessage() {
        let error = JSONTypeMismatchError(expected: .number, found: .string, at: SourcePosition(byteOffset: 8, line: 1, column: 9))
        #expect(error.description == "expected a number, found a string at line 1, column 9 (byte 8)")
    }

    @Test("readers for each kind of value", arguments: [1, 1000])
    func typedReaders(chunk: Int) throws {
        var parser = JSONParser(source: MemoryByteSource(Array(#"[true, 2.5, null, "s", 7, null]"#.utf8), maximumChunkBytes: chunk))
        try parser.expect(.arrayStart)
        #expect(try parser.readBool())
        #expect(try parser.readDoubleOrNull() == 2.5)
        #expect(try parser.readDoubleOrNull() == nil)
        #expect(try parser.readStringOrNull() == "s")
        #expect(try parser.readDouble() == 7)
        #expect(try parser.next() == .null)
        #expect(try parser.nextElement() == nil)
    }

    @Test("a key table matches whole keys only, and the empty key")
    func keyTable() {
        let table = JSONKeyTable([("lat", 1), ("latitude", 2), ("", 3), ("lat", 4)])
        func match(_ text: String) -> Int? { Array(text.utf8).withUnsafeBufferPointer { table.match($0) } }
        #expect(match("lat") == 1)
        #expect(match("latitude") == 2)
        #expect(match("") == 3)
        #expect(match("la") == nil)
        #expect(match("latitudes") == nil)
        // Texts of one length told apart by any byte, first or last.
        let same = JSONKeyTable([("speed", 1), ("spees", 2), ("tpeed", 3), ("a", 4)])
        func sameMatch(_ text: String) -> Int? { Array(text.utf8).withUnsafeBufferPointer { same.match($0) } }
        #expect(sameMatch("speed") == 1)
        #expect(sameMatch("spees") == 2)
        #expect(sameMatch("tpeed") == 3)
        #expect(sameMatch("a") == 4)
        #expect(sameMatch("speex") == nil)
        #expect(sameMatch("") == nil, "no empty text in this table")
        #expect(sameMatch("a much longer key than any") == nil)
    }
}

@Suite("JSON files read in blocks")
struct JSONFileReadingTests {
    @Test("a file is parsed block by block and bytesConsumed reaches its size")
    func file() throws {
        let url = TestDirectory.makeFolder("json").appendingPathComponent("input.json")
        defer { try? FileManager.default.removeItem(at: url) }
        let text = "[" + (0..<5000).map { #"{"i":\#($0),"s":"\u00e9"}"# }.joined(separator: ",\n") + "]"
        try Data(text.utf8).write(to: url)

        var parser = try JSONParser(contentsOfFile: url.path, options: .init(blockSizeBytes: 4096))
        #expect(parser.totalByteCount == text.utf8.count)
        #expect(parser.fractionConsumed == 0)
        var sum: Int64 = 0
        var progress: [Int] = []
        try parser.expect(.arrayStart)
        while try parser.nextElement() != nil {
            while try parser.nextKey() {
                if parser.stringEquals("i") { sum += try parser.readInt64() } else { #expect(try parser.readString() == "é") }
            }
            progress.append(parser.bytesConsumed)
        }
        #expect(try parser.next() == nil)
        #expect(sum == (0..<5000).reduce(0, +))
        #expect(progress == progress.sorted())
        #expect(parser.bytesConsumed == text.utf8.count)
    }

    @Test("a missing file or a folder cannot be opened")
    func missing() {
        #expect(throws: FormatError.cannotRead(path: "/nonexistent/Records.json", reason: "No such file or directory")) {
            _ = try JSONParser(contentsOfFile: "/nonexistent/Records.json")
        }
        #expect(throws: FormatError.cannotRead(path: "/tmp", reason: "not a regular file")) {
            _ = try JSONParser(contentsOfFile: "/tmp")
        }
    }
}
