import Testing
import TravelogFormats

/// The parser reads blocks: whatever the block boundaries and the buffer size, a document must
/// give the same events (text parts merged) or the same error at the same position.
@Suite("XML block boundaries")
struct XMLChunkingTests {
    static let documents: [String] = [
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE gpx [<!ENTITY x \"]>\">]>\n<gpx version=\"1.1\" creator='t'>\r\n <trk><trkseg><trkpt lat=\"47.1\" lon=\"8.2\"><ele>1.5</ele><time>2024-01-01T00:00:00Z</time></trkpt><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk>\n</gpx>\n<!-- end -->",
        "<a x='&lt;&#x20AC;&amp;' y=\"é\tü\">t&amp;e&#233;&#x1F600;x\r\ny<![CDATA[<c>]]]]>]]><!-- c --><?p i?>日本語</a>",
        "<kml xmlns:gx=\"http://www.google.com/kml/ext/2.2\"><gx:Track><when>2024-01-20T08:00:00Z</when><gx:coord>-122.1 37.4 10</gx:coord></gx:Track></kml>",
        // Malformed: the error must not move with the boundaries.
        "<gpx>\n<trk>\n<trkseg>\n</trk>",
        "<a>\n  text &bogus; more</a>",
        "<a b='1' b='2'/>",
        "<a><!-- a -- b --></a>",
        "<gpx><trk><trkseg><trkpt lat=\"1\"",
        "<a>x</a>\ntrailing",
    ]

    @Test("every split point of a document gives the outcome of one block", arguments: documents)
    func everySplit(document: String) {
        let bytes = Array(document.utf8)
        let whole = XMLOutcome(MemoryByteSource(bytes))
        for split in 1..<bytes.count {
            #expect(XMLOutcome(XMLSplitSource(bytes, splits: [split])) == whole, "split at \(split)")
        }
    }

    @Test("byte-by-byte reading gives the outcome of one block", arguments: documents)
    func byteByByte(document: String) {
        let bytes = Array(document.utf8)
        #expect(XMLOutcome(MemoryByteSource(bytes, maximumChunkBytes: 1)) == XMLOutcome(MemoryByteSource(bytes)))
    }

    @Test("a tiny buffer (text in parts, tags growing it) gives the outcome of a large one", arguments: documents)
    func tinyBuffer(document: String) {
        let bytes = Array(document.utf8)
        let whole = XMLOutcome(MemoryByteSource(bytes))
        for capacity in [16, 17, 23, 32] {
            let options = XMLParserOptions(bufferCapacityBytes: capacity)
            #expect(XMLOutcome(MemoryByteSource(bytes, maximumChunkBytes: 5), options: options) == whole, "buffer \(capacity)")
            #expect(XMLOutcome(MemoryByteSource(bytes, maximumChunkBytes: 1), options: options) == whole, "buffer \(capacity)")
        }
    }

    @Test("a long text arrives in parts that never cut a reference, a CR LF or a UTF-8 sequence")
    func textParts() throws {
        let unit = "ab&amp;é€😀\r\n&#x1F600;"
        let document = "<a>" + String(repeating: unit, count: 40) + "</a>"
        let expected = String(repeating: "ab&é€😀\n😀", count: 40)
        for capacity in 16...40 {
            let parser = try XMLPullParser(bytes: Array(document.utf8), options: .init(bufferCapacityBytes: capacity))
            var parts: [String] = []
            var collected = ""
            while let event = try parser.next() {
                if event == .text {
                    let bytes = Array(parser.characters)
                    #expect(String(validating: bytes, as: UTF8.self) != nil, "a part is valid UTF-8 on its own")
                    parts.append(parser.characters.string)
                }
                if event == .endElement { collected = parser.text.string }
            }
            #expect(parts.count > 1, "buffer \(capacity)")
            #expect(parts.joined() == expected, "buffer \(capacity)")
            #expect(collected == expected, "buffer \(capacity)")
        }
    }

    @Test("a long CDATA section arrives in parts without losing a bracket")
    func cdataParts() throws {
        let content = String(repeating: "x]]y]", count: 30) + "]"
        let parser = try XMLPullParser(bytes: Array("<a><![CDATA[\(content)]]></a>".utf8), options: .init(bufferCapacityBytes: 16))
        var parts = 0
        var text = ""
        while let event = try parser.next() {
            if event == .text { parts += 1 }
            if event == .endElement { text = parser.text.string }
        }
        #expect(parts > 1)
        #expect(text == content)
    }
}
