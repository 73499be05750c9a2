import Testing
import TravelogFormats

@Suite("XML memory stays flat")
struct XMLFlatMemoryTests {
    @Test("a 10 MB track is read with the buffer it started with")
    func longTrack() throws {
        let source = XMLRepeatingSource(
            head: "<?xml version=\"1.0\"?>\n<gpx><trk><trkseg>\n",
            body: "<trkpt lat=\"47.1234567\" lon=\"8.7654321\"><ele>432.1</ele><time>2024-05-01T06:00:00Z</time></trkpt>\n",
            count: 100_000,
            tail: "</trkseg></trk></gpx>\n"
        )
        let parser = try XMLPullParser(source: source, options: .init(skipsWhitespaceText: true, bufferCapacityBytes: 4096))
        var points = 0
        var elevations = 0
        while let event = try parser.next() {
            if event == .endElement, parser.localName == "trkpt" { points += 1 }
            if event == .endElement, parser.localName == "ele", parser.text.parseDouble() == 432.1 { elevations += 1 }
        }
        #expect(points == 100_000)
        #expect(elevations == 100_000)
        #expect(parser.bufferCapacityBytes == 4096)
        #expect(parser.consumedByteCount == source.totalBytes)
    }

    @Test("an 8 MB coordinates text arrives in parts, and without collecting the buffer does not grow")
    func hugeText() throws {
        let tuple = "-122.0841,37.4220,10 "
        let source = XMLRepeatingSource(head: "<kml><LineString><coordinates>", body: tuple, count: 400_000, tail: "</coordinates></LineString></kml>")
        let parser = try XMLPullParser(source: source, options: .init(collectsText: false, bufferCapacityBytes: 4096))
        var textBytes = 0
        var parts = 0
        while let event = try parser.next() {
            if event == .text {
                textBytes += parser.characters.count
                parts += 1
            }
        }
        #expect(textBytes == tuple.utf8.count * 400_000)
        #expect(parts >= textBytes / 4096)
        #expect(parser.bufferCapacityBytes == 4096)
    }

    @Test("a long comment, CDATA section and DOCTYPE pass through a small buffer", arguments: [
        ("<!--", "x-y ", "-->"), ("<![CDATA[", "]x]>", "]]>"), ("<!DOCTYPE a [<!ENTITY e '", "]>\"x", "'>]>"),
    ])
    func longMarkup(open: String, body: String, close: String) throws {
        let isDoctype = open.hasPrefix("<!DOCTYPE")
        let source = XMLRepeatingSource(
            head: isDoctype ? open : "<a>" + open, body: body, count: 100_000, tail: isDoctype ? close + "<a/>" : close + "</a>"
        )
        let parser = try XMLPullParser(source: source, options: .init(collectsText: false, bufferCapacityBytes: 1024))
        var textBytes = 0
        while let event = try parser.next() {
            if event == .text { textBytes += parser.characters.count }
        }
        #expect(textBytes == (open == "<![CDATA[" ? body.utf8.count * 100_000 : 0))
        #expect(parser.bufferCapacityBytes == 1024)
    }
}
