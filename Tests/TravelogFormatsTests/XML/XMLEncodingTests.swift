import Testing
import TravelogFormats

@Suite("XML encodings")
struct XMLEncodingTests {
    static func utf16(_ text: String, bigEndian: Bool, byteOrderMark: Bool) -> [UInt8] {
        let units = (byteOrderMark ? [UInt16(0xFEFF)] : []) + Array(text.utf16)
        return units.flatMap { unit in
            bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
    }

    static let document = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<gpx creator=\"Zürich 😀\">\r\n<name>Café &amp; 日本 😀</name><![CDATA[<x>]]></gpx>\n"
    static let expectedEvents = ["<gpx creator=\"Zürich 😀\">", "\"\n\"", "<name>", "\"Café & 日本 😀\"", "</name>", "\"<x>\"", "</gpx>"]

    private func outcome(_ bytes: [UInt8]) throws -> (XMLEncoding, [String]) {
        let parser = try XMLPullParser(bytes: bytes)
        return (parser.encoding, try XMLEventRecorder.events(of: parser, mergingText: true))
    }

    @Test("UTF-8 with and without a byte-order mark")
    func utf8() throws {
        let plain = Array(Self.document.utf8)
        #expect(try outcome(plain) == (.utf8, Self.expectedEvents))
        #expect(try outcome([0xEF, 0xBB, 0xBF] + plain) == (.utf8, Self.expectedEvents))
    }

    @Test("UTF-16 in both byte orders, told by a byte-order mark or by the bytes of '<?'", arguments: [
        (false, true, XMLEncoding.utf16LittleEndian), (false, false, .utf16LittleEndian),
        (true, true, .utf16BigEndian), (true, false, .utf16BigEndian),
    ])
    func utf16(bigEndian: Bool, byteOrderMark: Bool, encoding: XMLEncoding) throws {
        let bytes = Self.utf16(Self.document, bigEndian: bigEndian, byteOrderMark: byteOrderMark)
        #expect(try outcome(bytes) == (encoding, Self.expectedEvents))
    }

    @Test("UTF-16 without a declaration is recognised from its first element")
    func utf16WithoutDeclaration() throws {
        #expect(try outcome(Self.utf16("<gpx>é</gpx>", bigEndian: false, byteOrderMark: false)) == (.utf16LittleEndian, ["<gpx>", "\"é\"", "</gpx>"]))
    }

    @Test("UTF-16 split at every byte, odd offsets and mid-surrogate included, reads the same")
    func utf16Splits() throws {
        let bytes = Self.utf16("<a x='😀'>é😀z</a>", bigEndian: false, byteOrderMark: true)
        let whole = XMLOutcome(MemoryByteSource(bytes))
        #expect(whole == .events(["<a x=\"😀\">", "\"é😀z\"", "</a>"]))
        for split in 1..<bytes.count {
            #expect(XMLOutcome(XMLSplitSource(bytes, splits: [split])) == whole, "split at \(split)")
        }
        #expect(XMLOutcome(MemoryByteSource(bytes, maximumChunkBytes: 1), options: .init(bufferCapacityBytes: 16)) == whole)
    }

    @Test("positions in UTF-16 count the original bytes (2 per character, 4 per surrogate pair)")
    func utf16Positions() {
        // BOM (2) + "<a>" (6) + "😀" (4) + "\n" (2): `</b>` starts at byte 14, line 2, column 1.
        let bytes = Self.utf16("<a>😀\n</b>", bigEndian: true, byteOrderMark: true)
        #expect(XMLOutcome(MemoryByteSource(bytes)) == .failure(XMLSyntaxError(
            .mismatchedEndTag(expected: "a", found: "b"), at: SourcePosition(byteOffset: 14, line: 2, column: 1)
        )))
        // "<a>x" then `</b>` at byte 2 + 8 = 10, column 11.
        let sameLine = Self.utf16("<a>x</b>", bigEndian: false, byteOrderMark: true)
        #expect(XMLOutcome(MemoryByteSource(sameLine)) == .failure(XMLSyntaxError(
            .mismatchedEndTag(expected: "a", found: "b"), at: SourcePosition(byteOffset: 10, line: 1, column: 11)
        )))
    }

    @Test("an unpaired surrogate or a trailing odd byte is malformed UTF-16, at its offset")
    func malformedUTF16() {
        var lone = Self.utf16("<a>xy</a>", bigEndian: false, byteOrderMark: true)
        lone[10] = 0x00  // "y" (bytes 10, 11) becomes the low surrogate U+DC00
        lone[11] = 0xDC
        #expect(XMLOutcome(MemoryByteSource(lone)) == .failure(XMLSyntaxError(
            .malformedEncoding(.utf16LittleEndian), at: SourcePosition(byteOffset: 10, line: 1, column: 11)
        )))
        let odd = Self.utf16("<a/>", bigEndian: true, byteOrderMark: true) + [0x00]
        #expect(XMLOutcome(MemoryByteSource(odd)) == .failure(XMLSyntaxError(
            .malformedEncoding(.utf16BigEndian), at: SourcePosition(byteOffset: 10, line: 1, column: 11)
        )))
    }

    @Test("ISO-8859-1 declared: each byte is its code point; positions count original bytes")
    func latin1() {
        let bytes = Array("<?xml version='1.0' encoding='ISO-8859-1'?><a t='".utf8) + [0xE9] + Array("'>".utf8) + [0xFC, 0xA0, 0xFF] + Array("</a>".utf8)
        #expect(XMLOutcome(MemoryByteSource(bytes)) == .events(["<a t=\"é\">", "\"ü\u{A0}ÿ\"", "</a>"]))
        let mismatch = Array("<?xml version=\"1.0\" encoding=\"latin1\"?>\n<a>".utf8) + [0xE9, 0xE9] + Array("</b>".utf8)
        // Line 2 is `<a>éé</b>`: `</b>` at column 6 (one byte per é), byte 40 + 5.
        #expect(XMLOutcome(MemoryByteSource(mismatch)) == .failure(XMLSyntaxError(
            .mismatchedEndTag(expected: "a", found: "b"), at: SourcePosition(byteOffset: 45, line: 2, column: 6)
        )))
    }

    @Test("Windows-1252 declared maps 0x80–0x9F to its printable characters")
    func windows1252() {
        let bytes = Array("<?xml version=\"1.0\" encoding=\"windows-1252\"?><a>".utf8) + [0x80, 0x93, 0x94, 0x85, 0xE9] + Array("</a>".utf8)
        #expect(XMLOutcome(MemoryByteSource(bytes)) == .events(["<a>", "\"€“”…é\"", "</a>"]))
    }

    @Test("a UTF-32 byte-order mark is refused as an unsupported encoding")
    func utf32() {
        #expect(XMLOutcome(MemoryByteSource([0x00, 0x00, 0xFE, 0xFF, 0, 0, 0, 0x3C])) == .failure(XMLSyntaxError(
            .unsupportedEncoding(name: "UTF-32"), at: SourcePosition(byteOffset: 0, line: 1, column: 1)
        )))
    }

    @Test("encoding names are recognised without case", arguments: [
        ("utf-8", XMLEncoding.utf8), ("US-ASCII", .utf8), ("iso-8859-1", .latin1), ("ISO_8859-1", .latin1),
        ("Windows-1252", .windows1252), ("CP1252", .windows1252),
    ])
    func declaredNames(name: String, encoding: XMLEncoding) throws {
        let parser = try XMLPullParser(bytes: Array("<?xml version=\"1.0\" encoding=\"\(name)\"?><a/>".utf8))
        #expect(parser.encoding == encoding)
    }
}
