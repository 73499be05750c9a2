import Foundation
import GRDB
import GRDBSQLite
import TravelogCore
import TravelogStore

/// Writes location rows inside an open write transaction, keeping the per-day bounding boxes in
/// step. One writer per transaction; call `flushDays()` before the transaction commits.
final class LocationRowWriter {
    private let db: Database
    /// Inserts `rowsPerStatement` rows at a time, and one row for a batch's last few.
    private let manyRowsStatement: Statement, oneRowStatement: Statement
    /// Bounding boxes of what this writer inserted, per device and UTC day, merged at flush.
    private var days: [DayKey: DayBox] = [:]

    struct DayKey: Hashable {
        var deviceID: Int64
        var day: Int64
    }

    struct DayBox {
        var count: Int64
        var minLatitudeE7: Int64, maxLatitudeE7: Int64
        var minLongitudeE7: Int64, maxLongitudeE7: Int64
    }

    static let millisecondsPerDay: Int64 = 86_400_000
    /// Rows per multi-row INSERT: what a statement costs whatever its size (opening cursors on the
    /// table, its two indexes and the parents of its foreign keys, and closing them) is shared by
    /// this many rows, about a third of an import's insert time. 64 × 14 values stays far below
    /// SQLite's limit of 32,766.
    static let rowsPerStatement = 64
    private static let columnsPerRow: Int32 = 14

    init(db: Database) throws {
        self.db = db
        func sql(rows: Int) -> String {
            let values = Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
            // `RETURNING` names only the rows inserted, not those `OR IGNORE` passed over.
            return """
                INSERT OR IGNORE INTO locations (device_id, timestamp_ms, latitude_e7, longitude_e7, altitude_m,
                    horizontal_accuracy_m, vertical_accuracy_m, speed_mps, speed_accuracy_mps, course_deg,
                    course_accuracy_deg, utc_offset_s, source, import_id)
                VALUES \(values)
                RETURNING device_id, timestamp_ms, latitude_e7, longitude_e7
                """
        }
        manyRowsStatement = try db.cachedStatement(sql: sql(rows: Self.rowsPerStatement))
        oneRowStatement = try db.cachedStatement(sql: sql(rows: 1))
    }

    /// Inserts the locations whose key is not stored already. - Returns: how many were new.
    ///
    /// This is the hot path of every import, so it binds the values with SQLite's C API directly
    /// instead of building a GRDB argument array per row (which cost about half the insert time).
    func insert(_ batch: [StoredLocation]) throws -> Int {
        var inserted = 0, next = batch.startIndex
        while next < batch.endIndex {
            let rows = batch.endIndex - next >= Self.rowsPerStatement ? Self.rowsPerStatement : 1
            let statement = (rows == 1 ? oneRowStatement : manyRowsStatement).sqliteStatement
            sqlite3_reset(statement)
            for (row, stored) in batch[next..<next + rows].enumerated() {
                bind(stored, at: Int32(row) * Self.columnsPerRow, in: statement)
            }
            inserted += try step(statement)
            next += rows
        }
        return inserted
    }

    /// Binds one row's 14 values after the first `offset` parameters.
    private func bind(_ stored: StoredLocation, at offset: Int32, in statement: OpaquePointer) {
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
        // SQLITE_TRANSIENT: SQLite copies the short text, which then need not outlive this call.
        sqlite3_bind_text(statement, offset + 13, stored.source.rawValue, -1, Self.transient)
        if let importID = stored.importID { sqlite3_bind_int64(statement, offset + 14, importID.rawValue) } else { sqlite3_bind_null(statement, offset + 14) }
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Runs a bound statement, noting each row it inserted in its day's box.
    /// - Returns: how many rows it inserted.
    private func step(_ statement: OpaquePointer) throws -> Int {
        var inserted = 0
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return inserted }
            guard code == SQLITE_ROW else {
                let message = String(cString: sqlite3_errmsg(db.sqliteConnection))
                sqlite3_reset(statement)
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
            }
            inserted += 1
            note(deviceID: sqlite3_column_int64(statement, 0), timestampMilliseconds: sqlite3_column_int64(statement, 1),
                 latitudeE7: sqlite3_column_int64(statement, 2), longitudeE7: sqlite3_column_int64(statement, 3))
        }
    }

    /// Widens the day box of an inserted row.
    private func note(deviceID: Int64, timestampMilliseconds: Int64, latitudeE7: Int64, longitudeE7: Int64) {
        let day = DayKey(deviceID: deviceID, day: timestampMilliseconds.floorDivided(by: Self.millisecondsPerDay))
        if var box = days[day] {
            box.count += 1
            box.minLatitudeE7 = min(box.minLatitudeE7, latitudeE7)
            box.maxLatitudeE7 = max(box.maxLatitudeE7, latitudeE7)
            box.minLongitudeE7 = min(box.minLongitudeE7, longitudeE7)
            box.maxLongitudeE7 = max(box.maxLongitudeE7, longitudeE7)
            days[day] = box
        } else {
            days[day] = DayBox(count: 1, minLatitudeE7: latitudeE7, maxLatitudeE7: latitudeE7,
                               minLongitudeE7: longitudeE7, maxLongitudeE7: longitudeE7)
        }
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
        days.removeAll(keepingCapacity: true)
    }
}

extension Int64 {
    /// Division rounding towards negative infinity (days before 1970 are negative).
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
