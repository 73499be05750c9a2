import Testing
import TravelogFormats

@Suite("JSONParser: tokens that straddle block boundaries")
struct JSONChunkBoundaryTests {
    /// Documents whose every token crosses some boundary when cut everywhere: long strings with
    /// escapes, surrogate pairs and multi-byte characters, long numbers, literals, a BOM.
    static let rich: [[UInt8]] = [
        [0xEF, 0xBB, 0xBF] + Array(#"{"a":[1,-2.5e-3,true,false,null]}"#.utf8),
        Array(#"{"name":"Café \u00e9\u0041 \uD83D\uDE00 😀 — ✓","escapes":"\"\\\/\b\f\n\r\t","empty":""}"#.utf8),
        Array(#"[12345678901234567890123, -0.000000000000000000001234, 52.37888580984668, 1E+2, 9223372036854775807]"#.utf8),
        Array("{\n  \"locations\" : [ {\n    \"latitudeE7\" : 525121303,\n    \"timestamp\" : \"2013-04-15T06:31:26.860Z\"\n  } ]\n}\n".utf8),
        Array(#"["a very long string that is longer than the parser's sixteen-byte window, twice over", "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"]"#.utf8),
        Array("\"\(String(repeating: "ж", count: 20))\"".utf8),
    ]

    /// Every document the other tests use, valid or not.
    static var corpus: [[UInt8]] {
        rich
            + JSONParserEventTests.documents.map { Array($0.0.utf8) }
            + JSONParserErrorTests.oneLine.map { Array($0.0.utf8) }
            + JSONParserErrorTests.malformedUTF8.map(\.0)
            + [[0x22, 0xE2, 0x82], Array("{\n  \"a\": 1,\n  \"b\" 2\n}".utf8)]
    }

    @Test("cutting the input at any one point changes nothing", arguments: [JSONParser.Options(), smallWindow])
    func everySplitPoint(options: JSONParser.Options) {
        for bytes in Self.corpus {
            let whole = Outcome(bytes, source: MemoryByteSource(bytes), options: options)
            for cut in 1..<max(bytes.count, 1) {
                let split = Outcome(bytes, source: SplitSource(bytes, cuts: [cut]), options: options)
                #expect(split == whole, "cut at \(cut) of \(String(decoding: bytes, as: UTF8.self).debugDescription)")
            }
        }
    }

    @Test("cutting short inputs at any two points changes nothing")
    func everyPairOfSplitPoints() {
        for bytes in Self.corpus where bytes.count <= 48 {
            let whole = Outcome(bytes, source: MemoryByteSource(bytes))
            for first in 1..<max(bytes.count, 1) {
                for second in first..<bytes.count {
                    let split = Outcome(bytes, source: SplitSource(bytes, cuts: [first, second]), options: smallWindow)
                    #expect(split == whole, "cuts at \(first), \(second) of \(String(decoding: bytes, as: UTF8.self).debugDescription)")
                }
            }
        }
    }

    @Test("reading in chunks of any size from one byte up changes nothing", arguments: [JSONParser.Options(), smallWindow])
    func everyChunkSize(options: JSONParser.Options) {
        for bytes in Self.corpus {
            let whole = Outcome(bytes, source: MemoryByteSource(bytes), options: options)
            for size in 1...max(bytes.count, 1) {
                let chunked = Outcome(bytes, source: MemoryByteSource(bytes, maximumChunkBytes: size), options: options)
                #expect(chunked == whole, "chunks of \(size) of \(String(decoding: bytes, as: UTF8.self).debugDescription)")
            }
        }
    }

    @Test("the rich documents are valid, so the tests above compare events, not only errors")
    func richDocumentsAreValid() throws {
        for bytes in Self.rich {
            #expect(try tokens(of: bytes, source: MemoryByteSource(bytes)).isEmpty == false)
        }
        #expect(try tokens(of: Self.rich[1], source: MemoryByteSource(Self.rich[1]))[2] == .string("Café éA 😀 😀 — ✓"))
    }

    @Test("skipping values gives the same result however the input is cut")
    func skippingAcrossBoundaries() throws {
        for bytes in Self.rich {
            for size in 1...bytes.count {
                var parser = JSONParser(source: MemoryByteSource(bytes, maximumChunkBytes: size), options: smallWindow)
                try parser.skipValue()
                #expect(try parser.next() == nil)
                #expect(parser.bytesConsumed == bytes.count)
            }
        }
    }
}
