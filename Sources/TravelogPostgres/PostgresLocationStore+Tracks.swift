import Foundation
import PostgresNIO
import TravelogCore
import TravelogStore

/// The fixes a map draws (the path, the history tile index), read as binary arrays: row by row,
/// PostgresNIO's per-row work (a message, a row, a cell per column) took about 5 µs a fix on the
/// server's side, 14 s for the first draw of 1M fixes on the shared two-core machine; the arrays
/// come in chunks of ``trackChunkFixes``, the next one read while the last one is handed over.
extension PostgresLocationStore {
    /// Fixes per statement (about: every fix of the chunk's last millisecond is in it).
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

    /// A device's fixes from `start` on: those before the time of the fix `fixes` places further
    /// (at least one millisecond's), and where the next chunk starts (`nil`: this one reached `end`).
    private struct TrackChunk: Sendable {
        var fixes: [Location]
        var next: Int64?
    }

    private func trackChunk(user: Int64, device: Int64, from start: Int64, to end: Int64,
                            fixes count: Int) async throws(StoreError) -> TrackChunk {
        let operation = "reading a device's track"
        let found = try await rows(operation, """
            WITH bound AS (
                SELECT timestamp_ms FROM locations
                WHERE user_id = \(user) AND device_id = \(device) AND timestamp_ms >= \(start) AND timestamp_ms < \(end)
                ORDER BY timestamp_ms OFFSET \(Int64(count)) LIMIT 1)
            SELECT (SELECT timestamp_ms FROM bound), array_agg(timestamp_ms), array_agg(latitude_e7),
                array_agg(longitude_e7), array_agg(horizontal_accuracy_m)
            FROM (SELECT timestamp_ms, latitude_e7, longitude_e7, horizontal_accuracy_m FROM locations
                WHERE user_id = \(user) AND device_id = \(device) AND timestamp_ms >= \(start)
                    AND timestamp_ms < coalesce((SELECT greatest(timestamp_ms, \(start) + 1) FROM bound), \(end))
                ORDER BY timestamp_ms) AS chunk
            """)
        guard let row = found.first else { throw .database(operation: operation, message: "the server returned no row") }
        var cells = PostgresBinaryCells(row, operation: operation)
        let bound = try cells.optionalInt64()
        let times = try cells.int64Array(), latitudes = try cells.int32Array()
        let longitudes = try cells.int32Array(), accuracies = try cells.doubleArray()
        guard latitudes.count == times.count, longitudes.count == times.count, accuracies.count == times.count else {
            throw .database(operation: operation, message: "arrays of \(times.count), \(latitudes.count), \(longitudes.count) "
                            + "and \(accuracies.count) fixes")
        }
        // array_agg keeps the order of its ordered input (PostgreSQL says "usually"): made sure of here.
        var order = Array(times.indices)
        if zip(times, times.dropFirst()).contains(where: { $0 > $1 }) { order.sort { times[$0] < times[$1] } }
        var track: [Location] = []
        track.reserveCapacity(times.count)
        for index in order {
            guard let coordinate = Coordinate(validLatitude: StoragePrecision.degrees(e7: Int64(latitudes[index])),
                                              longitude: StoragePrecision.degrees(e7: Int64(longitudes[index]))) else {
                throw .database(operation: operation,
                                message: "stored coordinate \(latitudes[index]), \(longitudes[index]) is invalid")
            }
            track.append(PostgresLocationRows.plausibility.sanitized(Location(
                coordinate: coordinate, horizontalAccuracyMeters: accuracies[index],
                timestamp: StoragePrecision.date(milliseconds: times[index]))))
        }
        return TrackChunk(fixes: track, next: bound.map { max($0, start + 1) })
    }
}
