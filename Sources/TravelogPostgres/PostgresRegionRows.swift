import Foundation
import PostgresNIO
import TravelogCore
import TravelogStore

/// A region's and a transition's columns, apart from the domain types: a circle as its center
/// (1e-7 degree) and radius, a polygon as its rings in JSON (`[[[longitude, latitude], …], …]`),
/// as in the SQLite store.
enum PostgresRegionRows {
    static let columns = """
        id, user_id, name, shape, center_latitude_e7, center_longitude_e7, radius_m, rings_json,
        notify_on_entry, notify_on_exit, beacon_uuid, beacon_major, beacon_minor, created_at_ms, updated_at_ms
        """

    static let transitionColumns = """
        id, device_id, region_id, kind, occurred_at_ms, latitude_e7, longitude_e7, horizontal_accuracy_m, source
        """

    /// A definition's columns, as the values to bind.
    struct Values {
        var shape = "circle"
        var latitudeE7: Int32?, longitudeE7: Int32?, radiusMeters: Double?, ringsJSON: String?
        var beaconUUID: String?, beaconMajor: Int32?, beaconMinor: Int32?

        init(_ definition: RegionDefinition) throws(StoreError) {
            try self.init(shape: definition.shape)
            beaconUUID = definition.beacon?.proximityUUID.uuidString
            beaconMajor = definition.beacon?.major.map(Int32.init)
            beaconMinor = definition.beacon?.minor.map(Int32.init)
        }

        /// A shape's columns alone: regions and privacy zones keep their areas alike.
        init(shape: MonitoredRegion.Shape) throws(StoreError) {
            switch shape {
            case .circle(let circle):
                latitudeE7 = Int32(clamping: StoragePrecision.e7(circle.center.latitude))
                longitudeE7 = Int32(clamping: StoragePrecision.e7(circle.center.longitude))
                radiusMeters = circle.radiusMeters
            case .polygon(let polygon):
                self.shape = "polygon"
                let positions = ([polygon.exteriorRing] + polygon.interiorRings).map { ring in ring.map { [$0.longitude, $0.latitude] } }
                do {
                    ringsJSON = String(decoding: try JSONEncoder().encode(positions), as: UTF8.self)
                } catch {
                    throw .database(operation: "storing an area", message: "cannot encode its rings: \(error)")
                }
            }
        }
    }

    /// The shape its columns describe. - Throws: for columns no version of Travelog writes.
    static func shape(kind: String, latitudeE7: Int32?, longitudeE7: Int32?, radiusMeters: Double?, ringsJSON: String?) throws
        -> MonitoredRegion.Shape {
        let operation = "reading an area"
        if kind == "polygon" {
            let positions = try JSONDecoder().decode([[[Double]]].self, from: Data((ringsJSON ?? "[]").utf8))
            let coordinates = try positions.map { ring in
                try ring.map { position throws -> Coordinate in
                    guard position.count >= 2 else { throw StoreError.database(operation: operation, message: "a short position") }
                    return try Coordinate(latitude: position[1], longitude: position[0])
                }
            }
            guard let exterior = coordinates.first else { throw StoreError.database(operation: operation, message: "no rings") }
            return .polygon(try Polygon(exteriorRing: exterior, interiorRings: Array(coordinates.dropFirst())))
        }
        let center = try Coordinate(latitude: StoragePrecision.degrees(e7: Int64(latitudeE7 ?? 0)),
                                    longitude: StoragePrecision.degrees(e7: Int64(longitudeE7 ?? 0)))
        return .circle(try Circle(center: center, radiusMeters: radiusMeters ?? 0))
    }

    /// A stored region from a row selected with `columns`.
    /// - Throws: `StoreError.database` for a row no version of Travelog writes.
    static func region(_ row: PostgresRow) throws(StoreError) -> StoredRegion {
        let operation = "reading a region"
        let (id, user, name, shapeName, latitude, longitude, radius, rings) = try PostgresLocationStore.decode(
            row, as: (Int64, Int64, String, String, Int32?, Int32?, Double?, String?).self, operation)
        let notifyOnEntry = try PostgresLocationStore.decode(row, column: 8, as: Bool.self, operation)
        let notifyOnExit = try PostgresLocationStore.decode(row, column: 9, as: Bool.self, operation)
        let uuid = try PostgresLocationStore.decode(row, column: 10, as: String?.self, operation)
        let major = try PostgresLocationStore.decode(row, column: 11, as: Int32?.self, operation)
        let minor = try PostgresLocationStore.decode(row, column: 12, as: Int32?.self, operation)
        let created = try PostgresLocationStore.decode(row, column: 13, as: Int64.self, operation)
        let updated = try PostgresLocationStore.decode(row, column: 14, as: Int64.self, operation)
        do {
            let shape = try Self.shape(kind: shapeName, latitudeE7: latitude, longitudeE7: longitude, radiusMeters: radius, ringsJSON: rings)
            let beacon = try uuid.flatMap(UUID.init(uuidString:)).map { uuid in
                try RegionBeacon(proximityUUID: uuid, major: major.flatMap(UInt16.init(exactly:)), minor: minor.flatMap(UInt16.init(exactly:)))
            }
            let definition = try RegionDefinition(name: name, shape: shape, notifyOnEntry: notifyOnEntry,
                                                  notifyOnExit: notifyOnExit, beacon: beacon)
            return StoredRegion(id: RegionID(rawValue: id), userID: UserID(rawValue: user), definition: definition,
                                createdAt: StoragePrecision.date(milliseconds: created),
                                updatedAt: StoragePrecision.date(milliseconds: updated))
        } catch let error as StoreError {
            throw error
        } catch {
            throw .database(operation: operation, message: "region \(id) cannot be read: \(error)")
        }
    }

    static func transition(_ row: PostgresRow) throws(StoreError) -> StoredRegionTransition {
        let (id, device, region, kind, occurred, latitude, longitude, accuracy, source) = try PostgresLocationStore.decode(
            row, as: (Int64, Int64, Int64, String, Int64, Int32?, Int32?, Double?, String).self, "reading a region transition")
        let coordinate = latitude.flatMap { latitude in
            longitude.flatMap { Coordinate(validLatitude: StoragePrecision.degrees(e7: Int64(latitude)),
                                           longitude: StoragePrecision.degrees(e7: Int64($0))) }
        }
        let transition = RegionTransition(
            deviceID: DeviceID(rawValue: device), regionID: RegionID(rawValue: region), kind: kind == "enter" ? .entry : .exit,
            occurredAt: StoragePrecision.date(milliseconds: occurred), coordinate: coordinate,
            horizontalAccuracyMeters: accuracy, source: RegionTransition.Source(rawValue: source) ?? .detected)
        return StoredRegionTransition(id: RegionTransitionID(rawValue: id), transition: transition)
    }

    static func stateName(_ state: RegionState) -> String { state.description }

    static func state(named name: String) -> RegionState {
        switch name {
        case "inside": .inside
        case "outside": .outside
        default: .unknown
        }
    }
}
