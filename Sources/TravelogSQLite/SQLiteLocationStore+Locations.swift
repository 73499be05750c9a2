import Foundation
import GRDB
import TravelogCore
import TravelogStore

extension SQLiteLocationStore {
    /// Stored in the next transaction of the writer, beside the other writes that wait for it
    /// (`SQLiteInsertQueue`: group commit, each in a savepoint).
    public func insert(_ batch: [StoredLocation]) async throws(StoreError) -> InsertSummary {
        try await insertQueue.write("storing locations", in: pool) { db throws(StoreError) in try Self.insert(batch, in: db) }
    }

    /// Inserts one batch inside the open transaction.
    private static func insert(_ batch: [StoredLocation], in db: Database) throws(StoreError) -> InsertSummary {
        do {
            // Only the batch's devices (nearly always one), not every device of every user.
            let ids = Set(batch.map(\.deviceID.rawValue))
            let known = try ids.count == 1
                ? Set(Int64.fetchAll(db.cachedStatement(sql: "SELECT id FROM devices WHERE id = ?"), arguments: [ids.first]))
                : Set(Int64.fetchAll(db, sql: "SELECT id FROM devices WHERE id IN (\(ids.map(String.init).joined(separator: ",")))"))
            if let unknown = batch.first(where: { !known.contains($0.deviceID.rawValue) }) {
                throw StoreError.unknownDevice(unknown.deviceID)
            }
            let writer = LocationRowWriter(db: db)
            var summary = InsertSummary()
            summary.inserted = try writer.insert(batch)
            summary.duplicates = batch.count - summary.inserted
            try writer.flushDays()
            let now = StoragePrecision.milliseconds(Date())
            for importID in Set(batch.compactMap(\.importID)) {
                try db.execute(sql: "UPDATE imports SET heartbeat_ms = ? WHERE id = ?", arguments: [now, importID.rawValue])
            }
            return summary
        } catch let error as StoreError {
            throw error
        } catch {
            throw .database(operation: "storing locations", message: String(describing: error))
        }
    }

    public func beginImport(deviceID: DeviceID, provenance: ImportProvenance) async throws(StoreError) -> ImportID {
        let now = StoragePrecision.milliseconds(Date())
        let stale = now - Int64(abandonedImportSeconds * 1000)
        return try await write("starting an import") { db throws(StoreError) in
            do {
                guard try Bool.fetchOne(db, sql: "SELECT 1 FROM devices WHERE id = ?", arguments: [deviceID.rawValue]) != nil
                else { throw StoreError.unknownDevice(deviceID) }
                for abandoned in try Int64.fetchAll(db, sql: "SELECT id FROM imports WHERE state = 'running' AND heartbeat_ms < ?",
                                                    arguments: [stale]) {
                    try Self.discardImport(abandoned, in: db)
                }
                try db.execute(sql: """
                    INSERT INTO imports (device_id, file_name, content_sha256, format, imported_at_ms,
                        inserted_count, duplicate_count, rejected_count, state, heartbeat_ms)
                    VALUES (?, ?, ?, ?, ?, 0, 0, 0, 'running', ?)
                    """, arguments: [deviceID.rawValue, provenance.fileName, provenance.contentSHA256,
                                      provenance.format, now, now])
                return ImportID(rawValue: db.lastInsertedRowID)
            } catch let error as StoreError {
                throw error
            } catch {
                throw .database(operation: "starting an import", message: String(describing: error))
            }
        }
    }

    public func finishImport(_ id: ImportID, summary: InsertSummary, tally: ImportTally) async throws(StoreError) -> ImportRecord {
        let now = StoragePrecision.milliseconds(Date())
        return try await write("finishing an import") { db throws(StoreError) in
            do {
                try db.execute(sql: """
                    UPDATE imports SET state = 'finished', imported_at_ms = ?, inserted_count = ?, duplicate_count = ?,
                        rejected_count = ?, content_sha256 = coalesce(?, content_sha256)
                    WHERE id = ? AND state = 'running'
                    """, arguments: [now, summary.inserted, summary.duplicates, tally.rejected, tally.contentSHA256,
                                      id.rawValue])
                guard db.changesCount == 1, let record = try Self.importRecords(db, condition: "i.id = ?", [id.rawValue]).first
                else { throw StoreError.database(operation: "finishing an import", message: "import \(id) is not running") }
                return record
            } catch let error as StoreError {
                throw error
            } catch {
                throw .database(operation: "finishing an import", message: String(describing: error))
            }
        }
    }

