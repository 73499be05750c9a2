import Foundation
import TravelogCore
import TravelogFormats

/// Everything reading one document gives: its records in order, and the error that stopped it.
struct ReaderOutcome: Equatable, CustomStringConvertible {
    var records: [FormatRecord] = []
    var error: FormatError?

    /// Reads `bytes` as `format` (GPX or KML) to the end or the first error, `chunkBytes` at a
    /// time from the source, through an XML buffer of `bufferCapacityBytes`.
    static func read(_ format: FileFormat, _ bytes: [UInt8], chunkBytes: Int = .max,
                     bufferCapacityBytes: Int = 128 * 1024) -> ReaderOutcome {
        var outcome = ReaderOutcome()
        let source = MemoryByteSource(bytes, maximumChunkBytes: chunkBytes)
        do throws(FormatError) {
            var reader: any LocationFileReader = switch format {
            case .kml: try KMLReader(source: source, bufferCapacityBytes: bufferCapacityBytes)
            default: try GPXReader(source: source, bufferCapacityBytes: bufferCapacityBytes)
            }
            while let record = try reader.next() { outcome.records.append(record) }
        } catch {
            outcome.error = error
        }
        return outcome
    }

    static func read(_ format: FileFormat, _ text: String, chunkBytes: Int = .max) -> ReaderOutcome {
        read(format, Array(text.utf8), chunkBytes: chunkBytes)
    }

    var points: [FormatPoint] {
        records.compactMap { if case .point(let point) = $0 { point } else { nil } }
    }

    var rejections: [RecordRejection] {
        records.compactMap { if case .rejected(let rejection) = $0 { rejection } else { nil } }
    }

    var kinds: [FormatPoint.Kind] { points.map(\.kind) }

    var locations: [Location] { points.compactMap(\.position.location) }

    var description: String {
        records.map { "\($0)" }.joined(separator: "\n") + (error.map { "\nerror: \($0)" } ?? "")
    }
}

/// Where a piece of a test document is, counted as the readers count: byte offset from 0, line
/// and column (in bytes) from 1.
func sourcePosition(of needle: String, in document: String, occurrence: Int = 1) -> SourcePosition? {
    let bytes = Array(document.utf8), target = Array(needle.utf8)
    var found = 0
    var line = 1, lineStart = 0
    for offset in 0..<bytes.count {
        if bytes[offset...].starts(with: target) {
            found += 1
            if found == occurrence { return SourcePosition(byteOffset: offset, line: line, column: offset - lineStart + 1) }
        }
        if bytes[offset] == 0x0A {
            line += 1
            lineStart = offset + 1
        }
    }
    return nil
}

/// The instant a test writes as an RFC 3339 text, parsed by the shared parser.
func instant(_ text: String) throws -> Date {
    try TimestampParser.parse(text).date
}
