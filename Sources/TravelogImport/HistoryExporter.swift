import Foundation
import TravelogCore
import TravelogFormats
import TravelogStore

/// Writes a user's history to an export writer (GPX, KML, GeoJSON, CSV), streaming from the store
/// so any amount fits in memory. Each device becomes a track; a gap of more than
/// `segmentGapSeconds` starts a new segment. `travelog export` and the export API share it.
public struct HistoryExporter: Sendable {
    /// A pause longer than this (seconds) between two fixes of a device starts a new segment.
    public static let segmentGapSeconds: TimeInterval = 3600

    public let store: any LocationStore

    public init(store: any LocationStore) {
        self.store = store
    }

    /// Writes `begin`, one track per device, `finish`.
    /// - Parameter progress: called after each batch with the number of locations written so far.
    /// - Returns: the number of locations written.
    public func export(userID: UserID, devices: [Device], from: Date?, to: Date?,
                       to writer: any LocationFileWriter,
                       progress: (@Sendable (Int) -> Void)? = nil) async throws -> Int {
        let state = ExportState(writer: writer)
        try writer.begin()
        for device in devices {
            state.startTrack()
            try writer.startTrack(named: device.name)
            let query = LocationQuery(userID: userID, deviceIDs: [device.id], from: from, to: to)
            try await store.forEachBatch(query, batchSize: 10_000) { batch in
                // A cancelled export (its client went away) stops at the next batch.
                try Task.checkCancellation()
                try state.write(batch)
                progress?(state.written)
            }
        }
        try writer.finish()
        return state.written
    }
}

/// The writer and where the current segment is; used from the store's batch callback only, one
/// batch at a time.
private final class ExportState: @unchecked Sendable {
    let writer: any LocationFileWriter
    private(set) var written = 0
    private var last: Date?

    init(writer: any LocationFileWriter) {
        self.writer = writer
    }

    func startTrack() { last = nil }

    func write(_ batch: [StoredLocation]) throws {
        var run: [Location] = []
        run.reserveCapacity(batch.count)
        for stored in batch {
            let time = stored.location.timestamp
            if let last, time.timeIntervalSince(last) > HistoryExporter.segmentGapSeconds {
                try writer.write(run)
                run.removeAll(keepingCapacity: true)
                try writer.startSegment()
            }
            run.append(stored.location)
            last = time
        }
        try writer.write(run)
        written += batch.count
    }
}
