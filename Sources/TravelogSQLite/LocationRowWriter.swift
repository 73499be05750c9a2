import Foundation
import GRDB
import GRDBSQLite
import TravelogCore
import TravelogStore

/// Writes location rows inside an open write transaction, keeping the per-day bounding boxes in
/// step. One writer per transaction; call `flushDays()` before the transaction commits.
final class LocationRowWriter {
    private let db: Database
    private let insertStatement: Statement
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

    init(db: Database) throws {
        self.db = db
        insertStatement = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO locations (device_id, timestamp_ms, latitude_e7, longitude_e7, altitude_m,
                horizontal_accuracy_m, vertical_accuracy_m, speed_mps, speed_accuracy_mps, course_deg,
                course_accuracy_deg, utc_offset_s, source, import_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
    }

    /// Inserts one location unless its key is stored already. - Returns: whether it was new.
    ///
    /// This is the hot path of every import, so it binds the values with SQLite's C API directly
    /// instead of building a GRDB argument array per row (which cost about half the insert time).
    func insert(deviceID: DeviceID, location: Location, source: LocationSource, importID: ImportID?) throws -> Bool {
        let key = LocationKey(deviceID: deviceID, location: location)
        let statement = insertStatement.sqliteStatement
        sqlite3_reset(statement)
        sqlite3_bind_int64(statement, 1, deviceID.rawValue)
        sqlite3_bind_int64(statement, 2, key.timestampMilliseconds)
        sqlite3_bind_int64(statement, 3, key.latitudeE7)
        sqlite3_bind_int64(statement, 4, key.longitudeE7)
        if let altitude = location.altitudeMeters { sqlite3_bind_double(statement, 5, altitude) } else { sqlite3_bind_null(statement, 5) }
        sqlite3_bind_double(statement, 6, location.horizontalAccuracyMeters)
        sqlite3_bind_double(statement, 7, location.verticalAccuracyMeters)
        sqlite3_bind_double(statement, 8, location.speedMetersPerSecond)
        sqlite3_bind_double(statement, 9, location.speedAccuracyMetersPerSecond)
        sqlite3_bind_double(statement, 10, location.courseDegrees)
        sqlite3_bind_double(statement, 11, location.courseAccuracyDegrees)
        if let offset = location.utcOffsetSeconds { sqlite3_bind_int64(statement, 12, Int64(offset)) } else { sqlite3_bind_null(statement, 12) }
        if let importID { sqlite3_bind_int64(statement, 14, importID.rawValue) } else { sqlite3_bind_null(statement, 14) }
        // The source's text outlives the step, so SQLite need not copy it (a nil destructor is SQLITE_STATIC).
        let code = source.rawValue.withCString { text in
            sqlite3_bind_text(statement, 13, text, -1, nil)
            defer { sqlite3_bind_null(statement, 13) }
            return sqlite3_step(statement)
        }
        guard code == SQLITE_DONE else {
            let message = String(cString: sqlite3_errmsg(db.sqliteConnection))
            sqlite3_reset(statement)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
        }
        guard sqlite3_changes(db.sqliteConnection) > 0 else { return false }
        let day = DayKey(deviceID: deviceID.rawValue,
                         day: key.timestampMilliseconds.floorDivided(by: Self.millisecondsPerDay))
        if var box = days[day] {
            box.count += 1
            box.minLatitudeE7 = min(box.minLatitudeE7, key.latitudeE7)
            box.maxLatitudeE7 = max(box.maxLatitudeE7, key.latitudeE7)
            box.minLongitudeE7 = min(box.minLongitudeE7, key.longitudeE7)
            box.maxLongitudeE7 = max(box.maxLongitudeE7, key.longitudeE7)
            days[day] = box
        } else {
            days[day] = DayBox(count: 1, minLatitudeE7: key.latitudeE7, maxLatitudeE7: key.latitudeE7,
                               minLongitudeE7: key.longitudeE7, maxLongitudeE7: key.longitudeE7)
        }
        return true
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
