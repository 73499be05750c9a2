import Foundation
import Testing
import TravelogCore
import TravelogFormats

@Suite("KMLReader: rejections, broken files and block boundaries")
struct KMLRejectionTests {
    @Test("wrong whens, coordinates and tuples are rejected where they are; a point is counted once")
    func rejections() throws {
        let document = KMLSamples.rejections
        let outcome = ReaderOutcome.read(.kml, document)
        #expect(outcome.error == nil)
        func at(_ needle: String, _ occurrence: Int = 1) throws -> SourcePosition {
            try #require(sourcePosition(of: needle, in: document, occurrence: occurrence))
        }
        func rejected(_ needle: String, _ reason: RecordRejection.Reason, _ occurrence: Int = 1) throws -> FormatRecord {
            .rejected(RecordRejection(position: try at(needle, occurrence), reason: reason))
        }
        let first = try instant("2024-01-20T08:00:00Z")
        let expected: [FormatRecord] = [
            try rejected("<when>2024-01-20T25", .invalidTime("2024-01-20T25:00:00Z")),
            .point(FormatPoint(kind: .track(track: 0, segment: 0), position: .fix(Location(
                coordinate: try Coordinate(latitude: 2, longitude: 1), altitudeMeters: 3, timestamp: first)))),
            try rejected("<gx:coord>1 200", .invalidCoordinate(.latitudeOutOfRange(200))),
            try rejected("<gx:coord>east", .invalidValue(field: "gx:coord", value: "east north")),
            try rejected("</gx:Track>", .missingField("gx:coord")),
            .point(FormatPoint(kind: .track(track: 1, segment: 0), position: .untimed(try Coordinate(latitude: 47, longitude: 8), altitudeMeters: nil))),
            try rejected("8,200", .invalidCoordinate(.latitudeOutOfRange(200))),
            try rejected("8;47", .invalidValue(field: "coordinates", value: "8;47")),
            try rejected("8,47,1,2", .invalidValue(field: "coordinates", value: "8,47,1,2")),
            .point(FormatPoint(kind: .track(track: 1, segment: 0), position: .untimed(try Coordinate(latitude: 48, longitude: 9), altitudeMeters: nil))),
            try rejected("<when>yesterday", .invalidTime("yesterday")),
            try rejected("</gx:Track>", .missingField("when"), 2),
        ]
        #expect(outcome.records == expected)
    }

    @Test("a truncated KML gives what came before the cut, then FormatError.xml")
    func truncated() throws {
        let document = KMLSamples.groupedTrack
        let cut = try #require(sourcePosition(of: "<gx:coord>-122.0861", in: document)).byteOffset + 8
        let outcome = ReaderOutcome.read(.kml, Array(Array(document.utf8)[..<cut]))
        #expect(outcome.points.count == 2)
        guard case .xml(let error) = outcome.error, case .unexpectedEndOfInput(_, let open) = error.kind else {
            Issue.record("expected FormatError.xml at the end of input, got \(String(describing: outcome.error))")
            return
        }
        #expect(error.position.byteOffset == cut)
        #expect(open == ["kml", "Document", "Folder", "Placemark", "gx:Track"])
    }

    @Test("a document whose root is not kml is refused at its root")
    func wrongRoot() {
        #expect(ReaderOutcome.read(.kml, "<gpx/>").error == .unexpected(
            SourcePosition(byteOffset: 0, line: 1, column: 1), expected: "a <kml> root element", found: "<gpx>"))
    }

    /// Every sample whole and cut in the middle.
    static let documents: [[UInt8]] = KMLSamples.all.flatMap { text -> [[UInt8]] in
        let bytes = Array(text.utf8)
        return [bytes, Array(bytes[..<(bytes.count / 2)])]
    }

    @Test("tiny source chunks and a tiny XML buffer (coordinate text in many pieces) give identical records",
          arguments: 0..<documents.count)
    func chunks(index: Int) {
        let bytes = Self.documents[index]
        let whole = ReaderOutcome.read(.kml, bytes)
        for chunk in [1, 2, 7] {
            #expect(ReaderOutcome.read(.kml, bytes, chunkBytes: chunk) == whole, "chunks of \(chunk) bytes")
        }
        for capacity in [16, 23, 64] {
            #expect(ReaderOutcome.read(.kml, bytes, chunkBytes: 3, bufferCapacityBytes: capacity) == whole, "buffer of \(capacity) bytes")
        }
    }

    @Test("a LineString of 100 000 tuples streams through a 1 KiB buffer: every tuple read, the last one intact")
    func longLineString() throws {
        let tupleCount = 100_000
        var text = "<kml><Placemark><LineString><coordinates>"
        for index in 0..<tupleCount { text += "\(Double(index % 3600) / 10 - 180),\(Double(index % 1800) / 10 - 90),\(index % 100)\n" }
        text += "</coordinates></LineString></Placemark></kml>"
        var reader = try KMLReader(source: MemoryByteSource(Array(text.utf8)), bufferCapacityBytes: 1024)
        var count = 0, last: FormatRecord?
        while let record = try reader.next() {
            count += 1
            last = record
        }
        #expect(count == tupleCount)
        guard case .point(let point) = last else {
            Issue.record("expected a point")
            return
        }
        #expect(point.position == .untimed(try Coordinate(latitude: Double((tupleCount - 1) % 1800) / 10 - 90,
                                                           longitude: Double((tupleCount - 1) % 3600) / 10 - 180),
                                           altitudeMeters: Double((tupleCount - 1) % 100)))
    }
}
