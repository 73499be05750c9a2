import Foundation
import PostgresNIO
import TravelogCore
import TravelogStore

/// The fixes a map draws (the path, the history tile index), read as binary arrays: row by row,
/// PostgresNIO's per-row work (a message, a row, a cell per column) took about 5 µs a fix on the
/// server's side, 14 s for the first draw of 1M fixes on the shared two-core machine; the arrays
/// come in chunks of ``trackChunkFixes`` (one index scan each, `ORDER BY … LIMIT`), the next one
/// read while the last one is handed over.
extension PostgresLocationStore {
    /// Fixes per statement (those of its last millisecond go with the next one).
    static let trackChunkFixes = 50_000

    public func forEachTrackBatch(_ query: LocationQuery, batchSize: Int,
                                  _ body: @Sendable ([Location]) throws -> Void) async throws {
        try await forEachTrackBatch(query, batchSize: batchSize, chunkFixes: Self.trackChunkFixes, body)
    }

    /// Reads one device's fixes (no area, no limit, oldest first) in chunks of about `chunkFixes`;
    /// any other query from whole rows.
    func forEachTrackBatch(_ query: LocationQuery, batchSize: Int, chunkFixes: Int,
                           _ body: @Sendable ([Location]) throws -> Void) async throws {
        guard let devices = query.deviceIDs, devices.count == 1, let device = devices.first, query.area == nil,
              query.limit == nil, !query.newestFirst else {
            return try await forEachTrackBatchOfRows(query, batchSize: batchSize, body)
        }
        let user = query.userID.rawValue
        let end = query.to.map(StoragePrecision.milliseconds) ?? Int64.max
        let start = query.from.map(StoragePrecision.milliseconds) ?? Int64.min
        let batchSize = max(1, batchSize), chunkFixes = max(1, chunkFixes)
        try await withThrowingTaskGroup(of: TrackChunk.self) { group in
            group.addTask { try await self.trackChunk(user: user, device: device.rawValue, from: start, to: end, fixes: chunkFixes) }
            while let chunk = try await group.next() {
                if let next = chunk.next {
                    group.addTask { try await self.trackChunk(user: user, device: device.rawValue, from: next, to: end, fixes: chunkFixes) }
                }
                for first in stride(from: 0, to: chunk.fixes.count, by: batchSize) {
                    try body(Array(chunk.fixes[first..<min(first + batchSize, chunk.fixes.count)]))
                }
            }
        }
    }

    /// A device's fixes from `start` on: the first `fixes` of them but those of the last
    /// millisecond, with which the next chunk starts (`next`; `nil`: this one reached `end`).
    private struct TrackChunk: Sendable {
        var fixes: [Location]
        var next: Int64?
    }

    private func trackChunk(user: Int64, device: Int64, from start: Int64, to end: Int64,
                            fixes count: Int) async throws(StoreError) -> TrackChunk {
        var columns = try await trackColumns(user: user, device: device, from: start, to: end, limit: Int64(count))
        guard columns.times.count >= count, let last = columns.times.last else {
            return TrackChunk(fixes: try columns.locations(), next: nil)
        }
        // More may follow: the last millisecond's fixes go with the next chunk (this one may hold
        // only some of them), unless the chunk is all one millisecond, which is then read whole.
        let kept = columns.times.firstIndex(of: last) ?? 0
        if kept > 0 {
            columns.keepFirst(kept)
            return TrackChunk(fixes: try columns.locations(), next: last)
        }
        let millisecond = try await trackColumns(user: user, device: device, from: last, to: last + 1, limit: Int64.max)
        return TrackChunk(fixes: try millisecond.locations(), next: last + 1 < end ? last + 1 : nil)
    }

    /// The columns of a device's first `limit` fixes in `start..<end`, in time order.
    private func trackColumns(user: Int64, device: Int64, from start: Int64, to end: Int64,
                              limit: Int64) async throws(StoreError) -> TrackColumns {
        let operation = "reading a device's track"
        let found = try await rows(operation, """
            SELECT array_agg(timestamp_ms), array_agg(latitude_e7), array_agg(longitude_e7), array_agg(horizontal_accuracy_m)
            FROM (SELECT timestamp_ms, latitude_e7, longitude_e7, horizontal_accuracy_m FROM locations
                WHERE user_id = \(user) AND device_id = \(device) AND timestamp_ms >= \(start) AND timestamp_ms < \(end)
                ORDER BY timestamp_ms LIMIT \(limit)) AS chunk
            """)
        guard let row = found.first else { throw .database(operation: operation, message: "the server returned no row") }
        var cells = PostgresBinaryCells(row, operation: operation)
        var columns = TrackColumns(times: try cells.int64Array(), latitudes: try cells.int32Array(),
                                   longitudes: try cells.int32Array(), accuracies: try cells.doubleArray())
        guard columns.latitudes.count == columns.times.count, columns.longitudes.count == columns.times.count,
              columns.accuracies.count == columns.times.count else {
            throw .database(operation: operation, message: "arrays of \(columns.times.count), \(columns.latitudes.count), "
                            + "\(columns.longitudes.count) and \(columns.accuracies.count) fixes")
        }
        // array_agg keeps the order of its ordered input (PostgreSQL says "usually"): made sure of here.
        if zip(columns.times, columns.times.dropFirst()).contains(where: { $0 > $1 }) { columns.sortByTime() }
        return columns
    }
}

/// A chunk of a device's fixes as PostgreSQL sends them: one array per column.
private struct TrackColumns {
    var times: [Int64]
    var latitudes: [Int32]
    var longitudes: [Int32]
    var accuracies: [Double]

    mutating func keepFirst(_ count: Int) {
        times.removeLast(times.count - count)
        latitudes.removeLast(latitudes.count - count)
        longitudes.removeLast(longitudes.count - count)
        accuracies.removeLast(accuracies.count - count)
    }

    mutating func sortByTime() {
        let order = times.indices.sorted { times[$0] < times[$1] }
        times = order.map { times[$0] }
        latitudes = order.map { latitudes[$0] }
        longitudes = order.map { longitudes[$0] }
        accuracies = order.map { accuracies[$0] }
    }

    /// The fixes, as rows read whole and narrowed would give them (sanitized alike).
    func locations() throws(StoreError) -> [Location] {
        var track: [Location] = []
        track.reserveCapacity(times.count)
        for index in times.indices {
            guard let coordinate = Coordinate(validLatitude: StoragePrecision.degrees(e7: Int64(latitudes[index])),
                                              longitude: StoragePrecision.degrees(e7: Int64(longitudes[index]))) else {
                throw .database(operation: "reading a device's track",
                                message: "stored coordinate \(latitudes[index]), \(longitudes[index]) is invalid")
            }
            track.append(PostgresLocationRows.plausibility.sanitized(Location(
                coordinate: coordinate, horizontalAccuracyMeters: accuracies[index],
                timestamp: StoragePrecision.date(milliseconds: times[index]))))
        }
        return track
    }
}
