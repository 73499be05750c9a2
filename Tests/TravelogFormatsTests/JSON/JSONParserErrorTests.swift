import Testing
import TravelogFormats

@Suite("JSONParser: syntax errors name the reason and the exact position")
struct JSONParserErrorTests {
    typealias Reason = JSONSyntaxError.Reason

    /// A document on one line, the reason, and the byte offset of the error.
    static let oneLine: [(String, Reason, Int)] = [
        // Truncated input: the position is the end.
        ("", .unexpectedEndOfInput(inside: .value), 0),
        ("   ", .unexpectedEndOfInput(inside: .value), 3),
        ("{", .unexpectedEndOfInput(inside: .object), 1),
        ("[", .unexpectedEndOfInput(inside: .array), 1),
        (#"{"a""#, .unexpectedEndOfInput(inside: .object), 4),
        (#"{"a":"#, .unexpectedEndOfInput(inside: .object), 5),
        (#"{"a":1"#, .unexpectedEndOfInput(inside: .object), 6),
        (#"{"a":1,"#, .unexpectedEndOfInput(inside: .object), 7),
        ("[1,", .unexpectedEndOfInput(inside: .array), 3),
        (#""abc"#, .unexpectedEndOfInput(inside: .string), 4),
        (#"{"ke"#, .unexpectedEndOfInput(inside: .string), 4),
        (#""ab\"#, .unexpectedEndOfInput(inside: .string), 4),
        (#""\u12"#, .unexpectedEndOfInput(inside: .string), 5),
        (#""\uD83D"#, .unexpectedEndOfInput(inside: .string), 7),
        (#""\uD83D\"#, .unexpectedEndOfInput(inside: .string), 8),
        (#""\uD83D\uDE"#, .unexpectedEndOfInput(inside: .string), 11),
        ("-", .unexpectedEndOfInput(inside: .number), 1),
        ("1.", .unexpectedEndOfInput(inside: .number), 2),
        ("1e+", .unexpectedEndOfInput(inside: .number), 3),
        ("tru", .unexpectedEndOfInput(inside: .literal), 3),
        ("[nul", .unexpectedEndOfInput(inside: .literal), 4),
        // Structure.
        (#"{"a" 1}"#, .unexpectedByte(UInt8(ascii: "1"), expected: .colon), 5),
        (#"{"a":1 "b":2}"#, .unexpectedByte(UInt8(ascii: "\""), expected: .commaOrObjectEnd), 7),
        (#"{"a":1]"#, .unexpectedByte(UInt8(ascii: "]"), expected: .commaOrObjectEnd), 6),
        (#"{"a":1,}"#, .unexpectedByte(UInt8(ascii: "}"), expected: .keyAfterComma), 7),
        ("{,}", .unexpectedByte(UInt8(ascii: ","), expected: .keyOrObjectEnd), 1),
        ("{a:1}", .unexpectedByte(UInt8(ascii: "a"), expected: .keyOrObjectEnd), 1),
        ("{1:1}", .unexpectedByte(UInt8(ascii: "1"), expected: .keyOrObjectEnd), 1),
        ("[1 2]", .unexpectedByte(UInt8(ascii: "2"), expected: .commaOrArrayEnd), 3),
        ("[1}", .unexpectedByte(UInt8(ascii: "}"), expected: .commaOrArrayEnd), 2),
        ("[1,]", .unexpectedByte(UInt8(ascii: "]"), expected: .value), 3),
        ("[,1]", .unexpectedByte(UInt8(ascii: ","), expected: .valueOrArrayEnd), 1),
        ("]", .unexpectedByte(UInt8(ascii: "]"), expected: .value), 0),
        (#"{"a":}"#, .unexpectedByte(UInt8(ascii: "}"), expected: .value), 5),
        ("[1]x", .unexpectedByte(UInt8(ascii: "x"), expected: .endOfInput), 3),
        ("[1] [2]", .unexpectedByte(UInt8(ascii: "["), expected: .endOfInput), 4),
        ("1 2", .unexpectedByte(UInt8(ascii: "2"), expected: .endOfInput), 2),
        ("truex", .unexpectedByte(UInt8(ascii: "x"), expected: .endOfInput), 4),
        ("'a'", .unexpectedByte(UInt8(ascii: "'"), expected: .value), 0),
        // Literals.
        ("trUe", .unexpectedByte(UInt8(ascii: "U"), expected: .literal(.true)), 2),
        ("[fals]", .unexpectedByte(UInt8(ascii: "]"), expected: .literal(.false)), 5),
        ("nul l", .unexpectedByte(UInt8(ascii: " "), expected: .literal(.null)), 3),
        ("True", .unexpectedByte(UInt8(ascii: "T"), expected: .value), 0),
        // Numbers.
        ("01", .leadingZero, 0),
        ("[-01]", .leadingZero, 2),
        ("1.e5", .unexpectedByte(UInt8(ascii: "e"), expected: .digit), 2),
        ("-a", .unexpectedByte(UInt8(ascii: "a"), expected: .digit), 1),
        ("[1e]", .unexpectedByte(UInt8(ascii: "]"), expected: .digit), 3),
        (".5", .unexpectedByte(UInt8(ascii: "."), expected: .value), 0),
        ("+1", .unexpectedByte(UInt8(ascii: "+"), expected: .value), 0),
        ("1.5.3", .unexpectedByte(UInt8(ascii: "."), expected: .endOfInput), 3),
        ("1e400", .numberOutOfRange, 0),
        ("[0, -1.8e308]", .numberOutOfRange, 4),
        // Strings.
        (#""a\x""#, .invalidEscape(UInt8(ascii: "x")), 2),
        (#""\'""#, .invalidEscape(UInt8(ascii: "'")), 1),
        (#""\u12G4""#, .invalidUnicodeEscape(.notFourHexDigits), 1),
        (#""ok\u""#, .invalidUnicodeEscape(.notFourHexDigits), 3),
        (#""\uDC00""#, .invalidUnicodeEscape(.unpairedLowSurrogate(0xDC00)), 1),
        (#""\uD800""#, .invalidUnicodeEscape(.unpairedHighSurrogate(0xD800)), 1),
        (#""\uD800\u0041""#, .invalidUnicodeEscape(.unpairedHighSurrogate(0xD800)), 1),
        (#""x\uD800\n""#, .invalidUnicodeEscape(.unpairedHighSurrogate(0xD800)), 2),
        (#""\uD800\uD800""#, .invalidUnicodeEscape(.unpairedHighSurrogate(0xD800)), 1),
        (#""\uD800\uZZZZ""#, .invalidUnicodeEscape(.notFourHexDigits), 7),
        ("\"a\tb\"", .controlCharacterInString(0x09), 2),
        ("[\"a\nb\"]", .controlCharacterInString(0x0A), 3),
        ("\"\u{0}\"", .controlCharacterInString(0x00), 1),
        ("{\"x\\n\u{1F}\":1}", .controlCharacterInString(0x1F), 5),
    ]

    @Test("a malformed document fails at the first offending byte", arguments: oneLine)
    func oneLineError(text: String, reason: Reason, offset: Int) {
        #expect(syntaxError(text) == JSONSyntaxError(reason, at: SourcePosition(byteOffset: offset, line: 1, column: offset + 1)))
    }

    /// Bytes that are not well-formed UTF-8 inside a string (RFC 3629 §4), and the offset of the bad sequence.
    static let malformedUTF8: [([UInt8], UInt8, Int)] = [
        ([0x22, 0xFF, 0x22], 0xFF, 1),
        ([0x22, 0x80, 0x22], 0x80, 1),  // a continuation byte without a lead
        ([0x22, 0x61, 0xC0, 0xAF, 0x22], 0xC0, 2),  // overlong '/'
        ([0x22, 0xC1, 0xBF, 0x22], 0xC1, 1),  // overlong
        ([0x22, 0xE0, 0x80, 0xAF, 0x22], 0xE0, 1),  // overlong in three bytes
        ([0x22, 0xED, 0xA0, 0x80, 0x22], 0xED, 1),  // an encoded surrogate
        ([0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], 0xF0, 1),  // overlong in four bytes
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 0xF4, 1),  // above U+10FFFF
        ([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], 0xF5, 1),
        ([0x22, 0xC3, 0x22], 0xC3, 1),  // a sequence cut by the closing quote
        ([0x22, 0xE2, 0x82, 0x41, 0x22], 0xE2, 1),
        ([0x22, 0x5C, 0x6E, 0xC3, 0x28, 0x22], 0xC3, 3),  // after an escape
        ([0x7B, 0x22, 0xFE, 0x22, 0x3A, 0x31, 0x7D], 0xFE, 2),  // in a key
    ]

    @Test("a string that is not well-formed UTF-8 fails at the bad sequence", arguments: malformedUTF8)
    func invalidUTF8(bytes: [UInt8], lead: UInt8, offset: Int) {
        #expect(syntaxError(bytes) == JSONSyntaxError(.invalidUTF8(lead), at: SourcePosition(byteOffset: offset, line: 1, column: offset + 1)))
    }

    @Test("input that ends inside a UTF-8 sequence ends inside a string")
    func truncatedUTF8() {
        #expect(syntaxError([0x22, 0xE2, 0x82]) == JSONSyntaxError(
            .unexpectedEndOfInput(inside: .string), at: SourcePosition(byteOffset: 3, line: 1, column: 4)))
    }

    @Test("a byte that cannot start a value is named in hex")
    func binaryGarbage() {
        #expect(syntaxError([0x00])?.reason == .unexpectedByte(0x00, expected: .value))
        #expect(syntaxError([0x5B, 0xFF])?.reason == .unexpectedByte(0xFF, expected: .valueOrArrayEnd))
    }

    @Test("line and column count from the last newline")
    func multiline() {
        #expect(syntaxError("{\n  \"a\": 1,\n  \"b\" 2\n}") == JSONSyntaxError(
            .unexpectedByte(UInt8(ascii: "2"), expected: .colon), at: SourcePosition(byteOffset: 18, line: 3, column: 7)))
        #expect(syntaxError("[\r\n1,\n") == JSONSyntaxError(
            .unexpectedEndOfInput(inside: .array), at: SourcePosition(byteOffset: 6, line: 3, column: 1)))
    }

    @Test("nesting deeper than the limit fails at the bracket that goes too deep")
    func depthLimit() {
        #expect(syntaxError("[{\"a\":[", options: .init(maximumDepth: 2)) == JSONSyntaxError(
            .depthLimitExceeded(maximumDepth: 2), at: SourcePosition(byteOffset: 6, line: 1, column: 7)))
        let hostile = String(repeating: "[", count: 100_000)
        #expect(syntaxError(hostile)?.reason == .depthLimitExceeded(maximumDepth: 512))
    }

    @Test("a string longer than the token limit fails instead of growing the buffer without bound")
    func tokenLimit() throws {
        let options = JSONParser.Options(blockSizeBytes: 16, maximumTokenBytes: 64)
        #expect(try tokens("\"" + String(repeating: "a", count: 60) + "\"", options: options) == [.string(String(repeating: "a", count: 60))])
        #expect(syntaxError("\"" + String(repeating: "a", count: 100) + "\"", options: options)?.reason == .tokenTooLong(maximumBytes: 64))
        #expect(syntaxError("\"\\n" + String(repeating: "a", count: 100) + "\"", options: options)?.reason == .tokenTooLong(maximumBytes: 64))
    }

    @Test("the message says what was expected and where", arguments: [
        (#"{"a":1 "b":2}"#, #"expected ',' or '}' after object member, found '"' at line 1, column 8 (byte 7)"#),
        (#"{"a":"ab"#, "unexpected end of input inside a string at line 1, column 9 (byte 8)"),
        (#""\uZZZZ""#, "invalid \\u escape: expected four hexadecimal digits at line 1, column 2 (byte 1)"),
        ("1e999", "number out of range at line 1, column 1 (byte 0)"),
        ("", "unexpected end of input, expected a value at line 1, column 1 (byte 0)"),
        ("[1] 2", "expected end of input after the top-level value, found '2' at line 1, column 5 (byte 4)"),
    ])
    func message(text: String, message: String) {
        #expect(syntaxError(text)?.description == message)
    }

    @Test("invalid UTF-8 is reported by its byte value")
    func utf8Message() {
        #expect(syntaxError([0x22, 0xFF, 0x22])?.description == "invalid UTF-8 byte 0xFF at line 1, column 2 (byte 1)")
    }
}
