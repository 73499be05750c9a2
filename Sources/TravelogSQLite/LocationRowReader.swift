import Foundation
import GRDB
import GRDBSQLite
import TravelogCore
import TravelogStore

/// Turns `locations` rows into domain values. Database rows are not domain types: this is the one
/// place that knows the columns.
///
/// Every read of locations (the journal after each batch, exports, maps) comes through here, so it
/// steps SQLite's statement and reads the columns with the C API directly, as `LocationRowWriter`
/// binds them: GRDB's `Row` values cost about as much per row as the insert did.
struct LocationRowReader {
    static let plausibility = LocationPlausibility()

    static let columns = """
        device_id, timestamp_ms, latitude_e7, longitude_e7, altitude_m, horizontal_accuracy_m,
        vertical_accuracy_m, speed_mps, speed_accuracy_mps, course_deg, course_accuracy_deg,
        utc_offset_s, source, import_id
        """

    private let statement: Statement
    /// The last `source` text read and what it named (rows of a run almost always share one).
    private var lastSource: (bytes: [UInt8], source: LocationSource)?

    /// Prepares `sql` (selecting `columns`, in order) with its arguments.
    init(db: Database, sql: String, arguments: StatementArguments) throws {
        statement = try db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
    }

    /// The next row, or nil after the last.
    mutating func next() throws -> StoredLocation? {
        let raw = statement.sqliteStatement
        switch sqlite3_step(raw) {
        case SQLITE_ROW: return try storedLocation(raw)
        case SQLITE_DONE:
            sqlite3_reset(raw)
            return nil
        case let code:
            let message = String(cString: sqlite3_errmsg(sqlite3_db_handle(raw)))
            sqlite3_reset(raw)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
        }
    }

    private mutating func storedLocation(_ raw: OpaquePointer) throws(StoreError) -> StoredLocation {
        func double(_ column: Int32) -> Double? {
            sqlite3_column_type(raw, column) == SQLITE_NULL ? nil : sqlite3_column_double(raw, column)
        }
        func integer(_ column: Int32) -> Int64? {
            sqlite3_column_type(raw, column) == SQLITE_NULL ? nil : sqlite3_column_int64(raw, column)
        }
        let latitudeE7 = sqlite3_column_int64(raw, 2), longitudeE7 = sqlite3_column_int64(raw, 3)
        guard let coordinate = Coordinate(validLatitude: StoragePrecision.degrees(e7: latitudeE7),
                                          longitude: StoragePrecision.degrees(e7: longitudeE7)) else {
            throw .database(operation: "reading a location", message: "stored coordinate \(latitudeE7), \(longitudeE7) is invalid")
        }
        let source = try source(raw)
        // Values stored before the write path checked them (an accuracy of 1e20 m) read back as unknown.
        let location = Self.plausibility.sanitized(Location(
            coordinate: coordinate, altitudeMeters: double(4), horizontalAccuracyMeters: double(5) ?? -1,
            verticalAccuracyMeters: double(6) ?? -1, speedMetersPerSecond: double(7) ?? -1,
            speedAccuracyMetersPerSecond: double(8) ?? -1, courseDegrees: double(9) ?? -1,
            courseAccuracyDegrees: double(10) ?? -1,
            timestamp: StoragePrecision.date(milliseconds: sqlite3_column_int64(raw, 1)),
            utcOffsetSeconds: integer(11).map { Int(truncatingIfNeeded: $0) }))
        return StoredLocation(deviceID: DeviceID(rawValue: sqlite3_column_int64(raw, 0)), location: location, source: source,
                              importID: integer(13).map(ImportID.init(rawValue:)))
    }

    /// The `source` column, named once per run of equal texts.
    private mutating func source(_ raw: OpaquePointer) throws(StoreError) -> LocationSource {
        let count = Int(sqlite3_column_bytes(raw, 12))
        let bytes = sqlite3_column_text(raw, 12).map { UnsafeBufferPointer(start: $0, count: count) } ?? UnsafeBufferPointer(start: nil, count: 0)
        if let lastSource, lastSource.bytes.elementsEqual(bytes) { return lastSource.source }
        let name = String(decoding: bytes, as: UTF8.self)
        guard let source = LocationSource(rawValue: name) else {
            throw .database(operation: "reading a location", message: "unknown source '\(name)'")
        }
        lastSource = (Array(bytes), source)
        return source
    }
}
