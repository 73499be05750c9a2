import Foundation
import TravelogCore
import TravelogFormats
import TravelogStore

/// Imports location files through the write path: detects the format from the content, reads it as
/// a stream a batch at a time (storing one batch while the next is read), and reports what it did.
/// A file is all or nothing: its batches belong to a running import that is discarded when the
/// file turns out broken, so a broken file leaves the history as it was. The command line, the
/// upload API and the page all come through here.
public struct FileImporter: Sendable {
    public let writer: HistoryWriter
    /// Locations per stored batch.
    public var batchSize = 10_000
    /// How many rejections a report lists (all are counted).
    public var listedRejections = 20

    public init(writer: HistoryWriter) {
        self.writer = writer
    }

    /// Imports one file or archive entry.
    /// - Parameters:
    ///   - target: the device; resolved (created when new) once the first batch is to be stored.
    ///   - format: the format to read it as; detected from the content when `nil`.
    ///   - skipUnrecognized: name a file of no known format as skipped instead of failing (for the
    ///     files found in a folder or an archive, such as a whole Google Takeout).
    ///   - progress: called after every batch.
    ///
    /// A cancelled task (an upload whose client went away) stops before the next batch: the import
    /// is discarded and reported failed.
    public func importInput(_ input: ImportInput, to target: inout DeviceTarget, format: FileFormat? = nil,
                            options: ReaderOptions = ReaderOptions(), skipUnrecognized: Bool = false,
                            progress: (@Sendable (ImportProgress) -> Void)? = nil) async -> ImportReport {
        var report = ImportReport(path: input.name, format: format, outcome: .failed(reason: "not read"))
        let chosen: FileFormat
        do {
            if let format = format ?? input.format {
                chosen = format
            } else {
                switch try input.detect() {
                case .format(let detected): chosen = detected
                case .notLocationHistory(let what):
                    report.outcome = .skipped(reason: "not location history: \(what)")
                    return report
                case .unknown where skipUnrecognized:
                    report.outcome = .skipped(reason: "not a location file Travelog recognises")
                    return report
                case .unknown:
                    report.outcome = .failed(reason: FormatError.unrecognizedFormat(
                        "expected GPX, KML/KMZ, GeoJSON, CSV, NMEA, a Google export (or a Takeout .zip), OwnTracks .rec or GeoLife .plt").description)
                    return report
                }
            }
        } catch {
            report.outcome = .failed(reason: error.description)
            return report
        }
        report.format = chosen
        var running: ImportID?
        do {
            try Task.checkCancellation()
            let source = HashingByteSource(try input.open())
            var reader = BatchReader(try chosen.makeReader(source: source, options: options))
            var summary = InsertSummary()
            var device = target.knownDevice
            try await withThrowingTaskGroup(of: InsertSummary.self) { group in
                var storing = false
                while true {
                    try Task.checkCancellation()
                    var labelled: [(location: Location, labels: [LocationLabel])] = []
                    let batch = try readBatch(&reader, into: &report, labelled: &labelled)
                    if !batch.isEmpty {
                        if device == nil {
                            let resolved = try await target.resolve(in: writer.store)
                            target = .device(resolved)
                            device = resolved
                        }
                        guard let device else { break }
                        // Fixes inside the user's drop zones are counted, never stored (HistoryWriter+Zones).
                        var batch = batch, noVisits: [FormatVisit] = []
                        _ = try await writer.dropInsideZones(&batch, visits: &noVisits, userID: device.userID)
                        let importID: ImportID
                        if let running { importID = running } else {
                            importID = try await writer.store.beginImport(
                                deviceID: device.id,
                                provenance: ImportProvenance(fileName: input.fileName, contentSHA256: nil, format: chosen.rawValue))
                            running = importID
                        }
                        // Store this batch while the next is read; at most one waits.
                        if storing, let stored = try await group.next() { summary = summary + stored }
                        let rows = batch.map { StoredLocation(deviceID: device.id, location: $0, source: .fileImport, importID: importID) }
                        let store = writer.store, observer = writer.observer, writer = writer
                        group.addTask { [labelled] in
                            let stored = try await store.insert(rows)
                            try await HistoryWriter.keepLabels(labelled, of: batch, device: device, in: store)
                            if stored.inserted > 0 { await writer.evaluateRegions(batch, device: device) }
                            await observer.didStore(batch, summary: stored, device: device, source: .fileImport)
                            return stored
                        }
                        storing = true
                    }
                    progress?(ImportProgress(bytesRead: reader.bytesConsumed, totalBytes: source.totalByteCount,
                                             locations: report.locationsRead))
                    if reader.isFinished { break }
                }
                while let stored = try await group.next() { summary = summary + stored }
            }
            if device == nil, !report.visits.isEmpty {
                // A file of stays only (a Google month without its raw points) still needs its device.
                let resolved = try await target.resolve(in: writer.store)
                target = .device(resolved)
                device = resolved
            }
            report.bytesRead = reader.bytesConsumed
            report.skipped.merge(reader.skippedRecords, uniquingKeysWith: +)
            if let running, device != nil {
                let record = try await writer.store.finishImport(running, summary: summary,
                                                                 tally: ImportTally(rejected: report.rejected,
                                                                                    contentSHA256: source.hexDigest))
                report.outcome = .imported(record)
            } else {
                report.outcome = .imported(nil)
            }
            if let device, !report.visits.isEmpty {
                var noLocations: [Location] = []
                _ = try await writer.dropInsideZones(&noLocations, visits: &report.visits, userID: device.userID)
            }
            try await updateJournal(report, device: device)
        } catch {
            if let running {
                // The store's calls in a cancelled task are cancelled too: the discard runs in a task
                // of its own, awaited here.
                let store = writer.store
                await Task { try? await store.discardImport(running) }.value
            }
            report.outcome = .failed(reason: (error as? FormatError)?.description ?? String(describing: error))
        }
        return report
    }

