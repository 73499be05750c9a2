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

    /// Rows per INSERT. The rows travel as one array per column, so a statement has 15
    /// parameters however many rows it carries.
    static let rowsPerStatement = 10_000

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
    ///
    /// Arrays cannot carry NULLs here, so the nullable columns travel as values no location has:
    /// NaN for an unknown altitude (`Location` keeps only finite ones), `Int32.min` for an unknown
    /// UTC offset, 0 for no import (ids start at 1).
    /// - Parameter owners: each device's user.
    static func insert(_ batch: ArraySlice<StoredLocation>, owners: [DeviceID: UserID]) -> PostgresQuery {
        var users: [Int64] = [], devices: [Int64] = [], times: [Int64] = []
        var latitudes: [Int32] = [], longitudes: [Int32] = [], offsets: [Int32] = []
        var altitudes: [Double] = [], horizontal: [Double] = [], vertical: [Double] = [], speeds: [Double] = []
        var speedAccuracies: [Double] = [], courses: [Double] = [], courseAccuracies: [Double] = []
        var sources: [String] = [], imports: [Int64] = []
        for stored in batch {
            let key = stored.key, location = stored.location
            users.append(owners[stored.deviceID]?.rawValue ?? 0)
            devices.append(stored.deviceID.rawValue)
            times.append(key.timestampMilliseconds)
            latitudes.append(Int32(clamping: key.latitudeE7))
            longitudes.append(Int32(clamping: key.longitudeE7))
            altitudes.append(location.altitudeMeters ?? .nan)
            horizontal.append(location.horizontalAccuracyMeters)
            vertical.append(location.verticalAccuracyMeters)
            speeds.append(location.speedMetersPerSecond)
            speedAccuracies.append(location.speedAccuracyMetersPerSecond)
            courses.append(location.courseDegrees)
            courseAccuracies.append(location.courseAccuracyDegrees)
            offsets.append(location.utcOffsetSeconds.map { Int32(clamping: $0) } ?? .min)
            sources.append(stored.source.rawValue)
            imports.append(stored.importID?.rawValue ?? 0)
        }
        return """
            INSERT INTO locations (user_id, device_id, timestamp_ms, latitude_e7, longitude_e7, altitude_m, horizontal_accuracy_m,
                vertical_accuracy_m, speed_mps, speed_accuracy_mps, course_deg, course_accuracy_deg, utc_offset_s, source, import_id)
            SELECT u, d, t, la, lo, nullif(al, 'NaN'), ha, va, s, sa, c, ca, nullif(o, -2147483648), src, nullif(i, 0)
            FROM unnest(\(users), \(devices), \(times), \(latitudes), \(longitudes), \(altitudes), \(horizontal), \(vertical),
                \(speeds), \(speedAccuracies), \(courses), \(courseAccuracies), \(offsets), \(sources), \(imports))
                AS r (u, d, t, la, lo, al, ha, va, s, sa, c, ca, o, src, i)
            ON CONFLICT DO NOTHING RETURNING 1
            """
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
