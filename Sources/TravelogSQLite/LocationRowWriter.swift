import Foundation
import GRDB
import GRDBSQLite
import TravelogCore
import TravelogStore

/// Writes location rows inside an open write transaction, keeping the per-day bounding boxes in
/// step. One writer per transaction; call `flushDays()` before the transaction commits.
final class LocationRowWriter {
    private let db: Database
    /// Insert statements by how many rows they take: `rowsPerStatement`, and the powers of two
    /// below it for a batch's last rows.
    private var statements: [Int: Statement] = [:]
    /// Bounding boxes of what this writer inserted, per device and UTC day, merged at flush.
    private var days: [DayKey: DayBox] = [:]
    /// Days whose count is taken again from the table at flush (see `insert`).
    private var recount: Set<DayKey> = []

    struct DayKey: Hashable {
        var deviceID: Int64
        var day: Int64
    }

    struct DayBox {
        var count: Int64
        var minLatitudeE7: Int64, maxLatitudeE7: Int64
        var minLongitudeE7: Int64, maxLongitudeE7: Int64

        init(latitudeE7: Int64, longitudeE7: Int64) {
            count = 1
            minLatitudeE7 = latitudeE7; maxLatitudeE7 = latitudeE7
            minLongitudeE7 = longitudeE7; maxLongitudeE7 = longitudeE7
        }

        mutating func widen(latitudeE7: Int64, longitudeE7: Int64) {
            minLatitudeE7 = min(minLatitudeE7, latitudeE7); maxLatitudeE7 = max(maxLatitudeE7, latitudeE7)
            minLongitudeE7 = min(minLongitudeE7, longitudeE7); maxLongitudeE7 = max(maxLongitudeE7, longitudeE7)
        }

        mutating func merge(_ other: DayBox) {
            count += other.count
            minLatitudeE7 = min(minLatitudeE7, other.minLatitudeE7); maxLatitudeE7 = max(maxLatitudeE7, other.maxLatitudeE7)
            minLongitudeE7 = min(minLongitudeE7, other.minLongitudeE7); maxLongitudeE7 = max(maxLongitudeE7, other.maxLongitudeE7)
        }
    }

    static let millisecondsPerDay: Int64 = 86_400_000
    /// Rows per multi-row INSERT: what a statement costs whatever its size (opening cursors on the
    /// table, its two indexes and the parents of its foreign keys, and closing them) is shared by
    /// this many rows, about a third of an import's insert time. 64 × 14 values stays far below
    /// SQLite's limit of 32,766. A batch's last rows go in statements of 32, 16, … 1 rows: one
    /// row alone costs about four times a row among 64.
    static let rowsPerStatement = 64
    private static let columnsPerRow: Int32 = 14

    init(db: Database) {
        self.db = db
    }

