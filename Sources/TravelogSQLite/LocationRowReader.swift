import Foundation
import GRDB
import TravelogCore
import TravelogStore

/// Turns `locations` rows into domain values. Database rows are not domain types: this is the one
/// place that knows the columns.
enum LocationRowReader {
    static let plausibility = LocationPlausibility()

    static let columns = """
        device_id, timestamp_ms, latitude_e7, longitude_e7, altitude_m, horizontal_accuracy_m,
        vertical_accuracy_m, speed_mps, speed_accuracy_mps, course_deg, course_accuracy_deg,
        utc_offset_s, source, import_id
        """

    static func storedLocation(_ row: Row) throws(StoreError) -> StoredLocation {
        let latitudeE7: Int64 = row[2], longitudeE7: Int64 = row[3]
        guard let coordinate = Coordinate(validLatitude: StoragePrecision.degrees(e7: latitudeE7),
                                          longitude: StoragePrecision.degrees(e7: longitudeE7)) else {
            throw .database(operation: "reading a location", message: "stored coordinate \(latitudeE7), \(longitudeE7) is invalid")
        }
        let sourceName: String = row[12]
        guard let source = LocationSource(rawValue: sourceName) else {
            throw .database(operation: "reading a location", message: "unknown source '\(sourceName)'")
        }
        // Values stored before the write path checked them (an accuracy of 1e20 m) read back as unknown.
        let location = plausibility.sanitized(Location(
            coordinate: coordinate, altitudeMeters: row[4], horizontalAccuracyMeters: row[5],
            verticalAccuracyMeters: row[6], speedMetersPerSecond: row[7], speedAccuracyMetersPerSecond: row[8],
            courseDegrees: row[9], courseAccuracyDegrees: row[10],
            timestamp: StoragePrecision.date(milliseconds: row[1]), utcOffsetSeconds: row[11]))
        let importID: Int64? = row[13]
        return StoredLocation(deviceID: DeviceID(rawValue: row[0]), location: location, source: source, importID: importID.map(ImportID.init(rawValue:)))
    }
}
