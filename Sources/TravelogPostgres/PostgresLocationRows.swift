import Foundation
import PostgresNIO
import TravelogCore
import TravelogStore

/// Turns `locations` rows into domain values and batches of locations into the parameters of one
/// INSERT: the one place of the PostgreSQL store that knows the columns.
enum PostgresLocationRows {
    static let plausibility = LocationPlausibility()

    /// The columns every read selects, in the order `storedLocation` decodes them.
    static let columns = """
        device_id, timestamp_ms, latitude_e7, longitude_e7, altitude_m, horizontal_accuracy_m,
        vertical_accuracy_m, speed_mps, speed_accuracy_mps, course_deg, course_accuracy_deg,
        utc_offset_s, source, import_id
        """

    static func storedLocation(_ row: PostgresRow) throws(StoreError) -> StoredLocation {
        let operation = "reading a location"
        var cells = PostgresBinaryCells(row, operation: operation)
        let device = try cells.int64(), milliseconds = try cells.int64()
        let latitudeE7 = try cells.int32(), longitudeE7 = try cells.int32()
        let altitude = try cells.optionalDouble(), horizontal = try cells.double(), vertical = try cells.double()
        let speed = try cells.double(), speedAccuracy = try cells.double()
        let course = try cells.double(), courseAccuracy = try cells.double()
        let offset = try cells.optionalInt32(), sourceName = try cells.string(), importID = try cells.optionalInt64()
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

    /// The INSERT of a batch: each column of `insertColumns` as one binary array parameter
    /// (`insertArrays`), unnested into rows and merged with ON CONFLICT DO NOTHING, so the
    /// idempotency key is the table's unique key, as with single rows. One statement, so one round
    /// trip and atomic without a transaction of its own; it returns how many rows were new.
    static let insertSQL: String = {
        let arrays = insertKinds.enumerated().map { "$\($0.offset + 1)::\($0.element.arrayTypeName)" }
            .joined(separator: ", ")
        return """
            WITH stored AS (
                INSERT INTO locations (\(insertColumns.joined(separator: ", ")))
                SELECT * FROM unnest(\(arrays))
                ON CONFLICT DO NOTHING RETURNING 1
            ) SELECT count(*) FROM stored
            """
    }()

    /// The columns `insertArrays` fills, in its order.
    static let insertColumns = ["user_id", "device_id", "timestamp_ms", "latitude_e7", "longitude_e7", "altitude_m",
                                "horizontal_accuracy_m", "vertical_accuracy_m", "speed_mps", "speed_accuracy_mps",
                                "course_deg", "course_accuracy_deg", "utc_offset_s", "source", "import_id"]

    /// The kinds of the `insertColumns`' arrays.
    static let insertKinds: [PostgresArrayColumn.Kind] = [.int8, .int8, .int8, .int4, .int4, .float8, .float8, .float8,
                                                          .float8, .float8, .float8, .float8, .int4, .text, .int8]

    /// `batch` as the parameters of `insertSQL`.
    /// - Parameter owners: each device's user.
    static func insertArrays(_ batch: [StoredLocation], owners: [DeviceID: UserID]) -> PostgresBindings {
        var columns = insertKinds.map { PostgresArrayColumn($0, capacity: batch.count) }
        for stored in batch {
            let key = stored.key, location = stored.location
            columns[0].append(owners[stored.deviceID]?.rawValue ?? 0)
            columns[1].append(stored.deviceID.rawValue)
            columns[2].append(key.timestampMilliseconds)
            columns[3].append(Int32(truncatingIfNeeded: key.latitudeE7))
            columns[4].append(Int32(truncatingIfNeeded: key.longitudeE7))
            columns[5].append(location.altitudeMeters)
            columns[6].append(location.horizontalAccuracyMeters)
            columns[7].append(location.verticalAccuracyMeters)
            columns[8].append(location.speedMetersPerSecond)
            columns[9].append(location.speedAccuracyMetersPerSecond)
            columns[10].append(location.courseDegrees)
            columns[11].append(location.courseAccuracyDegrees)
            columns[12].append(location.utcOffsetSeconds.map { Int32(truncatingIfNeeded: $0) })
            columns[13].append(stored.source.rawValue)
            columns[14].append(stored.importID?.rawValue)
        }
        var bindings = PostgresBindings(capacity: columns.count)
        for column in columns { bindings.append(column) }
        return bindings
    }

    /// The SELECT for a query: always scoped to the query's user.
    /// - Parameter postgis: the schema of PostGIS's types, functions and operators (quoted), which
    ///   the store's search path need not name.
    static func select(_ query: LocationQuery, postgis: String) -> PostgresQuery {
        var bindings = PostgresBindings()
        func parameter(_ value: some PostgresDynamicTypeEncodable) -> String {
            bindings.append(value)
            return "$\(bindings.count)"
        }
        var conditions = ["user_id = \(parameter(query.userID.rawValue))"]
        if let devices = query.deviceIDs {
            // One device as an equality: the unique key (user, device, time, …) then gives the rows
            // in time order, read as they stream; with `= ANY(…)` the planner read and sorted all
            // of them first (1M rows: a parallel scan and a sort before the first row).
            if devices.count == 1, let device = devices.first {
                conditions.append("device_id = \(parameter(device.rawValue))")
            } else {
                conditions.append("device_id = ANY(\(parameter(devices.map(\.rawValue).sorted())))")
            }
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
            // The exact filter above decides; this lets the GiST index find the candidates.
            if let prefilter = PostgresAreaPrefilter.condition(area, postgis: postgis, parameter: { parameter($0) }) {
                conditions.append(prefilter)
            }
        }
        let order = query.newestFirst ? "DESC" : "ASC"
        var sql = "SELECT \(columns) FROM locations WHERE \(conditions.joined(separator: " AND ")) ORDER BY timestamp_ms \(order), device_id \(order)"
        if let limit = query.limit {
            sql += " LIMIT \(parameter(Int64(limit)))"
        }
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }
}
