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
    ///   - skipUnrecognized: name a file of no known format as skipped instead of failing (for the
    ///     files found in a folder, such as a whole Google Takeout).
    public func importFile(at path: String, deviceID: DeviceID, format: FileFormat? = nil,
                           options: ReaderOptions = ReaderOptions(), skipUnrecognized: Bool = false,
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
                case .unknown where skipUnrecognized:
                    report.outcome = .skipped(reason: "not a location file Travelog recognises")
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
        let totalBytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
        let batchSize = self.batchSize, listed = listedRejections
        do {
            let record = try await store.importLocations(
                deviceID: deviceID,
                provenance: ImportProvenance(fileName: fileName, contentSHA256: nil, format: chosen.rawValue)
            ) { sink in
                // The file is read on another thread while this one stores what it read.
                let pipe = BatchPipe<(counts: ImportReport, digest: String)>(capacity: 4)
                DispatchQueue.global().async {
                    do {
                        let result = try Self.read(path: path, format: chosen, options: options, batchSize: batchSize,
                                                   listedRejections: listed, into: pipe)
                        pipe.finish(result)
                    } catch {
                        pipe.fail(error)
                    }
                }
                var lastProgress = 0
                do {
                    while let item = try pipe.take() {
                        _ = try sink.insert(item.locations)
                        if let progress, item.bytesRead - lastProgress >= 1 << 20 || item.locations.isEmpty {
                            lastProgress = item.bytesRead
                            progress(ImportProgress(bytesRead: item.bytesRead, totalBytes: totalBytes,
                                                    locations: item.locationsRead))
                        }
                    }
                } catch {
                    pipe.cancelAndWait()
                    throw error
                }
                guard let (counts, digest) = pipe.result else { throw FormatError.cannotRead(path: path, reason: "reading stopped") }
                tally.withLock { $0 = counts }
                return ImportTally(rejected: counts.rejected, contentSHA256: digest)
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

    /// Reads a whole file into the pipe, batch by batch (on the reading thread).
    /// - Returns: the counts of what was read and the file's SHA-256.
    static func read(path: String, format: FileFormat, options: ReaderOptions, batchSize: Int, listedRejections: Int,
                     into pipe: BatchPipe<(counts: ImportReport, digest: String)>) throws -> (counts: ImportReport, digest: String) {
        let source = HashingByteSource(try FileByteSource(path: path))
        var reader = try format.makeReader(source: source, options: options)
        var counts = ImportReport(path: path, format: format, outcome: .failed(reason: "not finished"))
        var batch: [Location] = []
        batch.reserveCapacity(batchSize)
        while let record = try reader.next() {
            switch record {
            case .point(let point):
                if case .route = point.kind {
                    // A route is a plan (where to go), not where someone went.
                    counts.skipped[routePointDescription, default: 0] += 1
                } else if let location = point.position.location {
                    counts.locationsRead += 1
                    counts.firstTimestamp = min(counts.firstTimestamp ?? location.timestamp, location.timestamp)
                    counts.lastTimestamp = max(counts.lastTimestamp ?? location.timestamp, location.timestamp)
                    batch.append(location)
                    if batch.count >= batchSize {
                        let item = BatchPipe<(counts: ImportReport, digest: String)>.Item(
                            locations: batch, bytesRead: reader.bytesConsumed, locationsRead: counts.locationsRead)
                        guard pipe.put(item) else { return (counts, "") }
                        batch.removeAll(keepingCapacity: true)
                    }
                } else {
                    counts.untimedPoints += 1
                    counts.rejected += 1
                }
            case .visit(let visit):
                counts.visitsRead += 1
                counts.visits.append(visit)
            case .rejected(let rejection):
                counts.rejected += 1
                if counts.rejections.count < listedRejections { counts.rejections.append(rejection) }
            }
        }
        counts.bytesRead = reader.bytesConsumed
        counts.skipped.merge(reader.skippedRecords, uniquingKeysWith: +)
        // The last batch (possibly empty) also tells the consumer the reading is complete.
        _ = pipe.put(.init(locations: batch, bytesRead: counts.bytesRead, locationsRead: counts.locationsRead))
        return (counts, source.hexDigest)
    }

    /// How route points are named among the records passed over.
    static let routePointDescription = "route point (a planned route, not where you went)"

    /// Detects a file's format from its first bytes.
    public static func detect(path: String) throws(FormatError) -> FormatDetector.Detection {
        var source = try FileByteSource(path: path)
        return FormatDetector.detect(prefix: try source.readBytes(upTo: FormatDetector.prefixLength))
    }
}