    public func discardImport(_ id: ImportID) async throws(StoreError) {
        try await write("discarding an import") { db throws(StoreError) in
            do {
                try Self.discardImport(id.rawValue, in: db)
            } catch {
                throw .database(operation: "discarding an import", message: String(describing: error))
            }
        }
    }

    public func deleteImport(_ id: ImportID, userID: UserID) async throws(StoreError) -> DeletedImport? {
        try await write("deleting an import") { db throws(StoreError) in
            do {
                guard let record = try Self.importRecords(db, condition: "i.id = ? AND d.user_id = ? AND i.state = 'finished'",
                                                          [id.rawValue, userID.rawValue]).first
                else { return nil }
                let row = try Row.fetchOne(db, sql: "SELECT min(timestamp_ms), max(timestamp_ms) FROM locations WHERE import_id = ?",
                                           arguments: [id.rawValue])
                let first: Int64? = row?[0], last: Int64? = row?[1]
                try Self.discardImport(id.rawValue, in: db)
                try db.execute(sql: "DELETE FROM imports WHERE id = ?", arguments: [id.rawValue])
                let span = first.flatMap { first in last.map { StoragePrecision.date(milliseconds: first)...StoragePrecision.date(milliseconds: $0) } }
                return DeletedImport(record: record, span: span)
            } catch let error as StoreError {
                throw error
            } catch {
                throw .database(operation: "deleting an import", message: String(describing: error))
            }
        }
    }

    /// Deletes an import's locations (keeping the day boxes' counts right), what region monitoring
    /// concluded from them, and the import when it is running (`deleteImport` removes a finished one).
    static func discardImport(_ id: Int64, in db: Database) throws {
        let day = LocationRowWriter.millisecondsPerDay
        try db.execute(sql: """
            UPDATE location_days SET removals = removals + 1, location_count = location_count - (
                SELECT count(*) FROM locations l
                WHERE l.import_id = ? AND l.device_id = location_days.device_id
                    AND l.timestamp_ms >= location_days.day * \(day) AND l.timestamp_ms < (location_days.day + 1) * \(day))
            WHERE id IN (SELECT d.id FROM location_days d JOIN locations l ON l.device_id = d.device_id
                AND l.timestamp_ms >= d.day * \(day) AND l.timestamp_ms < (d.day + 1) * \(day) WHERE l.import_id = ?)
            """, arguments: [id, id])
        try forgetRegionEvaluation(ofImport: id, in: db)
        try db.execute(sql: "DELETE FROM locations WHERE import_id = ?", arguments: [id])
        if db.changesCount > 0, let device = try Int64.fetchOne(db, sql: "SELECT device_id FROM imports WHERE id = ?", arguments: [id]) {
            try countRemoval(deviceID: device, in: db)
        }
        try db.execute(sql: "DELETE FROM imports WHERE id = ? AND state = 'running'", arguments: [id])
    }

    public func locations(_ query: LocationQuery) async throws(StoreError) -> [StoredLocation] {
        try await read("reading locations") { db in
            let (sql, arguments) = Self.select(query)
            var result: [StoredLocation] = []
            var rows = try LocationRowReader(db: db, sql: sql, arguments: arguments)
            while let location = try rows.next() { result.append(location) }
            return result
        }
    }

