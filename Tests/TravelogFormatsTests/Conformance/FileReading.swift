import Foundation
import TravelogCore
import TravelogFormats
import TravelogTestSupport

/// Reads a whole file with the reader of its detected (or given) format, for tests.
enum FileReading {
    struct Result {
        var format: FileFormat
        var records: [FormatRecord]

        var points: [FormatPoint] {
            records.compactMap { if case .point(let point) = $0 { return point } else { return nil } }
        }
        var trackPoints: [FormatPoint] {
            points.filter { if case .track = $0.kind { return true } else { return false } }
        }
        var visits: [FormatVisit] {
            records.compactMap { if case .visit(let visit) = $0 { return visit } else { return nil } }
        }
        var rejections: [RecordRejection] {
            records.compactMap { if case .rejected(let rejection) = $0 { return rejection } else { return nil } }
        }
    }

    enum Failure: Error, CustomStringConvertible {
        case notRecognised(String, FormatDetector.Detection)
        var description: String {
            switch self {
            case .notRecognised(let path, let detection): "\(path): detected as \(detection)"
            }
        }
    }

    static func read(_ url: URL, format: FileFormat? = nil, options: ReaderOptions = ReaderOptions(),
                     chunkBytes: Int = .max) throws -> Result {
        let bytes = Array(try Data(contentsOf: url))
        let chosen: FileFormat
        if let format {
            chosen = format
        } else {
            let detection = FormatDetector.detect(prefix: Array(bytes.prefix(FormatDetector.prefixLength)))
            guard case .format(let detected) = detection else { throw Failure.notRecognised(url.path, detection) }
            chosen = detected
        }
        var reader = try chosen.makeReader(source: MemoryByteSource(bytes, maximumChunkBytes: chunkBytes), options: options)
        var records: [FormatRecord] = []
        while let record = try reader.next() { records.append(record) }
        return Result(format: chosen, records: records)
    }

    static func readShared(_ relativePath: String, format: FileFormat? = nil) throws -> Result {
        try read(SharedFixtures.url(relativePath), format: format)
    }
}
