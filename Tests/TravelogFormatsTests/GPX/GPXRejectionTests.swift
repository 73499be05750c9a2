import Foundation
import Testing
import TravelogCore
import TravelogFormats

@Suite("GPXReader: wrong points are rejected where they are wrong; broken files fail")
struct GPXRejectionTests {
    @Test("each wrong point is one rejection at the place of the fault, and the points after it are read")
    func rejections() throws {
        let document = GPXSamples.rejections
        let outcome = ReaderOutcome.read(.gpx, document)
        #expect(outcome.error == nil)
        func at(_ needle: String, _ occurrence: Int = 1) -> SourcePosition? {
            sourcePosition(of: needle, in: document, occurrence: occurrence)
        }
        let expected: [RecordRejection?] = [
            at(#"<trkpt lat="200""#).map { RecordRejection(position: $0, reason: .invalidCoordinate(.latitudeOutOfRange(200))) },
            at(#"<trkpt lat="47">"#).map { RecordRejection(position: $0, reason: .missingField("lon")) },
            at(#"<trkpt lat="north""#).map { RecordRejection(position: $0, reason: .invalidValue(field: "lat", value: "north")) },
            at("<time>2024-13-01").map { RecordRejection(position: $0, reason: .invalidTime("2024-13-01T08:00:03Z")) },
            at("<time>2024-02-30").map { RecordRejection(position: $0, reason: .invalidTime("2024-02-30T08:00:04Z")) },
            at("<ele>high").map { RecordRejection(position: $0, reason: .invalidValue(field: "ele", value: "high")) },
            at("<course>400").map { RecordRejection(position: $0, reason: .invalidValue(field: "course", value: "400")) },
            at("<time>1718000000").map { RecordRejection(position: $0, reason: .invalidTime("1718000000")) },
        ]
        #expect(outcome.rejections == expected.compactMap { $0 })
        #expect(outcome.rejections.count == 8)
        #expect(outcome.points.count == 1)
        #expect(outcome.points.first?.position.coordinate == Coordinate(validLatitude: 47.5, longitude: 8.5))
        #expect(outcome.points.first?.kind == .track(track: 0, segment: 0), "rejected points take no number")
    }

    @Test("a position counts bytes of multi-byte characters, lines from 1 and columns from 1")
    func positionsAfterUnicode() throws {
        let document = "<gpx>\n<wpt lat=\"1\" lon=\"2\"><name>Zürich 🏔</name></wpt>\n  <wpt lat=\"-91\" lon=\"2\"/></gpx>"
        let outcome = ReaderOutcome.read(.gpx, document)
        let rejection = try #require(outcome.rejections.first)
        #expect(rejection.position == SourcePosition(byteOffset: 61, line: 3, column: 3))
        #expect(sourcePosition(of: "<wpt lat=\"-91\"", in: document) == rejection.position)
        #expect(outcome.points.first?.name == "Zürich 🏔")
    }

    @Test("a truncated file gives the points before the cut, then FormatError.xml at the end of the input")
    func truncated() throws {
        let document = GPXSamples.gpx11
        let cut = try #require(sourcePosition(of: "<trkpt lat=\"-33", in: document)).byteOffset + 20
        let bytes = Array(Array(document.utf8)[..<cut])
        let outcome = ReaderOutcome.read(.gpx, bytes)
        #expect(outcome.points.count == 2)
        guard case .xml(let error) = outcome.error else {
            Issue.record("expected FormatError.xml, got \(String(describing: outcome.error))")
            return
        }
        #expect(error.position.byteOffset == cut)
        guard case .unexpectedEndOfInput(let construct, let open) = error.kind else {
            Issue.record("expected the end of input, got \(error.kind)")
            return
        }
        #expect(construct == .startTag)
        #expect(open == ["gpx", "trk", "trkseg"])
    }

    @Test("a file cut between tags and a mismatched end tag fail with their positions")
    func malformed() throws {
        let cutBetweenTags = ReaderOutcome.read(.gpx, "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"/>\n")
        #expect(cutBetweenTags.points.count == 1)
        guard case .xml(let end) = cutBetweenTags.error, case .unexpectedEndOfInput(nil, let open) = end.kind else {
            Issue.record("expected the end of input, got \(String(describing: cutBetweenTags.error))")
            return
        }
        #expect(open == ["gpx", "trk", "trkseg"])
        #expect(end.position == SourcePosition(byteOffset: 43, line: 2, column: 1))

        let mismatched = "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"></trkseg></trk></gpx>"
        let outcome = ReaderOutcome.read(.gpx, mismatched)
        #expect(outcome.records.isEmpty)
        #expect(outcome.error == .xml(XMLSyntaxError(.mismatchedEndTag(expected: "trkpt", found: "trkseg"),
                                                      at: SourcePosition(byteOffset: 41, line: 1, column: 42))))
    }

    @Test("a document whose root is not gpx is refused at its root")
    func wrongRoot() {
        let outcome = ReaderOutcome.read(.gpx, "<?xml version=\"1.0\"?>\n<kml><Placemark/></kml>")
        #expect(outcome.error == .unexpected(SourcePosition(byteOffset: 22, line: 2, column: 1),
                                             expected: "a <gpx> root element", found: "<kml>"))
    }

    @Test("an error is thrown again by every later call")
    func errorRepeats() throws {
        var reader = try GPXReader(source: MemoryByteSource(Array("<gpx><trk>".utf8)))
        var first: FormatError?
        do { _ = try reader.next() } catch { first = error }
        let error = try #require(first)
        #expect(throws: error) { _ = try reader.next() }
    }
}
