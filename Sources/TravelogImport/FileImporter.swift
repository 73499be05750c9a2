import Foundation
import Synchronization
import TravelogCore
import TravelogFormats
import TravelogStore

/// Imports location files into a store: detects the format from the content, reads it as a stream,
/// stores it in one transaction per file (a broken file stores nothing), and reports what it did.
/// The command line and the server's upload endpoint both go through here.
public struct FileImporter: Sendable {
    public let store: any LocationStore
    /// Locations per insert inside the import's transaction.
    public var batchSize = 10_000
    /// How many rejections a report lists (all are counted).
    public var listedRejections = 20

    public init(store: any LocationStore) {
        self.store = store
    }

    /// Imports one file for a device.
    /// - Parameters:
    ///   - format: the format to read it as; detected from the content when `nil`.
    ///   - progress: called now and then from the importing thread.
    public func importFile(at path: String, deviceID: DeviceID, format: FileFormat? = nil,
                           options: ReaderOptions = ReaderOptions(),
                           progress: (@Sendable (ImportProgress) -> Void)? = nil) async -> ImportReport {
        let fileName = URL(fileURLWithPath: path).lastPathComponent
        var report = ImportReport(path: path, format: format, outcome: .failed(reason: "not read"))
        let chosen: FileFormat
        do {
            if let format {
                chosen = format
            } else {
                switch try Self.detect(path: path) {
                case .format(let detected): chosen = detected
                case .notLocationHistory(let what):
                    report.outcome = .skipped(reason: "not location history: \(what)")
                    return report
                case .unknown:
                    report.outcome = .failed(reason: FormatError.unrecognizedFormat(
                        "expected GPX, KML, GeoJSON, CSV, NMEA, a Google export, OwnTracks .rec or GeoLife .plt").description)
                    return report
                }
            }
        } catch {
            report.outcome = .failed(reason: error.description)
            return report
        }
        report.format = chosen

        let tally = Mutex(report)
        let batchSize = self.batchSize, listed = listedRejections
        do {
            let record = try await store.importLocations(
                deviceID: deviceID,
                provenance: ImportProvenance(fileName: fileName, contentSHA256: nil, format: chosen.rawValue)
            ) { sink in
                let source = HashingByteSource(try FileByteSource(path: path))
                var reader = try chosen.makeReader(source: source, options: options)
                var batch: [Location] = []
                batch.reserveCapacity(batchSize)
                var counts = ImportReport(path: path, format: chosen, outcome: .failed(reason: "not finished"))
                var lastProgress = 0
                func flush() throws {
                    _ = try sink.insert(batch)
                    batch.removeAll(keepingCapacity: true)
                    counts.bytesRead = reader.bytesConsumed
                    if let progress, counts.bytesRead - lastProgress >= 1 << 20 || counts.bytesRead == source.totalByteCount {
                        lastProgress = counts.bytesRead
                        progress(ImportProgress(bytesRead: counts.bytesRead, totalBytes: source.totalByteCount,
                                                locations: counts.locationsRead))
                    }
                }
                while let record = try reader.next() {
                    switch record {
                    case .point(let point):
                        if case .route = point.kind {
                            // A route is a plan (where to go), not where someone went.
                            counts.skipped[FileImporter.routePointDescription, default: 0] += 1
                        } else if let location = point.position.location {
                            counts.locationsRead += 1
                            batch.append(location)
                            if batch.count >= batchSize { try flush() }
                        } else {
                            counts.untimedPoints += 1
                            counts.rejected += 1
                        }
                    case .visit:
                        counts.visitsRead += 1
                    case .rejected(let rejection):
                        counts.rejected += 1
                        if counts.rejections.count < listed { counts.rejections.append(rejection) }
                    }
                }
                try flush()
                counts.bytesRead = reader.bytesConsumed
                counts.skipped.merge(reader.skippedRecords, uniquingKeysWith: +)
                let finalCounts = counts
                tally.withLock { $0 = finalCounts }
                return ImportTally(rejected: finalCounts.rejected, contentSHA256: source.hexDigest)
            }
            report = tally.withLock { $0 }
            report.outcome = .imported(record)
        } catch let error as FormatError {
            report.outcome = .failed(reason: error.description)
        } catch {
            report.outcome = .failed(reason: String(describing: error))
        }
        return report
    }

    /// How route points are named among the records passed over.
    static let routePointDescription = "route point (a planned route, not where you went)"

    /// Detects a file's format from its first bytes.
    public static func detect(path: String) throws(FormatError) -> FormatDetector.Detection {
        var source = try FileByteSource(path: path)
        return FormatDetector.detect(prefix: try source.readBytes(upTo: FormatDetector.prefixLength))
    }
}
