import Foundation
import TravelogCore
import TravelogFormats

/// Reading small committed inputs with the Google readers.
enum GoogleReading {
    /// Every record of `bytes` read as `format`, handed to the parser `chunkBytes` at a time.
    static func records(_ bytes: [UInt8], as format: FileFormat, chunkBytes: Int = .max) throws -> [FormatRecord] {
        var reader = try format.makeReader(source: MemoryByteSource(bytes, maximumChunkBytes: chunkBytes))
        var records: [FormatRecord] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }

    static func records(_ text: String, as format: FileFormat, chunkBytes: Int = .max) throws -> [FormatRecord] {
        try records(Array(text.utf8), as: format, chunkBytes: chunkBytes)
    }

    /// The records read before the reader threw, and what it threw (nil when it did not).
    static func recordsUntilFailure(_ text: String, as format: FileFormat) -> (records: [FormatRecord], error: FormatError?) {
        var records: [FormatRecord] = []
        do {
            var reader = try format.makeReader(source: MemoryByteSource(Array(text.utf8)))
            while let record = try reader.next() { records.append(record) }
            return (records, nil)
        } catch {
            return (records, error)
        }
    }

    /// The instant of an ISO 8601 text, for expectations (Foundation's parser, not the one under test).
    static func date(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text) ?? .distantPast
    }
}

extension FormatRecord {
    var point: FormatPoint? { if case .point(let point) = self { point } else { nil } }
    var visit: FormatVisit? { if case .visit(let visit) = self { visit } else { nil } }
    var rejection: RecordRejection? { if case .rejected(let rejection) = self { rejection } else { nil } }
    var location: Location? { point?.position.location }
}