    /// Reads up to `batchSize` storable locations, counting everything else in the report.
    /// - Parameter labelled: the fixes read with labels (a named waypoint, an OwnTracks POI), and those labels.
    func readBatch(_ reader: inout BatchReader, into report: inout ImportReport,
                   labelled: inout [(location: Location, labels: [LocationLabel])]) throws -> [Location] {
        var batch: [Location] = []
        batch.reserveCapacity(batchSize)
        let now = Date()
        while batch.count < batchSize, let record = try reader.next() {
            switch record {
            case .point(let point):
                if case .route = point.kind {
                    report.skipped[IncomingItem.routePointDescription, default: 0] += 1
                } else if let location = point.position.location {
                    do {
                        let checked = try writer.plausibility.checked(location, now: now)
                        report.locationsRead += 1
                        report.firstTimestamp = min(report.firstTimestamp ?? checked.timestamp, checked.timestamp)
                        report.lastTimestamp = max(report.lastTimestamp ?? checked.timestamp, checked.timestamp)
                        batch.append(checked)
                        let labels = point.keptLabels
                        if !labels.isEmpty { labelled.append((checked, labels)) }
                    } catch {
                        reject(RecordRejection(position: reader.position, reason: .implausible(error.description)), in: &report)
                    }
                } else {
                    report.untimedPoints += 1
                    report.rejected += 1
                }
            case .visit(let visit):
                report.visitsRead += 1
                report.visits.append(visit)
            case .rejected(let rejection):
                reject(rejection, in: &report)
            }
        }
        return batch
    }

    private func reject(_ rejection: RecordRejection, in report: inout ImportReport) {
        report.rejected += 1
        if report.rejections.count < listedRejections { report.rejections.append(rejection) }
    }

    /// The stays the file described, and the stretch its locations cover.
    func updateJournal(_ report: ImportReport, device: Device?) async throws {
        guard let journal = writer.journal, let device else { return }
        let visits = report.journalVisits(deviceID: device.id)
        if let source = visits.first?.source {
            try await journal.describedVisits(visits, device: device, source: source)
        }
        if report.inserted > 0, let first = report.firstTimestamp, let last = report.lastTimestamp {
            await journal.historyChanged(device: device, from: first, to: last, stored: nil)
        }
    }
}

/// A format reader that remembers whether it reached the end and where its last record was.
struct BatchReader {
    private var reader: any LocationFileReader
    private(set) var isFinished = false
    private(set) var position = SourcePosition(byteOffset: 0, line: 0, column: 0)

    init(_ reader: any LocationFileReader) {
        self.reader = reader
    }

    mutating func next() throws(FormatError) -> FormatRecord? {
        position = SourcePosition(byteOffset: reader.bytesConsumed, line: 0, column: 0)
        guard let record = try reader.next() else {
            isFinished = true
            return nil
        }
        return record
    }

    var bytesConsumed: Int { reader.bytesConsumed }
    var skippedRecords: [String: Int] { reader.skippedRecords }
}

extension FileImporter {
    /// An importer that writes to a store with no journal and no observers (tests, benchmarks).
    public init(store: any LocationStore & AccountStore & QuarantineStore) {
        self.init(writer: HistoryWriter(store: store, journal: nil))
    }

    /// Imports a file on disk for a device that exists.
    public func importFile(at path: String, deviceID: DeviceID, format: FileFormat? = nil,
                           options: ReaderOptions = ReaderOptions(), skipUnrecognized: Bool = false,
                           progress: (@Sendable (ImportProgress) -> Void)? = nil) async -> ImportReport {
        guard let device = try? await writer.store.device(id: deviceID) else {
            return ImportReport(path: path, format: format, outcome: .failed(reason: StoreError.unknownDevice(deviceID).description))
        }
        var target = DeviceTarget.device(device)
        return await importInput(.file(path), to: &target, format: format, options: options,
                                 skipUnrecognized: skipUnrecognized, progress: progress)
    }
}
