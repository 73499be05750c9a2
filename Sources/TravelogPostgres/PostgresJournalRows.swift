import Foundation
import PostgresNIO
import TravelogCore
import TravelogStore

/// Turns `visits` and `places` rows into domain values: the one place of the PostgreSQL store that
/// knows their columns.
enum PostgresJournalRows {
    static let visitColumns = """
        id, device_id, source, arrival_ms, departure_ms, latitude_e7, longitude_e7, radius_m, location_count, name,
        address, external_place_id, placemark_json, place_id, title, hidden, merged_until_ms
        """

    static let placeColumns = "id, user_id, name, latitude_e7, longitude_e7, radius_m"

    /// A visit from a row whose first columns are `visitColumns`.
    static func storedVisit(_ row: PostgresRow) throws(StoreError) -> StoredVisit {
        let operation = "reading a visit"
        let (id, device, source, arrival, departure, latitude, longitude, radius, count, name) = try PostgresLocationStore.decode(
            row, as: (Int64, Int64, String, Int64, Int64?, Int32, Int32, Double, Int64, String?).self, operation)
        let address = try PostgresLocationStore.decode(row, column: 10, as: String?.self, operation)
        let externalPlaceID = try PostgresLocationStore.decode(row, column: 11, as: String?.self, operation)
        let placemarkJSON = try PostgresLocationStore.decode(row, column: 12, as: String?.self, operation)
        let place = try PostgresLocationStore.decode(row, column: 13, as: Int64?.self, operation)
        let title = try PostgresLocationStore.decode(row, column: 14, as: String?.self, operation)
        let hidden = try PostgresLocationStore.decode(row, column: 15, as: Bool.self, operation)
        let merged = try PostgresLocationStore.decode(row, column: 16, as: Int64?.self, operation)
        let placemark = placemarkJSON.flatMap { try? JSONDecoder().decode(VisitPlacemark.self, from: Data($0.utf8)) }
        let visit = JournalVisit(
            deviceID: DeviceID(rawValue: device), source: VisitSource(rawValue: source) ?? .file,
            arrival: StoragePrecision.date(milliseconds: arrival), departure: departure.map(StoragePrecision.date(milliseconds:)),
            center: try coordinate(latitude, longitude), radiusMeters: radius, locationCount: Int(count),
            name: name, address: address, externalPlaceID: externalPlaceID, placemark: placemark)
        return StoredVisit(id: VisitID(rawValue: id), visit: visit, placeID: place.map(PlaceID.init(rawValue:)),
                           title: title, hidden: hidden, mergedUntil: merged.map(StoragePrecision.date(milliseconds:)))
    }

    static func place(_ row: PostgresRow) throws(StoreError) -> StoredPlace {
        let (id, user, name, latitude, longitude, radius) = try PostgresLocationStore.decode(
            row, as: (Int64, Int64, String?, Int32, Int32, Double).self, "reading a place")
        return StoredPlace(id: PlaceID(rawValue: id), userID: UserID(rawValue: user), name: name,
                           center: try coordinate(latitude, longitude), radiusMeters: radius)
    }

    /// A visit's placemark as stored (JSON), or `nil`.
    static func placemarkJSON(_ visit: JournalVisit) -> String? {
        VisitPlacemark.storedJSON(visit.placemark)
    }

    static func coordinate(_ latitudeE7: Int32, _ longitudeE7: Int32) throws(StoreError) -> Coordinate {
        guard let coordinate = Coordinate(validLatitude: StoragePrecision.degrees(e7: Int64(latitudeE7)),
                                          longitude: StoragePrecision.degrees(e7: Int64(longitudeE7))) else {
            throw .database(operation: "reading the journal", message: "stored coordinate \(latitudeE7), \(longitudeE7) is invalid")
        }
        return coordinate
    }
}
