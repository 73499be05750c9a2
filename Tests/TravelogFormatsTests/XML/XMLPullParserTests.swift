import Testing
import TravelogFormats

@Suite("XML pull parser state")
struct XMLPullParserTests {
    private func parser(_ document: String, options: XMLParserOptions = .init()) throws -> XMLPullParser {
        try XMLPullParser(bytes: Array(document.utf8), options: options)
    }

    @Test("a prefixed name has its qualified name and its local name")
    func names() throws {
        let parser = try parser("<gpxtpx:TrackPointExtension><hr/></gpxtpx:TrackPointExtension>")
        #expect(try parser.next() == .startElement)
        #expect(parser.name == "gpxtpx:TrackPointExtension")
        #expect(parser.localName == "TrackPointExtension")
        #expect(try parser.next() == .startElement)
        #expect(parser.name == "hr" && parser.localName == "hr")
        #expect(try parser.next() == .endElement)
        #expect(try parser.next() == .endElement)
        #expect(parser.localName == "TrackPointExtension")
        #expect(try parser.next() == nil)
    }

    @Test("attributes are found by qualified or local name, values decoded")
    func attributes() throws {
        let parser = try parser("<trkpt lat=\"47.5\" lon='8&#46;25' xsi:type=\"x&amp;y\"/>")
        #expect(try parser.next() == .startElement)
        #expect(parser.attributes.count == 3)
        #expect(parser.attribute("lat")?.parseDouble() == 47.5)
        #expect(parser.attribute("lon")?.parseDouble() == 8.25)
        #expect(parser.attribute("type") == nil)
        #expect(parser.attribute("xsi:type")?.string == "x&y")
        #expect(parser.attribute(localName: "type")?.string == "x&y")
        #expect(parser.attributes[2].localName == "type")
        #expect(parser.attribute("ele") == nil)
    }

    @Test("text holds an element's whole content at its end, across comments, CDATA and references")
    func textAccumulator() throws {
        let parser = try parser("<trkpt><ele>12<!-- c -->3.5</ele><name>a &amp; <![CDATA[b]]></name><time></time></trkpt>")
        var texts: [String: String] = [:]
        while let event = try parser.next() {
            if event == .endElement { texts[parser.localName.string] = parser.text.string }
        }
        #expect(texts == ["ele": "123.5", "name": "a & b", "time": "", "trkpt": ""])
    }

    @Test("text is empty at the end of an element whose content was only children")
    func textAfterChildren() throws {
        let parser = try parser("<a>x<b>y</b></a>")
        var atEndOfA: String?
        while let event = try parser.next() {
            if event == .endElement, parser.localName == "a" { atEndOfA = parser.text.string }
        }
        #expect(atEndOfA == "")
    }

    @Test("with collecting off, text stays empty and characters still come")
    func collectingOff() throws {
        let parser = try parser("<a>xyz</a>", options: .init(collectsText: false))
        #expect(try parser.next() == .startElement)
        #expect(try parser.next() == .text)
        #expect(parser.characters == "xyz")
        #expect(try parser.next() == .endElement)
        #expect(parser.text.isEmpty)
    }

    @Test("depth counts the current element, at its start and at its end")
    func depth() throws {
        let parser = try parser("<a><b>t</b></a>")
        var depths: [Int] = []
        while try parser.next() != nil { depths.append(parser.depth) }
        #expect(depths == [1, 2, 2, 2, 1])
    }

    @Test("the open elements are named outermost first")
    func openElements() throws {
        let parser = try parser("<gpx><trk><trkseg>")
        for _ in 0..<3 { _ = try parser.next() }
        #expect(parser.openElementNames == ["gpx", "trk", "trkseg"])
    }

    @Test("an event's position is its first byte: line, column and offset")
    func eventPositions() throws {
        let parser = try parser("<a>\n  <b x='1'>t</b>\n</a>")
        var positions: [SourcePosition] = []
        while try parser.next() != nil { positions.append(parser.eventPosition) }
        #expect(positions == [
            SourcePosition(byteOffset: 0, line: 1, column: 1),  // <a>
            SourcePosition(byteOffset: 3, line: 1, column: 4),  // "\n  "
            SourcePosition(byteOffset: 6, line: 2, column: 3),  // <b>
            SourcePosition(byteOffset: 15, line: 2, column: 12),  // t
            SourcePosition(byteOffset: 16, line: 2, column: 13),  // </b>
            SourcePosition(byteOffset: 20, line: 2, column: 17),  // "\n"
            SourcePosition(byteOffset: 21, line: 3, column: 1),  // </a>
        ])
    }

    @Test("skipping an element reads past its content and its end")
    func skipElement() throws {
        let parser = try parser("<gpx><metadata><name>x</name><link/></metadata><trk/></gpx>")
        #expect(try parser.next() == .startElement)
        #expect(try parser.next() == .startElement)
        #expect(parser.localName == "metadata")
        try parser.skipElement()
        #expect(try parser.next() == .startElement)
        #expect(parser.localName == "trk")
    }

    @Test("the bytes consumed reach the input's size at the end")
    func progress() throws {
        let document = Array("<a>\(String(repeating: "x", count: 5000))</a>".utf8)
        let parser = try XMLPullParser(source: MemoryByteSource(document), options: .init(bufferCapacityBytes: 1024))
        var sawPartial = false
        while try parser.next() != nil {
            if parser.consumedByteCount < document.count { sawPartial = true }
        }
        #expect(sawPartial)
        #expect(parser.consumedByteCount == document.count)
    }

    @Test("the parser reports nothing more after the end of the document")
    func endIsFinal() throws {
        let parser = try parser("<a/>")
        while try parser.next() != nil {}
        #expect(try parser.next() == nil)
    }
}

@Suite("XML pull parser after an error")
struct XMLPullParserErrorTests {
    @Test("after an error, every later call throws the same error")
    func stickyError() throws {
        let parser = try XMLPullParser(bytes: Array("<a></b><c/></a>".utf8))
        #expect(try parser.next() == .startElement)
        let first = #expect(throws: XMLSyntaxError.self) { try parser.next() }
        let second = #expect(throws: XMLSyntaxError.self) { try parser.next() }
        #expect(first != nil && first == second)
    }

    @Test("a missing file is an input error naming the file")
    func missingFile() {
        #expect(throws: FormatError.cannotRead(path: "/nonexistent/track.gpx", reason: "No such file or directory")) {
            try XMLPullParser(path: "/nonexistent/track.gpx")
        }
    }
}
