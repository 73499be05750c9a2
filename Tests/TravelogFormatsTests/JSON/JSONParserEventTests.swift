import Testing
import TravelogFormats

@Suite("JSONParser: events of valid documents")
struct JSONParserEventTests {
    static let documents: [(String, [JSONToken])] = [
        ("{}", [.objectStart, .objectEnd]),
        ("[]", [.arrayStart, .arrayEnd]),
        ("  \n\t\r [ ] \n", [.arrayStart, .arrayEnd]),
        ("0", [.int(0)]),
        ("-12", [.int(-12)]),
        ("3.25", [.double(3.25)]),
        ("true", [.bool(true)]),
        ("false", [.bool(false)]),
        ("null", [.null]),
        ("\"\"", [.string("")]),
        ("\"Zürich\"", [.string("Zürich")]),
        (#"{"a":1}"#, [.objectStart, .key("a"), .int(1), .objectEnd]),
        (#"{ "a" : 1 , "b" : [ true , null ] }"#,
         [.objectStart, .key("a"), .int(1), .key("b"), .arrayStart, .bool(true), .null, .arrayEnd, .objectEnd]),
        (#"[1,"two",{"three":3.5},[],{}]"#,
         [.arrayStart, .int(1), .string("two"), .objectStart, .key("three"), .double(3.5), .objectEnd,
          .arrayStart, .arrayEnd, .objectStart, .objectEnd, .arrayEnd]),
        (#"[[[[]]]]"#, [.arrayStart, .arrayStart, .arrayStart, .arrayStart, .arrayEnd, .arrayEnd, .arrayEnd, .arrayEnd]),
        (#"{"":""}"#, [.objectStart, .key(""), .string(""), .objectEnd]),
        (#"{"a":1,"a":2}"#, [.objectStart, .key("a"), .int(1), .key("a"), .int(2), .objectEnd]),
        (#"{"k\"ey":"v\\al"}"#, [.objectStart, .key("k\"ey"), .string("v\\al"), .objectEnd]),
        ("""
        {
          "locations": [{
            "latitudeE7": 525121303,
            "longitudeE7": -134309551,
            "timestamp": "2013-04-15T06:31:26.860Z"
          }]
        }
        """, [.objectStart, .key("locations"), .arrayStart, .objectStart,
              .key("latitudeE7"), .int(525_121_303), .key("longitudeE7"), .int(-134_309_551),
              .key("timestamp"), .string("2013-04-15T06:31:26.860Z"), .objectEnd, .arrayEnd, .objectEnd]),
    ]

    @Test("a valid document gives its events in order", arguments: documents)
    func events(text: String, expected: [JSONToken]) throws {
        #expect(try tokens(text) == expected)
    }

    @Test("after the document next() keeps returning nil")
    func endIsSticky() throws {
        var parser = JSONParser(text: "[1]")
        _ = try tokens(of: &parser)
        #expect(try parser.next() == nil)
        #expect(try parser.next() == nil)
    }

    @Test("a UTF-8 byte order mark at the start is skipped, and columns count from after it")
    func byteOrderMark() throws {
        var parser = JSONParser(bytes: [0xEF, 0xBB, 0xBF] + Array(#"{"a":1}"#.utf8))
        #expect(try parser.next() == .objectStart)
        #expect(parser.tokenPosition == SourcePosition(byteOffset: 3, line: 1, column: 1))
        #expect(try tokens(of: &parser) == [.key("a"), .int(1), .objectEnd])
    }

    @Test("a byte order mark anywhere but the start is an error")
    func byteOrderMarkLater() {
        let error = syntaxError([0x20, 0xEF, 0xBB, 0xBF, 0x31])
        #expect(error?.reason == .unexpectedByte(0xEF, expected: .value))
    }

    @Test("token positions give byte offset, line and column of each token")
    func tokenPositions() throws {
        var parser = JSONParser(text: "{\n  \"a\": [1,\n    true]\n}")
        var positions: [SourcePosition] = []
        while try parser.next() != nil { positions.append(parser.tokenPosition) }
        #expect(positions == [
            SourcePosition(byteOffset: 0, line: 1, column: 1),  // {
            SourcePosition(byteOffset: 4, line: 2, column: 3),  // "a"
            SourcePosition(byteOffset: 9, line: 2, column: 8),  // [
            SourcePosition(byteOffset: 10, line: 2, column: 9),  // 1
            SourcePosition(byteOffset: 17, line: 3, column: 5),  // true
            SourcePosition(byteOffset: 21, line: 3, column: 9),  // ]
            SourcePosition(byteOffset: 23, line: 4, column: 1),  // }
        ])
    }

    @Test("depth counts the open objects and arrays")
    func depth() throws {
        var parser = JSONParser(text: #"[{"a":[]}]"#)
        var depths: [Int] = []
        while try parser.next() != nil { depths.append(parser.depth) }
        #expect(depths == [1, 2, 2, 3, 2, 1, 0])
    }

    @Test("bytesConsumed reaches the input length, for a progress bar")
    func progress() throws {
        let text = #"{"a": [1, 2, 3]}   "#
        var parser = JSONParser(text: text)
        #expect(parser.totalByteCount == text.utf8.count)
        var previous = 0
        while try parser.next() != nil {
            #expect(parser.bytesConsumed >= previous)
            previous = parser.bytesConsumed
        }
        #expect(parser.bytesConsumed == text.utf8.count)
        #expect(parser.fractionConsumed == 1)
    }

    @Test("nesting up to the depth limit is accepted")
    func depthLimitReached() throws {
        let text = String(repeating: "[", count: 8) + String(repeating: "]", count: 8)
        #expect(try tokens(text, options: .init(maximumDepth: 8)).count == 16)
    }
}

@Suite("JSONParser: several top-level values (JSON Lines)")
struct JSONLinesTests {
    static let lines = JSONParser.Options.jsonLines

    @Test("values on separate lines are read one after the other")
    func values() throws {
        let text = "{\"_type\":\"location\",\"lat\":52.5}\n[1]\r\n\n\"x\"\n7\n"
        #expect(try tokens(text, options: Self.lines) == [
            .objectStart, .key("_type"), .string("location"), .key("lat"), .double(52.5), .objectEnd,
            .arrayStart, .int(1), .arrayEnd, .string("x"), .int(7),
        ])
    }

    @Test("a value may span lines, and empty input holds no values")
    func multiline() throws {
        #expect(try tokens("{\n\"a\":\n1\n}\n{}", options: Self.lines) == [
            .objectStart, .key("a"), .int(1), .objectEnd, .objectStart, .objectEnd,
        ])
        #expect(try tokens("", options: Self.lines) == [])
        #expect(try tokens(" \n ", options: Self.lines) == [])
    }

    @Test("two values on one line are an error")
    func sameLine() {
        #expect(syntaxError("{} {}", options: Self.lines)
            == JSONSyntaxError(.unexpectedByte(UInt8(ascii: "{"), expected: .newlineBetweenValues),
                               at: SourcePosition(byteOffset: 3, line: 1, column: 4)))
    }
}
