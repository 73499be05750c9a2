import Testing
import TravelogCore
import TravelogFormats

/// The XML parser's buffer starts small and grows while the input is long, and line numbers do not
/// depend on the buffer: a lone CR ends a line as an LF and a CR LF do (XML 1.0 §2.11). Found by
/// fuzzing KML once the buffer started small: a coordinates text with lone CRs, reported in parts,
/// numbered its later tuples' lines differently from the same text read in one part.
@Suite("XML buffer growth and line ends")
struct XMLBufferGrowthTests {
    /// The parser's buffer capacity once it has read the whole document.
    static func capacityAfterReading(_ text: String, capacity: Int = 128 * 1024) throws -> Int {
        let parser = try XMLPullParser(bytes: Array(text.utf8), options: .init(bufferCapacityBytes: capacity))
        while try parser.next() != nil {}
        return parser.bufferCapacityBytes
    }

    @Test("a short document is read through a 4 KB buffer, not the configured 128 KB")
    func shortDocument() throws {
        #expect(try Self.capacityAfterReading("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>") == 4096)
        #expect(try Self.capacityAfterReading("<a/>", capacity: 1024) == 1024)
    }

    @Test("a long document grows the buffer to the configured capacity and no further")
    func longDocument() throws {
        let points = String(repeating: "<trkpt lat=\"47.1234567\" lon=\"8.7654321\"><ele>432.1</ele></trkpt>\n", count: 10_000)
        let text = "<gpx><trk><trkseg>\n" + points + "</trkseg></trk></gpx>"
        #expect(try Self.capacityAfterReading(text) == 128 * 1024)
        #expect(try Self.capacityAfterReading(text, capacity: 16 * 1024) == 16 * 1024)
    }

    /// Bad tuples on lines ended by lone CRs, CR LFs and LFs, many more than a small buffer holds.
    static let bareCarriageReturns: String = {
        var text = "<kml><Placemark><LineString><coordinates>\r"
        for index in 0..<60 {
            let end = ["\r", "\r\n", "\n", "\r\r"][index % 4]
            text += "  bad\(index) 8.5,47.\(index),400\(end)"
        }
        return text + "</coordinates></LineString></Placemark></kml>"
    }()

    @Test("lone CRs count as line ends: a KML coordinates text gives the same rejections at the same lines in one part or many")
    func loneCarriageReturns() throws {
        let bytes = Array(Self.bareCarriageReturns.utf8)
        let whole = ReaderOutcome.read(.kml, bytes)
        #expect(whole.error == nil)
        #expect(whole.rejections.count == 60)
        #expect(whole.points.count == 60)
        // Tuple 5 starts the line after 5 lines ended by CR, CR LF, LF, CR CR (two), CR: line 1 + 1 + 6.
        #expect(whole.rejections.dropFirst(5).first?.position.line == 8)
        #expect(whole.rejections.last?.position.line == 2 + 14 * 5 + 3)
        for chunk in [1, 3, 118] {
            #expect(ReaderOutcome.read(.kml, bytes, chunkBytes: chunk) == whole, "blocks of \(chunk) bytes")
        }
        // Through buffers smaller than the text, it arrives in parts: the lines still agree (byte
        // offsets after a CR LF may be early, as KMLCoordinateText says).
        for capacity in [16, 64, 4096] {
            let other = ReaderOutcome.read(.kml, bytes, chunkBytes: 3, bufferCapacityBytes: capacity)
            #expect(other.points == whole.points, "buffer of \(capacity) bytes")
            #expect(other.rejections.map(\.position.line) == whole.rejections.map(\.position.line), "buffer of \(capacity) bytes")
        }
    }

    @Test("an error after lone CRs is reported at the line an editor shows")
    func errorLine() {
        let outcome = ReaderOutcome.read(.gpx, "<gpx>\r<trk>\r\r<trkseg>\r\n</trk>")
        guard case .xml(let error)? = outcome.error else {
            Issue.record("expected an XML error, got \(outcome)")
            return
        }
        #expect(error.position.line == 5)
    }
}
