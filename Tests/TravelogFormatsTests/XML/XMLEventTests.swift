import Testing
import TravelogFormats

@Suite("XML events")
struct XMLEventTests {
    /// Documents and the events they produce, whitespace text kept.
    static let documents: [(document: String, events: [String])] = [
        ("<a/>", ["<a>", "</a>"]),
        ("<a></a>", ["<a>", "</a>"]),
        ("<a>text</a>", ["<a>", "\"text\"", "</a>"]),
        ("<a x=\"1\" y='2'/>", ["<a x=\"1\" y=\"2\">", "</a>"]),
        ("<a x = \"1\"\n\ty\t=\t'two words' ></a >", ["<a x=\"1\" y=\"two words\">", "</a>"]),
        ("<a q='say \"hi\"' r=\"it's\"/>", ["<a q=\"say \"hi\"\" r=\"it's\">", "</a>"]),
        ("<gpx><trk><trkseg/></trk></gpx>", ["<gpx>", "<trk>", "<trkseg>", "</trkseg>", "</trk>", "</gpx>"]),
        ("<a> <b/> </a>", ["<a>", "\" \"", "<b>", "</b>", "\" \"", "</a>"]),
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a/>\n", ["<a>", "</a>"]),
        ("\n<?xml version='1.0'?><a/>", ["<a>", "</a>"]),
        ("<!-- before --><a><!-- inside -->x<!---->y</a><!-- after -->", ["<a>", "\"x\"", "\"y\"", "</a>"]),
        ("<?pi data?><a><?target some > data?></a><?end?>", ["<a>", "</a>"]),
        ("<!DOCTYPE gpx><gpx/>", ["<gpx>", "</gpx>"]),
        ("<!DOCTYPE a SYSTEM \"a>b.dtd\" [\n<!ENTITY e \"]>\">\n<!-- ]> -->\n<?pi ]>?>\n<!ATTLIST a x CDATA '>'>\n]>\n<a/>", ["<a>", "</a>"]),
        ("<a><![CDATA[<not a tag> & not &amp; an entity]]></a>", ["<a>", "\"<not a tag> & not &amp; an entity\"", "</a>"]),
        ("<a><![CDATA[]]></a>", ["<a>", "</a>"]),
        ("<a><![CDATA[x]y]]z]]]></a>", ["<a>", "\"x]y]]z]\"", "</a>"]),
        ("<a>&lt;&gt;&amp;&quot;&apos;</a>", ["<a>", "\"<>&\"'\"", "</a>"]),
        ("<a>&#65;&#x42;&#xe9;&#8364;&#x1F600;&#0000067;&#x0000044;</a>", ["<a>", "\"ABé€😀CD\"", "</a>"]),
        ("<a t=\"a&amp;b&#x9;c\"/>", ["<a t=\"a&b\tc\">", "</a>"]),
        ("<a t=\"a\tb\nc\r\nd\rd\"/>", ["<a t=\"a b c d d\">", "</a>"]),
        ("<a>line\r\nnext\rlast</a>", ["<a>", "\"line\nnext\nlast\"", "</a>"]),
        ("<a><![CDATA[x\r\ny]]></a>", ["<a>", "\"x\ny\"", "</a>"]),
        ("<gpxtpx:hr xmlns:gpxtpx=\"urn:x\">72</gpxtpx:hr>", ["<gpxtpx:hr xmlns:gpxtpx=\"urn:x\">", "\"72\"", "</gpxtpx:hr>"]),
        ("<a>é ü 日本</a>", ["<a>", "\"é ü 日本\"", "</a>"]),
        ("<_a-b.c:d1 é='ü'/>", ["<_a-b.c:d1 é=\"ü\">", "</_a-b.c:d1>"]),
        ("<a>x > y ]]</a>", ["<a>", "\"x > y ]]\"", "</a>"]),
    ]

    @Test("each document produces exactly its events", arguments: documents)
    func events(document: String, events: [String]) throws {
        #expect(try XMLEventRecorder.events(document) == events)
    }

    @Test("whitespace-only text runs are skipped by option, other text is kept whole")
    func skipsWhitespace() throws {
        let document = "<gpx>\n  <trkpt lat=\"1\">\n    <ele> 12.5 </ele>\n    <name>  </name>\n  </trkpt>\n</gpx>\n"
        let events = try XMLEventRecorder.events(document, options: .init(skipsWhitespaceText: true))
        #expect(events == ["<gpx>", "<trkpt lat=\"1\">", "<ele>", "\" 12.5 \"", "</ele>", "<name>", "</name>", "</trkpt>", "</gpx>"])
    }

    @Test("CDATA made of whitespace is reported even when whitespace text is skipped")
    func whitespaceCDATA() throws {
        let events = try XMLEventRecorder.events("<a><![CDATA[ ]]></a>", options: .init(skipsWhitespaceText: true))
        #expect(events == ["<a>", "\" \"", "</a>"])
    }
}
