import Foundation
import Testing
import TravelogCore
import TravelogFormats

/// What reading a whole GeoJSON text gives.
struct GeoJSONReading {
    var records: [FormatRecord]
    var skipped: [GeoJSONReader.SkipReason: Int]

    /// Reads `text` in pieces of `chunk` bytes with a parser window of `blockSizeBytes`, and checks
    /// that every byte was consumed.
    init(_ text: String, chunk: Int = .max, blockSizeBytes: Int = 1 << 20,
         sourceLocation: SourceLocation = #_sourceLocation) throws(FormatError) {
        let bytes = Array(text.utf8)
        let reader = GeoJSONReader(source: MemoryByteSource(bytes, maximumChunkBytes: chunk),
                                   options: JSONParser.Options(blockSizeBytes: blockSizeBytes))
        var records: [FormatRecord] = []
        while let record = try reader.next() { records.append(record) }
        #expect(try reader.next() == nil, sourceLocation: sourceLocation)
        #expect(reader.bytesConsumed == bytes.count, sourceLocation: sourceLocation)
        self.records = records
        skipped = reader.skipped
    }

    var points: [FormatPoint] {
        records.compactMap { if case .point(let point) = $0 { point } else { nil } }
    }

    var visits: [FormatVisit] {
        records.compactMap { if case .visit(let visit) = $0 { visit } else { nil } }
    }

    var rejections: [RecordRejection] {
        records.compactMap { if case .rejected(let rejection) = $0 { rejection } else { nil } }
    }
}

/// The error reading `text` throws, if any (whole records are read until then).
func geoJSONError(_ text: String, chunk: Int = .max) -> FormatError? {
    do {
        _ = try GeoJSONReading(text, chunk: chunk)
        return nil
    } catch {
        return error
    }
}

/// The position of the `occurrence`th `marker` in `text` (1-based line and column in bytes), so
/// that a test names the token it means instead of counting bytes.
func position(of marker: String, in text: String, occurrence: Int = 1) -> SourcePosition {
    let bytes = Array(text.utf8), needle = Array(marker.utf8)
    var found = 0
    for start in 0...(bytes.count - needle.count) where Array(bytes[start..<(start + needle.count)]) == needle {
        found += 1
        guard found == occurrence else { continue }
        let before = bytes[..<start]
        let line = before.filter { $0 == 0x0A }.count + 1
        let lineStart = (before.lastIndex(of: 0x0A).map { $0 + 1 }) ?? 0
        return SourcePosition(byteOffset: start, line: line, column: start - lineStart + 1)
    }
    preconditionFailure("'\(marker)' occurs fewer than \(occurrence) times")
}

/// The UTF-8 length of `text`: where a truncated input ends.
func endPosition(of text: String) -> SourcePosition {
    let bytes = Array(text.utf8)
    let lineStart = (bytes.lastIndex(of: 0x0A).map { $0 + 1 }) ?? 0
    return SourcePosition(byteOffset: bytes.count, line: bytes.filter { $0 == 0x0A }.count + 1,
                          column: bytes.count - lineStart + 1)
}

/// A fix with only a position and a time (everything else unknown).
func simpleFix(_ latitude: Double, _ longitude: Double, altitude: Double? = nil, _ secondsSince1970: Double,
               offset: Int? = nil) throws -> Location {
    Location(coordinate: try Coordinate(latitude: latitude, longitude: longitude), altitudeMeters: altitude,
             timestamp: Date(timeIntervalSince1970: secondsSince1970), utcOffsetSeconds: offset)
}

extension FormatRecord {
    /// A track point of `track`/`segment`.
    static func trackPoint(_ track: Int, _ segment: Int, _ location: Location) -> FormatRecord {
        .point(FormatPoint(kind: .track(track: track, segment: segment), position: .fix(location)))
    }

    /// A point without a time.
    static func untimed(_ kind: FormatPoint.Kind, _ latitude: Double, _ longitude: Double, altitude: Double? = nil,
                        name: String? = nil) throws -> FormatRecord {
        .point(FormatPoint(kind: kind, position: .untimed(try Coordinate(latitude: latitude, longitude: longitude),
                                                          altitudeMeters: altitude), name: name))
    }
}
