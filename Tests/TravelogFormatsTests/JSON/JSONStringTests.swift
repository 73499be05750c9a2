import Testing
import TravelogFormats

@Suite("JSONParser: strings")
struct JSONStringTests {
    static let escapes: [(String, String)] = [
        (#""\"""#, "\""), (#""\\""#, "\\"), (#""\/""#, "/"), (#""\b\f\n\r\t""#, "\u{8}\u{C}\n\r\t"),
        (#""\u0041\u00e9\u00E9""#, "Aéé"), (#""\u0000""#, "\u{0}"), (#""\u20AC""#, "€"), (#""\uFFFF""#, "\u{FFFF}"),
        (#""\uD83D\uDE00""#, "😀"), (#""\uD800\uDC00""#, "\u{10000}"), (#""\uDBFF\uDFFF""#, "\u{10FFFF}"),
        (#""a\nb\u0063d""#, "a\nbcd"), (#""plain""#, "plain"),
    ]

    @Test("every escape decodes, \\u including surrogate pairs", arguments: escapes)
    func escape(text: String, expected: String) throws {
        #expect(try tokens(text) == [.string(expected)])
    }

    @Test("well-formed UTF-8 of every length passes through unchanged", arguments: [
        "é", "€", "😀", "Zürich – 東京 – 🏔", "\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}", "\u{D7FF}\u{E000}",
    ])
    func utf8(text: String) throws {
        #expect(try tokens("\"\(text)\"") == [.string(text)])
        #expect(try tokens("{\"\(text)\":1}") == [.objectStart, .key(text), .int(1), .objectEnd])
    }

    @Test("stringEquals compares the decoded key with a static string without allocating")
    func staticComparison() throws {
        var parser = JSONParser(text: #"{"latitudeE7":1,"lat\u0069tudeE7":2,"latitude":3}"#)
        var matches: [Bool] = []
        while let event = try parser.next() {
            if event == .key { matches.append(parser.stringEquals("latitudeE7")) }
        }
        #expect(matches == [true, true, false])
    }

    @Test("withStringBytes hands out the decoded bytes")
    func bytes() throws {
        var parser = JSONParser(text: #"["A\u00e9"]"#)
        _ = try parser.next()
        #expect(try parser.next() == .string)
        #expect(parser.withStringBytes { Array($0) } == [0x41, 0xC3, 0xA9])
    }

    @Test("a string longer than the window is read whole, escaped or not")
    func longStrings() throws {
        let plain = String(repeating: "abcdefghij", count: 1000)
        let escaped = String(repeating: "\\u00e9\\n", count: 1000)
        #expect(try tokens("[\"\(plain)\", \"\(escaped)\"]", options: smallWindow) == [
            .arrayStart, .string(plain), .string(String(repeating: "é\n", count: 1000)), .arrayEnd,
        ])
    }
}