    /// The cached INSERT for `rows` rows.
    ///
    /// No `RETURNING`: SQLite keeps every returned row aside until the statement ends, which cost
    /// as much again as the insert itself (3.4 against 2.0 µs a row with 64 rows a statement).
    /// `sqlite3_changes` says how many rows were new instead.
    private func statement(rows: Int) throws -> OpaquePointer {
        if let statement = statements[rows] { return statement.sqliteStatement }
        let values = Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
        let statement = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO locations (device_id, timestamp_ms, latitude_e7, longitude_e7, altitude_m,
                horizontal_accuracy_m, vertical_accuracy_m, speed_mps, speed_accuracy_mps, course_deg,
                course_accuracy_deg, utc_offset_s, source, import_id)
            VALUES \(values)
            """)
        statements[rows] = statement
        return statement.sqliteStatement
    }

    /// Inserts the locations whose key is not stored already. - Returns: how many were new.
    ///
    /// This is the hot path of every import, so it binds the values with SQLite's C API directly
    /// instead of building a GRDB argument array per row (which cost about half the insert time).
    ///
    /// The day boxes take every row of a statement: a row passed over as a repeat has the key,
    /// hence the day and the position, of a stored row that its day's box holds already. The
    /// counts take what `sqlite3_changes` reports; when a statement with repeats spans several
    /// days, which of them gained rows is unknown, so those days are counted again at flush.
    func insert(_ batch: [StoredLocation]) throws -> Int {
        var inserted = 0, next = batch.startIndex
        var runs: [(key: DayKey, box: DayBox)] = []
        while next < batch.endIndex {
            let left = batch.endIndex - next
            var rows = Self.rowsPerStatement
            while rows > left { rows /= 2 }
            let statement = try statement(rows: rows)
            sqlite3_reset(statement)
            runs.removeAll(keepingCapacity: true)
            for (row, stored) in batch[next..<next + rows].enumerated() {
                let key = bind(stored, at: Int32(row) * Self.columnsPerRow, in: statement)
                let day = DayKey(deviceID: stored.deviceID.rawValue,
                                 day: key.timestampMilliseconds.floorDivided(by: Self.millisecondsPerDay))
                if let last = runs.indices.last, runs[last].key == day {
                    runs[last].box.count += 1
                    runs[last].box.widen(latitudeE7: key.latitudeE7, longitudeE7: key.longitudeE7)
                } else {
                    runs.append((day, DayBox(latitudeE7: key.latitudeE7, longitudeE7: key.longitudeE7)))
                }
            }
            let stored = try step(statement)
            inserted += stored
            next += rows
            let uncertain = stored < rows && runs.count > 1
            for var run in runs {
                if stored < rows { run.box.count = uncertain ? 0 : Int64(stored) }
                if uncertain { recount.insert(run.key) }
                if var box = days[run.key] {
                    box.merge(run.box)
                    days[run.key] = box
                } else {
                    days[run.key] = run.box
                }
            }
        }
        return inserted
    }

    /// Binds one row's 14 values after the first `offset` parameters. - Returns: the row's key.
    private func bind(_ stored: StoredLocation, at offset: Int32, in statement: OpaquePointer) -> LocationKey {
        let location = stored.location
        let key = LocationKey(deviceID: stored.deviceID, location: location)
        sqlite3_bind_int64(statement, offset + 1, stored.deviceID.rawValue)
        sqlite3_bind_int64(statement, offset + 2, key.timestampMilliseconds)
        sqlite3_bind_int64(statement, offset + 3, key.latitudeE7)
        sqlite3_bind_int64(statement, offset + 4, key.longitudeE7)
        if let altitude = location.altitudeMeters { sqlite3_bind_double(statement, offset + 5, altitude) } else { sqlite3_bind_null(statement, offset + 5) }
        sqlite3_bind_double(statement, offset + 6, location.horizontalAccuracyMeters)
        sqlite3_bind_double(statement, offset + 7, location.verticalAccuracyMeters)
        sqlite3_bind_double(statement, offset + 8, location.speedMetersPerSecond)
        sqlite3_bind_double(statement, offset + 9, location.speedAccuracyMetersPerSecond)
        sqlite3_bind_double(statement, offset + 10, location.courseDegrees)
        sqlite3_bind_double(statement, offset + 11, location.courseAccuracyDegrees)
        if let offsetSeconds = location.utcOffsetSeconds { sqlite3_bind_int64(statement, offset + 12, Int64(offsetSeconds)) } else { sqlite3_bind_null(statement, offset + 12) }
        // Static text: neither Swift (a short String has no address of its own) nor SQLite copies it per row.
        let source = Self.sourceNames[stored.source]!
        sqlite3_bind_text(statement, offset + 13, source.text, source.count, Self.static)
        if let importID = stored.importID { sqlite3_bind_int64(statement, offset + 14, importID.rawValue) } else { sqlite3_bind_null(statement, offset + 14) }
        return key
    }

    private static let `static` = unsafeBitCast(0, to: sqlite3_destructor_type.self)
    /// Each source's name as C text that lives as long as the process (never written: safe to share).
    nonisolated(unsafe) private static let sourceNames: [LocationSource: (text: UnsafePointer<CChar>, count: Int32)] =
        Dictionary(uniqueKeysWithValues: LocationSource.allCases.map { source in
            (source, (UnsafePointer(strdup(source.rawValue)!), Int32(source.rawValue.utf8.count)))
        })

    /// Runs a bound statement. - Returns: how many rows it inserted.
    private func step(_ statement: OpaquePointer) throws -> Int {
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else {
            let message = String(cString: sqlite3_errmsg(db.sqliteConnection))
            sqlite3_reset(statement)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
        }
        return Int(sqlite3_changes(db.sqliteConnection))
    }

    /// Merges the day boxes into `location_days` and its R*Tree.
    func flushDays() throws {
        let upsert = try db.cachedStatement(sql: """
            INSERT INTO location_days (device_id, day, location_count, min_latitude_e7, max_latitude_e7,
                min_longitude_e7, max_longitude_e7)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (device_id, day) DO UPDATE SET
                location_count = location_count + excluded.location_count,
                min_latitude_e7 = min(min_latitude_e7, excluded.min_latitude_e7),
                max_latitude_e7 = max(max_latitude_e7, excluded.max_latitude_e7),
                min_longitude_e7 = min(min_longitude_e7, excluded.min_longitude_e7),
                max_longitude_e7 = max(max_longitude_e7, excluded.max_longitude_e7)
            """)
        let index = try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO location_days_rtree (id, min_latitude, max_latitude, min_longitude, max_longitude)
            SELECT id, min_latitude_e7 / 1e7, max_latitude_e7 / 1e7, min_longitude_e7 / 1e7, max_longitude_e7 / 1e7
            FROM location_days WHERE device_id = ? AND day = ?
            """)
        for (key, box) in days {
            try upsert.execute(arguments: [key.deviceID, key.day, box.count, box.minLatitudeE7, box.maxLatitudeE7,
                                           box.minLongitudeE7, box.maxLongitudeE7])
            try index.execute(arguments: [key.deviceID, key.day])
        }
        if !recount.isEmpty {
            let count = try db.cachedStatement(sql: """
                UPDATE location_days SET location_count = (
                    SELECT count(*) FROM locations WHERE device_id = ?1 AND timestamp_ms >= ?2 AND timestamp_ms < ?3)
                WHERE device_id = ?1 AND day = ?4
                """)
            for key in recount {
                try count.execute(arguments: [key.deviceID, key.day * Self.millisecondsPerDay,
                                              (key.day + 1) * Self.millisecondsPerDay, key.day])
            }
        }
        days.removeAll(keepingCapacity: true)
        recount.removeAll(keepingCapacity: true)
    }
}

extension Int64 {
    /// Division rounding towards negative infinity (days before 1970 are negative).
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
