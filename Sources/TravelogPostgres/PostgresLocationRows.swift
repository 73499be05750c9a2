import Foundation
import PostgresNIO
import TravelogCore
import TravelogStore

/// Turns `locations` rows into domain values and locations into INSERT statements: the one place
/// of the PostgreSQL store that knows the columns.
enum PostgresLocationRows {
    static let plausibility = LocationPlausibility()

    /// The columns every read selects, in the order `storedLocation` decodes them.
    static let columns = """
        device_id, timestamp_ms, latitude_e7, longitude_e7, altitude_m, horizontal_accuracy_m,
        vertical_accuracy_m, speed_mps, speed_accuracy_mps, course_deg, course_accuracy_deg,
        utc_offset_s, source, import_id
        """

    /// The columns an insert writes: `user_id` before the read columns.
    static let insertColumns = "user_id, " + columns
    static let insertColumnCount = 15

    /// Rows per INSERT: 15 parameters a row, well under the protocol's 65,535 per statement.
    static let rowsPerStatement = 2_000

    static func storedLocation(_ row: PostgresRow) throws(StoreError) -> StoredLocation {
        let operation = "reading a location"
        let (device, milliseconds, latitudeE7, longitudeE7, altitude, horizontal, vertical, speed, speedAccuracy,
             course, courseAccuracy, offset, sourceName, importID) = try PostgresLocationStore.decode(
                row, as: (Int64, Int64, Int32, Int32, Double?, Double, Double, Double, Double, Double, Double, Int32?,
                          String, Int64?).self, operation)
        guard let coordinate = Coordinate(validLatitude: StoragePrecision.degrees(e7: Int64(latitudeE7)),
                                          longitude: StoragePrecision.degrees(e7: Int64(longitudeE7))) else {
            throw .database(operation: operation, message: "stored coordinate \(latitudeE7), \(longitudeE7) is invalid")
        }
        guard let source = LocationSource(rawValue: sourceName) else {
            throw .database(operation: operation, message: "unknown source '\(sourceName)'")
        }
        let location = plausibility.sanitized(Location(
            coordinate: coordinate, altitudeMeters: altitude, horizontalAccuracyMeters: horizontal,
            verticalAccuracyMeters: vertical, speedMetersPerSecond: speed, speedAccuracyMetersPerSecond: speedAccuracy,
            courseDegrees: course, courseAccuracyDegrees: courseAccuracy,
            timestamp: StoragePrecision.date(milliseconds: milliseconds), utcOffsetSeconds: offset.map(Int.init)))
        return StoredLocation(deviceID: DeviceID(rawValue: device), location: location, source: source,
                              importID: importID.map(ImportID.init(rawValue:)))
    }

    /// One INSERT of `batch` (at most `rowsPerStatement`) that skips rows whose key is stored
    /// already, and returns one row per location it stored.
    /// - Parameter owners: each device's user.
    static func insert(_ batch: ArraySlice<StoredLocation>, owners: [DeviceID: UserID]) -> PostgresQuery {
        var bindings = PostgresBindings(capacity: batch.count * insertColumnCount)
        var sql = "INSERT INTO locations (\(insertColumns)) VALUES "
        sql.reserveCapacity(batch.count * 100 + 200)
        for (index, stored) in batch.enumerated() {
            let key = stored.key
            let location = stored.location
            bindings.append(owners[stored.deviceID]?.rawValue ?? 0)
            bindings.append(stored.deviceID.rawValue)
            bindings.append(key.timestampMilliseconds)
            bindings.append(Int32(clamping: key.latitudeE7))
            bindings.append(Int32(clamping: key.longitudeE7))
            bindings.append(location.altitudeMeters)
            bindings.append(location.horizontalAccuracyMeters)
            bindings.append(location.verticalAccuracyMeters)
            bindings.append(location.speedMetersPerSecond)
            bindings.append(location.speedAccuracyMetersPerSecond)
            bindings.append(location.courseDegrees)
            bindings.append(location.courseAccuracyDegrees)
            bindings.append(location.utcOffsetSeconds.map { Int32(clamping: $0) })
            bindings.append(stored.source.rawValue)
            bindings.append(stored.importID?.rawValue)
            let first = index * insertColumnCount
            sql += index == 0 ? "(" : ", ("
            sql += (1...insertColumnCount).map { "$\(first + $0)" }.joined(separator: ", ")
            sql += ")"
        }
        sql += " ON CONFLICT DO NOTHING RETURNING 1"
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }

    /// The SELECT for a query: always scoped to the query's user.
    static func select(_ query: LocationQuery) -> PostgresQuery {
        var bindings = PostgresBindings()
        func parameter(_ value: some PostgresDynamicTypeEncodable) -> String {
            bindings.append(value)
            return "$\(bindings.count)"
        }
        var conditions = ["user_id = \(parameter(query.userID.rawValue))"]
        if let devices = query.deviceIDs {
            conditions.append("device_id = ANY(\(parameter(devices.map(\.rawValue).sorted())))")
        }
        if let start = query.from {
            conditions.append("timestamp_ms >= \(parameter(StoragePrecision.milliseconds(start)))")
        }
        if let end = query.to {
            conditions.append("timestamp_ms < \(parameter(StoragePrecision.milliseconds(end)))")
        }
        if let area = query.area {
            conditions.append("latitude_e7 BETWEEN \(parameter(StoragePrecision.e7(area.south))) AND \(parameter(StoragePrecision.e7(area.north)))")
            // A box across the 180th meridian has its west edge east of its east edge.
            let joiner = area.west <= area.east ? "AND" : "OR"
            conditions.append("(longitude_e7 >= \(parameter(StoragePrecision.e7(area.west))) \(joiner) longitude_e7 <= \(parameter(StoragePrecision.e7(area.east))))")
        }
        let order = query.newestFirst ? "DESC" : "ASC"
        var sql = "SELECT \(columns) FROM locations WHERE \(conditions.joined(separator: " AND ")) ORDER BY timestamp_ms \(order), device_id \(order)"
        if let limit = query.limit {
            sql += " LIMIT \(parameter(Int64(limit)))"
        }
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }
}
