import Foundation
import Logging
import PostgresNIO
import TravelogCore
import TravelogStore

extension PostgresLocationStore {
    public func beginImport(deviceID: DeviceID, provenance: ImportProvenance) async throws(StoreError) -> ImportID {
        let now = StoragePrecision.milliseconds(Date())
        let stale = now - Int64(abandonedImportSeconds * 1000)
        return try await transaction("starting an import") { connection in
            let owner = try await connection.run("SELECT user_id FROM devices WHERE id = \(deviceID.rawValue)", logger: logger)
                .collect().first
            guard let owner else { throw StoreError.unknownDevice(deviceID) }
            let userID = try owner.decode(Int64.self)
            // Imports whose process died, of any user: a maintenance sweep, as in the SQLite store.
            for row in try await connection.run("""
                SELECT user_id, id FROM imports WHERE state = 'running' AND heartbeat_ms < \(stale)
                """, logger: logger).collect() {
                let (abandonedUser, abandoned) = try row.decode((Int64, Int64).self)
                try await Self.discardImport(abandoned, userID: abandonedUser, on: connection, logger: logger)
            }
            let id = try await connection.run("""
                INSERT INTO imports (user_id, device_id, file_name, content_sha256, format, imported_at_ms,
                    inserted_count, duplicate_count, rejected_count, state, heartbeat_ms)
                VALUES (\(userID), \(deviceID.rawValue), \(provenance.fileName), \(provenance.contentSHA256),
                    \(provenance.format), \(now), 0, 0, 0, 'running', \(now))
                RETURNING id
                """, logger: logger).collect().first?.decode(Int64.self)
            guard let id else { throw StoreError.database(operation: "starting an import", message: "no id returned") }
            return ImportID(rawValue: id)
        }
    }

    public func finishImport(_ id: ImportID, summary: InsertSummary, tally: ImportTally) async throws(StoreError) -> ImportRecord {
        let now = StoragePrecision.milliseconds(Date())
        let finished = try await rows("finishing an import", """
            UPDATE imports SET state = 'finished', imported_at_ms = \(now), inserted_count = \(Int64(summary.inserted)),
                duplicate_count = \(Int64(summary.duplicates)), rejected_count = \(Int64(tally.rejected)),
                content_sha256 = coalesce(\(tally.contentSHA256), content_sha256)
            WHERE id = \(id.rawValue) AND state = 'running'
            RETURNING \(unescaped: Self.importColumns)
            """)
        guard let row = finished.first else {
            throw .database(operation: "finishing an import", message: "import \(id) is not running")
        }
        return try Self.importRecord(row)
    }

    public func discardImport(_ id: ImportID) async throws(StoreError) {
        try await transaction("discarding an import") { connection in
            let owner = try await connection.run("SELECT user_id FROM imports WHERE id = \(id.rawValue)", logger: logger)
                .collect().first
            guard let owner else { return }
            try await Self.discardImport(id.rawValue, userID: try owner.decode(Int64.self), on: connection, logger: logger)
        }
    }

    public func deleteImport(_ id: ImportID, userID: UserID) async throws(StoreError) -> DeletedImport? {
        try await transaction("deleting an import") { connection in
            let found = try await connection.run("""
                SELECT \(unescaped: Self.importColumns) FROM imports
                WHERE id = \(id.rawValue) AND user_id = \(userID.rawValue) AND state = 'finished' FOR UPDATE
                """, logger: logger).collect().first
            guard let found else { return nil }
            let record = try Self.importRecord(found)
            let bounds = try await connection.run("""
                SELECT min(timestamp_ms), max(timestamp_ms) FROM locations
                WHERE user_id = \(userID.rawValue) AND import_id = \(id.rawValue)
                """, logger: logger).collect().first?.decode((Int64?, Int64?).self)
            try await Self.discardImport(id.rawValue, userID: userID.rawValue, on: connection, logger: logger)
            try await connection.run("DELETE FROM imports WHERE user_id = \(userID.rawValue) AND id = \(id.rawValue)",
                                       logger: logger)
            var span: ClosedRange<Date>?
            if let (first, last) = bounds, let first, let last {
                span = StoragePrecision.date(milliseconds: first)...StoragePrecision.date(milliseconds: last)
            }
            return DeletedImport(record: record, span: span)
        }
    }

    /// Deletes an import's locations, what region monitoring concluded from them, and the import
    /// when it is running (as the SQLite store does).
    static func discardImport(_ id: Int64, userID: Int64, on connection: PostgresConnection, logger: Logger) async throws {
        try await forgetRegionEvaluation(ofImport: id, userID: userID, on: connection, logger: logger)
        try await connection.run("""
            WITH deleted AS (DELETE FROM locations WHERE user_id = \(userID) AND import_id = \(id) RETURNING 1)
            INSERT INTO history_removals (user_id, generation) SELECT \(userID)::bigint, 1 WHERE EXISTS (SELECT 1 FROM deleted)
            ON CONFLICT (user_id) DO UPDATE SET generation = history_removals.generation + 1
            """, logger: logger)
        try await connection.run("DELETE FROM imports WHERE user_id = \(userID) AND id = \(id) AND state = 'running'",
                                   logger: logger)
    }

