import Testing
import TravelogFormats

@Suite("XML syntax errors")
struct XMLSyntaxErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var document: String
        var message: String
        var byteOffset: Int
        var line: Int
        var column: Int
        var testDescription: String { document.debugDescription }

        init(_ document: String, _ message: String, at byteOffset: Int, line: Int = 1, column: Int? = nil) {
            self.document = document
            self.message = message
            self.byteOffset = byteOffset
            self.line = line
            self.column = column ?? byteOffset + 1
        }
    }

    static let cases: [Case] = [
        Case("<gpx><trk><trkseg></trk></gpx>", "expected </trkseg>, found </trk>", at: 18),
        Case("<gpx>\r\n  <trk>\r\n  </gpx>", "expected </trk>, found </gpx>", at: 18, line: 3, column: 3),
        Case("<gpx>\n<trk>\n<trkseg>\n", "unexpected end of input: 3 elements still open: gpx > trk > trkseg", at: 21, line: 4, column: 1),
        Case("<a>", "unexpected end of input: 1 element still open: a", at: 3),
        Case("<a>text", "unexpected end of input: 1 element still open: a", at: 7),
        Case("", "unexpected end of input: no root element", at: 0),
        Case("<!-- only a comment -->\n", "unexpected end of input: no root element", at: 24, line: 2, column: 1),
        Case("<a><b x='1'", "unexpected end of input inside a start tag: 1 element still open: a", at: 11),
        Case("<a></a", "unexpected end of input inside an end tag: 1 element still open: a", at: 6),
        Case("<a><!-- x", "unexpected end of input inside a comment: 1 element still open: a", at: 9),
        Case("<a><![CDATA[abc]]", "unexpected end of input inside a CDATA section: 1 element still open: a", at: 17),
        Case("<a><?pi x", "unexpected end of input inside a processing instruction: 1 element still open: a", at: 9),
        Case("<!DOCTYPE a [ <!ENTITY x '>'> ", "unexpected end of input inside a DOCTYPE declaration", at: 30),
        Case("<a x=1/>", "expected a quote opening the attribute value, found '1'", at: 5),
        Case("<a x/>", "expected '=' after the attribute name, found '/'", at: 4),
        Case("<a x='1'y='2'/>", "expected whitespace, '>' or '/>', found 'y'", at: 8),
        Case("<a =''/>", "expected an attribute name, found '='", at: 3),
        Case("<a x='1' x='2'/>", "attribute x given twice", at: 9),
        Case("<a x='<'/>", "'<' inside an attribute value", at: 6),
        Case("<1a/>", "expected an element name, found '1'", at: 1),
        Case("<a></ a>", "expected an element name, found byte 0x20", at: 5),
        Case("<a></a x>", "expected '>', found 'x'", at: 7),
        Case("<a/ >", "expected '>', found byte 0x20", at: 3),
        Case("<a><!x></a>", "expected '<!--', '<![CDATA[' or '<!DOCTYPE', found 'x'", at: 5),
        Case("<a><!-x></a>", "expected '<!--', '<![CDATA[' or '<!DOCTYPE', found 'x'", at: 6),
        Case("<a><? x?></a>", "expected a processing instruction target, found byte 0x20", at: 5),
        Case("<a>&nbsp;</a>", "unknown entity &nbsp;", at: 3),
        Case("<a t='x&bogus;'/>", "unknown entity &bogus;", at: 7),
        Case("<a>a & b</a>", "'&' not followed by a reference ending in ';'", at: 5),
        Case("<a>&amp</a>", "'&' not followed by a reference ending in ';'", at: 3),
        Case("<a>&#0;</a>", "invalid character reference &#0;", at: 3),
        Case("<a>&#xD800;</a>", "invalid character reference &#xD800;", at: 3),
        Case("<a>&#X43;</a>", "invalid character reference &#X43;", at: 3),
        Case("<a>&#12a;</a>", "invalid character reference &#12a;", at: 3),
        Case("<a>&#x110000;</a>", "invalid character reference &#x110000;", at: 3),
        Case("<a>&#;</a>", "invalid character reference &#;", at: 3),
        Case("<a>\n\n  ok &#x1;</a>", "invalid character reference &#x1;", at: 10, line: 3, column: 6),
        Case("<a><!-- x -- y --></a>", "'--' inside a comment", at: 10),
        Case("<a><!-- x ---></a>", "'--' inside a comment", at: 10),
        Case("<a/>text", "text after the root element", at: 4),
        Case("<a/>\n  <b/>", "element <b> after the root element", at: 7, line: 2, column: 3),
        Case("<a/></a>", "end tag </a> with no open element", at: 4),
        Case("</a>", "end tag </a> with no open element", at: 0),
        Case("text<a/>", "text before the root element", at: 0),
        Case("<![CDATA[x]]><a/>", "CDATA section outside the root element", at: 0),
        Case("<a/><!DOCTYPE a>", "DOCTYPE declaration after the start of the document", at: 4),
        Case("<!DOCTYPE a><!DOCTYPE a><a/>", "DOCTYPE declaration after the start of the document", at: 12),
        Case("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><a/>", "unsupported encoding Shift_JIS", at: 30),
        Case("\n<?xml version='1.0' encoding='EBCDIC'?><a/>", "unsupported encoding EBCDIC", at: 31, line: 2, column: 31),
    ]

    @Test("each malformed document fails with its message at its exact position", arguments: cases)
    func malformed(_ example: Case) {
        let error = #expect(throws: XMLSyntaxError.self) {
            let parser = try XMLPullParser(bytes: Array(example.document.utf8))
            while try parser.next() != nil {}
        }
        #expect(error?.kind.description == example.message)
        #expect(error?.position == SourcePosition(byteOffset: example.byteOffset, line: example.line, column: example.column))
    }

    @Test("a mismatched end tag names both tags")
    func mismatchedKind() {
        #expect(throws: XMLSyntaxError(.mismatchedEndTag(expected: "trkseg", found: "trk"), at: SourcePosition(byteOffset: 18, line: 1, column: 19))) {
            let parser = try XMLPullParser(bytes: Array("<gpx><trk><trkseg></trk></gpx>".utf8))
            while try parser.next() != nil {}
        }
    }

    @Test("the full description of an error ends with its position")
    func description() {
        let error = XMLSyntaxError(
            .unexpectedEndOfInput(inside: nil, openElements: ["gpx", "trk", "trkseg"]),
            at: SourcePosition(byteOffset: 21, line: 4, column: 1)
        )
        #expect(error.description == "unexpected end of input: 3 elements still open: gpx > trk > trkseg at line 4, column 1 (byte 21)")
    }

    @Test("every truncation of a complete document is an error, never a silent success")
    func truncations() throws {
        let document = Array("<?xml version=\"1.0\"?>\n<gpx a=\"1\"><trk><!-- c --><trkpt lat=\"1\"><ele>2&amp;</ele><x/><![CDATA[y]]></trkpt></trk></gpx>".utf8)
        for length in 0..<document.count {
            let prefix = Array(document[..<length])
            let error = #expect(throws: XMLSyntaxError.self, "truncated to \(length) bytes") {
                let parser = try XMLPullParser(bytes: prefix)
                while try parser.next() != nil {}
            }
            // Cut mid-reference (`&am`) the reference is the error; otherwise the end is.
            if let error, case .malformedReference = error.kind { continue }
            #expect(error?.position.byteOffset == length, "truncated to \(length) bytes")
        }
    }

    @Test("a tag longer than the maximum token size is rejected, not buffered without bound")
    func tokenTooLong() {
        let document = "<a x='\(String(repeating: "y", count: 200))'/>"
        #expect(throws: XMLSyntaxError(.tokenTooLong(limitBytes: 64), at: SourcePosition(byteOffset: 0, line: 1, column: 1))) {
            let parser = try XMLPullParser(bytes: Array(document.utf8), options: .init(bufferCapacityBytes: 16, maximumTokenBytes: 64))
            while try parser.next() != nil {}
        }
    }
}
