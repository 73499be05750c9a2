import Foundation
import GRDB
import TravelogCore
import TravelogStore

extension SQLiteLocationStore {
    public func insert(_ batch: [StoredLocation]) async throws(StoreError) -> InsertSummary {
        try await write("storing locations") { db throws(StoreError) in
            do {
                let known = try Set(Int64.fetchAll(db, sql: "SELECT id FROM devices"))
                if let unknown = batch.first(where: { !known.contains($0.deviceID.rawValue) }) {
                    throw StoreError.unknownDevice(unknown.deviceID)
                }
                let writer = try LocationRowWriter(db: db)
                var summary = InsertSummary()
                for stored in batch {
                    if try writer.insert(deviceID: stored.deviceID, location: stored.location,
                                         source: stored.source, importID: stored.importID) {
                        summary.inserted += 1
                    } else {
                        summary.duplicates += 1
                    }
                }
                try writer.flushDays()
                return summary
            } catch let error as StoreError {
                throw error
            } catch {
                throw .database(operation: "storing locations", message: String(describing: error))
            }
        }
    }

    public func importLocations(deviceID: DeviceID, provenance: ImportProvenance,
                                _ work: @Sendable (any ImportSink) throws -> ImportTally) async throws -> ImportRecord {
        guard try await device(id: deviceID) != nil else { throw StoreError.unknownDevice(deviceID) }
        let importedAt = StoragePrecision.milliseconds(Date())
        // The work is not escaping, but GRDB's write takes an escaping closure: run it synchronously
        // on this task's thread through the pool's blocking writer instead.
        return try withoutActuallyEscaping(work) { work in
            try pool.writeWithoutTransaction { db in
                var record: ImportRecord?
                try db.inTransaction(.immediate) {
                    try db.execute(sql: """
                        INSERT INTO imports (device_id, file_name, content_sha256, format, imported_at_ms,
                            inserted_count, duplicate_count, rejected_count)
                        VALUES (?, ?, ?, ?, ?, 0, 0, 0)
                        """, arguments: [deviceID.rawValue, provenance.fileName, provenance.contentSHA256,
                                          provenance.format, importedAt])
                    let importID = ImportID(rawValue: db.lastInsertedRowID)
                    let sink = try TransactionSink(db: db, deviceID: deviceID, importID: importID)
                    let tally = try work(sink)
                    try sink.writer.flushDays()
                    var provenance = provenance
                    provenance.contentSHA256 = tally.contentSHA256 ?? provenance.contentSHA256
                    try db.execute(sql: """
                        UPDATE imports SET inserted_count = ?, duplicate_count = ?, rejected_count = ?, content_sha256 = ?
                        WHERE id = ?
                        """, arguments: [sink.summary.inserted, sink.summary.duplicates, tally.rejected,
                                          provenance.contentSHA256, importID.rawValue])
                    record = ImportRecord(id: importID, deviceID: deviceID, provenance: provenance,
                                          importedAt: StoragePrecision.date(milliseconds: importedAt),
                                          inserted: sink.summary.inserted, duplicates: sink.summary.duplicates,
                                          rejected: tally.rejected)
                    return .commit
                }
                guard let record else { throw StoreError.database(operation: "importing", message: "no record") }
                return record
            }
        }
    }

    public func locations(_ query: LocationQuery) async throws(StoreError) -> [StoredLocation] {
        try await read("reading locations") { db in
            let (sql, arguments) = Self.select(query)
            var result: [StoredLocation] = []
            let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            while let row = try rows.next() { result.append(try LocationRowReader.storedLocation(row)) }
            return result
        }
    }

    public func forEachBatch(_ query: LocationQuery, batchSize: Int,
                             _ body: @Sendable ([StoredLocation]) throws -> Void) async throws {
        try await pool.read { db in
            let (sql, arguments) = Self.select(query)
            let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            var batch: [StoredLocation] = []
            batch.reserveCapacity(max(1, batchSize))
            while let row = try rows.next() {
                batch.append(try LocationRowReader.storedLocation(row))
                if batch.count >= batchSize {
                    try body(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            if !batch.isEmpty { try body(batch) }
        }
    }

    public func deviceSummaries(userID: UserID) async throws(StoreError) -> [DeviceSummary] {
        try await read("summarising devices") { db in
            try Row.fetchAll(db, sql: """
                SELECT d.id, d.user_id, d.name, d.created_at_ms, d.app,
                    (SELECT count(*) FROM locations WHERE device_id = d.id),
                    (SELECT min(timestamp_ms) FROM locations WHERE device_id = d.id),
                    (SELECT max(timestamp_ms) FROM locations WHERE device_id = d.id)
                FROM devices d WHERE d.user_id = ? ORDER BY d.name
                """, arguments: [userID.rawValue]).map { row in
                let first: Int64? = row[6], last: Int64? = row[7]
                return DeviceSummary(device: Self.device(row), locationCount: row[5],
                                     firstTimestamp: first.map(StoragePrecision.date(milliseconds:)),
                                     lastTimestamp: last.map(StoragePrecision.date(milliseconds:)))
            }
        }
    }

    public func imports(userID: UserID) async throws(StoreError) -> [ImportRecord] {
        try await read("listing imports") { db in
            try Row.fetchAll(db, sql: """
                SELECT i.id, i.device_id, i.file_name, i.content_sha256, i.format, i.imported_at_ms,
                    i.inserted_count, i.duplicate_count, i.rejected_count
                FROM imports i JOIN devices d ON d.id = i.device_id WHERE d.user_id = ? ORDER BY i.id DESC
                """, arguments: [userID.rawValue]).map { row in
                ImportRecord(id: ImportID(rawValue: row[0]), deviceID: DeviceID(rawValue: row[1]),
                             provenance: ImportProvenance(fileName: row[2], contentSHA256: row[3], format: row[4]),
                             importedAt: StoragePrecision.date(milliseconds: row[5]),
                             inserted: row[6], duplicates: row[7], rejected: row[8])
            }
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

/// The import's view of its transaction.
private final class TransactionSink: ImportSink {
    let deviceID: DeviceID
    let importID: ImportID
    let writer: LocationRowWriter
    var summary = InsertSummary()

    init(db: Database, deviceID: DeviceID, importID: ImportID) throws {
        self.deviceID = deviceID
        self.importID = importID
        writer = try LocationRowWriter(db: db)
    }

    func insert(_ batch: [Location]) throws -> InsertSummary {
        var batchSummary = InsertSummary()
        for location in batch {
            if try writer.insert(deviceID: deviceID, location: location, source: .fileImport, importID: importID) {
                batchSummary.inserted += 1
            } else {
                batchSummary.duplicates += 1
            }
        }
        summary = summary + batchSummary
        return batchSummary
    }
}