    public func locations(_ query: LocationQuery) async throws(StoreError) -> [StoredLocation] {
        var result: [StoredLocation] = []
        for row in try await rows("reading locations", PostgresLocationRows.select(query, postgis: postgisSchema)) {
            result.append(try PostgresLocationRows.storedLocation(row))
        }
        return result
    }

    public func forEachBatch(_ query: LocationQuery, batchSize: Int,
                             _ body: @Sendable ([StoredLocation]) throws -> Void) async throws {
        /// What `body` threw, passed through unchanged.
        struct BodyFailed: Error { let error: any Error }
        do {
            // On a lease of the store's (not `client.query`'s inside PostgresNIO): bounded while the
            // database is down, and never waiting for ever on a query dropped by a closing connection.
            try await withRows(of: PostgresLocationRows.select(query, postgis: postgisSchema)) { rows in
                var batch: [StoredLocation] = []
                batch.reserveCapacity(max(1, batchSize))
                for try await row in rows {
                    batch.append(try PostgresLocationRows.storedLocation(row))
                    if batch.count >= batchSize {
                        do { try body(batch) } catch { throw BodyFailed(error: error) }
                        batch.removeAll(keepingCapacity: true)
                    }
                }
                if !batch.isEmpty {
                    do { try body(batch) } catch { throw BodyFailed(error: error) }
                }
            }
        } catch let failed as BodyFailed {
            throw failed.error
        } catch {
            throw Self.storeError(error, "reading locations")
        }
    }

    public func deviceSummaries(userID: UserID) async throws(StoreError) -> [DeviceSummary] {
        var summaries: [DeviceSummary] = []
        // Each device counted on its own (LATERAL): a join with GROUP BY sorted every location of
        // the user first (1M: an external sort on disk, 2.8 s under load, where this takes 0.9 s);
        // a server checks its saved tile index with these counts as it starts.
        for row in try await rows("summarising devices", """
            SELECT d.id, d.user_id, d.name, d.created_at_ms, d.app, d.token_scope, s.count, s.first, s.last
            FROM devices d CROSS JOIN LATERAL (
                SELECT count(*) AS count, min(l.timestamp_ms) AS first, max(l.timestamp_ms) AS last
                FROM locations l WHERE l.user_id = d.user_id AND l.device_id = d.id) AS s
            WHERE d.user_id = \(userID.rawValue)
            ORDER BY d.name COLLATE "C"
            """) {
            let count = try Self.decode(row, column: 6, as: Int64.self, "summarising devices")
            let first = try Self.decode(row, column: 7, as: Int64?.self, "summarising devices")
            let last = try Self.decode(row, column: 8, as: Int64?.self, "summarising devices")
            summaries.append(DeviceSummary(device: try Self.device(row), locationCount: Int(count),
                                           firstTimestamp: first.map(StoragePrecision.date(milliseconds:)),
                                           lastTimestamp: last.map(StoragePrecision.date(milliseconds:))))
        }
        return summaries
    }

    public func imports(userID: UserID) async throws(StoreError) -> [ImportRecord] {
        var records: [ImportRecord] = []
        for row in try await rows("listing imports", """
            SELECT \(unescaped: Self.importColumns) FROM imports
            WHERE user_id = \(userID.rawValue) AND state = 'finished' ORDER BY id DESC
            """) {
            records.append(try Self.importRecord(row))
        }
        return records
    }

    public func storageSizeBytes() async throws(StoreError) -> Int64? {
        let found = try await rows("measuring the database", """
            SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c
            JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND c.relkind = 'r'
            """)
        return try Self.decode(found.first, as: Int64.self, "measuring the database")
    }

    static let importColumns = """
        id, device_id, file_name, content_sha256, format, imported_at_ms, inserted_count, duplicate_count, rejected_count
        """

    static func importRecord(_ row: PostgresRow) throws(StoreError) -> ImportRecord {
        let (id, device, fileName, sha256, format, importedAt, inserted, duplicates, rejected) = try decode(
            row, as: (Int64, Int64, String, String?, String, Int64, Int64, Int64, Int64).self, "reading an import")
        return ImportRecord(id: ImportID(rawValue: id), deviceID: DeviceID(rawValue: device),
                            provenance: ImportProvenance(fileName: fileName, contentSHA256: sha256, format: format),
                            importedAt: StoragePrecision.date(milliseconds: importedAt),
                            inserted: Int(inserted), duplicates: Int(duplicates), rejected: Int(rejected))
    }
}