    public func forEachBatch(_ query: LocationQuery, batchSize: Int,
                             _ body: @Sendable ([StoredLocation]) throws -> Void) async throws {
        try await pool.read { db in
            let (sql, arguments) = Self.select(query)
            var rows = try LocationRowReader(db: db, sql: sql, arguments: arguments)
            var batch: [StoredLocation] = []
            batch.reserveCapacity(max(1, batchSize))
            while let location = try rows.next() {
                batch.append(location)
                if batch.count >= batchSize {
                    try body(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            if !batch.isEmpty { try body(batch) }
        }
    }

    /// The counts are the sums of the device's day boxes (`location_days`, which every insert,
    /// discarded import and move keeps exact), not a count of its rows: 10M rows took 0.67 s to
    /// count, their 174 days take well under a millisecond.
    public func deviceSummaries(userID: UserID) async throws(StoreError) -> [DeviceSummary] {
        try await read("summarising devices") { db in
            try Row.fetchAll(db, sql: """
                SELECT d.id, d.user_id, d.name, d.created_at_ms, d.app, d.token_scope,
                    (SELECT coalesce(sum(location_count), 0) FROM location_days WHERE device_id = d.id),
                    (SELECT min(timestamp_ms) FROM locations WHERE device_id = d.id),
                    (SELECT max(timestamp_ms) FROM locations WHERE device_id = d.id)
                FROM devices d WHERE d.user_id = ? ORDER BY d.name
                """, arguments: [userID.rawValue]).map { row in
                let first: Int64? = row[7], last: Int64? = row[8]
                return DeviceSummary(device: Self.device(row), locationCount: row[6],
                                     firstTimestamp: first.map(StoragePrecision.date(milliseconds:)),
                                     lastTimestamp: last.map(StoragePrecision.date(milliseconds:)))
            }
        }
    }

    public func imports(userID: UserID) async throws(StoreError) -> [ImportRecord] {
        try await read("listing imports") { db in
            try Self.importRecords(db, condition: "d.user_id = ? AND i.state = 'finished'", [userID.rawValue])
        }
    }

    static func importRecords(_ db: Database, condition: String, _ arguments: StatementArguments) throws -> [ImportRecord] {
        try Row.fetchAll(db, sql: """
            SELECT i.id, i.device_id, i.file_name, i.content_sha256, i.format, i.imported_at_ms,
                i.inserted_count, i.duplicate_count, i.rejected_count
            FROM imports i JOIN devices d ON d.id = i.device_id WHERE \(condition) ORDER BY i.id DESC
            """, arguments: arguments).map { row in
            ImportRecord(id: ImportID(rawValue: row[0]), deviceID: DeviceID(rawValue: row[1]),
                         provenance: ImportProvenance(fileName: row[2], contentSHA256: row[3], format: row[4]),
                         importedAt: StoragePrecision.date(milliseconds: row[5]),
                         inserted: row[6], duplicates: row[7], rejected: row[8])
        }
    }

    public func storageSizeBytes() async throws(StoreError) -> Int64? {
        var total: Int64 = 0
        for suffix in ["", "-wal", "-shm"] {
            let attributes = try? FileManager.default.attributesOfItem(atPath: path + suffix)
            total += (attributes?[.size] as? NSNumber)?.int64Value ?? 0
        }
        return total
    }

    /// The SELECT for a query: scoped to the user's devices; an area goes through the day boxes.
    static func select(_ query: LocationQuery) -> (String, StatementArguments) {
        var conditions = ["l.device_id IN (SELECT id FROM devices WHERE user_id = ?)"]
        var arguments: StatementArguments = [query.userID.rawValue]
        var from = "locations l"
        if let devices = query.deviceIDs {
            conditions.append("l.device_id IN (\(devices.map { _ in "?" }.joined(separator: ",")))")
            for device in devices.sorted() { _ = arguments.append(contentsOf: [device.rawValue]) }
        }
        if let start = query.from {
            conditions.append("l.timestamp_ms >= ?")
            _ = arguments.append(contentsOf: [StoragePrecision.milliseconds(start)])
        }
        if let end = query.to {
            conditions.append("l.timestamp_ms < ?")
            _ = arguments.append(contentsOf: [StoragePrecision.milliseconds(end)])
        }
        if let area = query.area {
            let day = LocationRowWriter.millisecondsPerDay
            from = """
                location_days d JOIN location_days_rtree r ON r.id = d.id
                JOIN locations l ON l.device_id = d.device_id
                    AND l.timestamp_ms >= d.day * \(day) AND l.timestamp_ms < (d.day + 1) * \(day)
                """
            conditions.append("r.max_latitude >= ? AND r.min_latitude <= ?")
            _ = arguments.append(contentsOf: [area.south, area.north])
            conditions.append("l.latitude_e7 BETWEEN ? AND ?")
            _ = arguments.append(contentsOf: [StoragePrecision.e7(area.south), StoragePrecision.e7(area.north)])
            let joiner = area.west <= area.east ? "AND" : "OR"
            conditions.append("(r.max_longitude >= ? \(joiner) r.min_longitude <= ?)")
            _ = arguments.append(contentsOf: [area.west, area.east])
            conditions.append("(l.longitude_e7 >= ? \(joiner) l.longitude_e7 <= ?)")
            _ = arguments.append(contentsOf: [StoragePrecision.e7(area.west), StoragePrecision.e7(area.east)])
        }
        let order = query.newestFirst ? "DESC" : "ASC"
        var sql = "SELECT \(LocationRowReader.columns.split(separator: ",").map { "l." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: ", ")) FROM \(from) WHERE \(conditions.joined(separator: " AND ")) ORDER BY l.timestamp_ms \(order), l.device_id \(order)"
        if let limit = query.limit {
            sql += " LIMIT ?"
            _ = arguments.append(contentsOf: [limit])
        }
        return (sql, arguments)
    }
}

