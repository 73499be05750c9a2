import Foundation
import PostgresNIO
import TravelogCore
import TravelogStore

/// Turns `locations` rows into domain values and locations into COPY rows: the one place of the
/// PostgreSQL store that knows the columns.
enum PostgresLocationRows {
    static let plausibility = LocationPlausibility()

    /// The columns every read selects, in the order `storedLocation` decodes them.
    static let columns = """
        device_id, timestamp_ms, latitude_e7, longitude_e7, altitude_m, horizontal_accuracy_m,
        vertical_accuracy_m, speed_mps, speed_accuracy_mps, course_deg, course_accuracy_deg,
        utc_offset_s, source, import_id
        """

    /// Rows per COPY message (about 1 MB).
    static let rowsPerMessage = 10_000

    /// The columns `copyText` writes, in its order (the staging table has the columns of `locations`).
    static let copyColumns = ["user_id", "device_id", "timestamp_ms", "latitude_e7", "longitude_e7", "altitude_m",
                              "horizontal_accuracy_m", "vertical_accuracy_m", "speed_mps", "speed_accuracy_mps",
                              "course_deg", "course_accuracy_deg", "utc_offset_s", "source", "import_id"]

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

    /// `batch` as rows of `COPY locations_staging (copyColumns) FROM STDIN` in the text format.
    /// - Parameter owners: each device's user.
    static func copyText(_ batch: ArraySlice<StoredLocation>, owners: [DeviceID: UserID]) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: batch.count * 120)
        func integer(_ value: Int64) {
            buffer.writeString(String(value))
            buffer.writeInteger(UInt8(ascii: "\t"))
        }
        func real(_ value: Double?) {
            if let value { buffer.writeString(PostgresCopyText.text(value)) } else { buffer.writeStaticString("\\N") }
            buffer.writeInteger(UInt8(ascii: "\t"))
        }
        for stored in batch {
            let key = stored.key, location = stored.location
            integer(owners[stored.deviceID]?.rawValue ?? 0)
            integer(stored.deviceID.rawValue)
            integer(key.timestampMilliseconds)
            integer(key.latitudeE7)
            integer(key.longitudeE7)
            real(location.altitudeMeters)
            real(location.horizontalAccuracyMeters)
            real(location.verticalAccuracyMeters)
            real(location.speedMetersPerSecond)
            real(location.speedAccuracyMetersPerSecond)
            real(location.courseDegrees)
            real(location.courseAccuracyDegrees)
            if let offset = location.utcOffsetSeconds { integer(Int64(offset)) } else { buffer.writeStaticString("\\N\t") }
            PostgresCopyText.write(stored.source.rawValue, into: &buffer)
            buffer.writeInteger(UInt8(ascii: "\t"))
            if let importID = stored.importID { buffer.writeString(String(importID.rawValue)) } else { buffer.writeStaticString("\\N") }
            buffer.writeInteger(UInt8(ascii: "\n"))
        }
        return buffer
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
