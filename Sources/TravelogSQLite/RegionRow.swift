import Foundation
import GRDB
import Synchronization
import TravelogCore
import TravelogStore

/// A region's columns in the `regions` table, apart from the domain type: a circle as its center
/// (1e-7 degree) and radius, a polygon as its rings in JSON (`[[[longitude, latitude], …], …]`).
struct RegionRow {
    static let columns = """
        id, user_id, name, shape, center_latitude_e7, center_longitude_e7, radius_m, rings_json,
        notify_on_entry, notify_on_exit, beacon_uuid, beacon_major, beacon_minor, created_at_ms, updated_at_ms
        """

    /// The values of every column after `user_id`, in `columns` order.
    static func values(_ definition: RegionDefinition) throws(StoreError) -> StatementArguments {
        let shape = try shapeValues(definition.shape)
        let beacon = definition.beacon
        return [definition.name, shape.kind, shape.latitudeE7, shape.longitudeE7, shape.radiusMeters, shape.ringsJSON,
                definition.notifyOnEntry, definition.notifyOnExit,
                beacon?.proximityUUID.uuidString, beacon?.major.map { Int($0) }, beacon?.minor.map { Int($0) }]
    }

    /// A shape's columns (`shape`, `center_latitude_e7`, `center_longitude_e7`, `radius_m`, `rings_json`):
    /// regions and privacy zones keep their areas alike.
    static func shapeValues(_ shape: MonitoredRegion.Shape) throws(StoreError)
        -> (kind: String, latitudeE7: Int64?, longitudeE7: Int64?, radiusMeters: Double?, ringsJSON: String?) {
        switch shape {
        case .circle(let circle):
            return ("circle", StoragePrecision.e7(circle.center.latitude), StoragePrecision.e7(circle.center.longitude),
                    circle.radiusMeters, nil)
        case .polygon(let polygon):
            let positions = ([polygon.exteriorRing] + polygon.interiorRings).map { ring in
                ring.map { [$0.longitude, $0.latitude] }
            }
            do {
                return ("polygon", nil, nil, nil, String(decoding: try JSONEncoder().encode(positions), as: UTF8.self))
            } catch {
                throw .database(operation: "storing an area", message: "cannot encode its rings: \(error)")
            }
        }
    }

    /// The shape its columns describe. - Throws: for columns no version of Travelog writes.
    static func shape(kind: String, latitudeE7: Int64?, longitudeE7: Int64?, radiusMeters: Double?, ringsJSON: String?) throws
        -> MonitoredRegion.Shape {
        if kind == "polygon" {
            let rings = try JSONDecoder().decode([[[Double]]].self, from: Data((ringsJSON ?? "[]").utf8)).map { ring in
                try ring.map { position throws -> Coordinate in
                    guard position.count >= 2 else { throw StoreError.database(operation: "reading an area", message: "a short position") }
                    return try Coordinate(latitude: position[1], longitude: position[0])
                }
            }
            guard let exterior = rings.first else { throw StoreError.database(operation: "reading an area", message: "no rings") }
            return .polygon(try Polygon(exteriorRing: exterior, interiorRings: Array(rings.dropFirst())))
        }
        let center = try Coordinate(latitude: StoragePrecision.degrees(e7: latitudeE7 ?? 0),
                                    longitude: StoragePrecision.degrees(e7: longitudeE7 ?? 0))
        return .circle(try Circle(center: center, radiusMeters: radiusMeters ?? 0))
    }

    /// A stored region from a row selected with `columns`.
    /// - Throws: `StoreError.database` for a row no version of Travelog writes.
    static func region(_ row: Row) throws -> StoredRegion {
        let shape = try shape(kind: row[3], latitudeE7: row[4], longitudeE7: row[5], radiusMeters: row[6], ringsJSON: row[7])
        let beacon = try (row[10] as String?).flatMap(UUID.init(uuidString:)).map { uuid in
            try RegionBeacon(proximityUUID: uuid, major: (row[11] as Int?).flatMap(UInt16.init(exactly:)),
                             minor: (row[12] as Int?).flatMap(UInt16.init(exactly:)))
        }
        let definition = try RegionDefinition(name: row[2], shape: shape, notifyOnEntry: row[8], notifyOnExit: row[9], beacon: beacon)
        return StoredRegion(id: RegionID(rawValue: row[0]), userID: UserID(rawValue: row[1]), definition: definition,
                            createdAt: StoragePrecision.date(milliseconds: row[13]),
                            updatedAt: StoragePrecision.date(milliseconds: row[14]))
    }

    static let transitionColumns = """
        t.id, t.device_id, t.region_id, t.kind, t.occurred_at_ms, t.latitude_e7, t.longitude_e7, t.horizontal_accuracy_m, t.source
        """

    static func transition(_ row: Row) -> StoredRegionTransition {
        let coordinate = (row[5] as Int64?).flatMap { latitude in
            (row[6] as Int64?).flatMap { Coordinate(validLatitude: StoragePrecision.degrees(e7: latitude),
                                                    longitude: StoragePrecision.degrees(e7: $0)) }
        }
        let transition = RegionTransition(
            deviceID: DeviceID(rawValue: row[1]), regionID: RegionID(rawValue: row[2]),
            kind: (row[3] as String) == "enter" ? .entry : .exit, occurredAt: StoragePrecision.date(milliseconds: row[4]),
            coordinate: coordinate, horizontalAccuracyMeters: row[7],
            source: RegionTransition.Source(rawValue: row[8]) ?? .detected)
        return StoredRegionTransition(id: RegionTransitionID(rawValue: row[0]), transition: transition)
    }

    static func transitionValues(_ transition: RegionTransition) -> StatementArguments {
        [transition.deviceID.rawValue, transition.regionID.rawValue, transition.kind == .entry ? "enter" : "exit",
         StoragePrecision.milliseconds(transition.occurredAt), transition.coordinate.map { StoragePrecision.e7($0.latitude) },
         transition.coordinate.map { StoragePrecision.e7($0.longitude) }, transition.horizontalAccuracyMeters,
         transition.source.rawValue]
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

/// Regions decoded from their rows, kept by the row's values: a row read again with the same
/// values (every batch a phone posts reads its user's regions) is not decoded again, which builds
/// and checks each region's geometry. Any change to a row changes its values, so what is handed out
/// is always what decoding the row would give, whichever process changed it.
final class DecodedRegionCache: Sendable {
    private let entries = Mutex<[Int64: (values: [DatabaseValue], region: StoredRegion)]>([:])
    /// Beyond this many regions kept, the cache starts again (regions of users who left, or deleted).
    static let capacity = 50_000

    func region(_ row: Row) throws -> StoredRegion {
        let id: Int64 = row[0]
        let values = Array(row.databaseValues)
        if let kept = entries.withLock({ $0[id] }), kept.values == values { return kept.region }
        let region = try RegionRow.region(row)
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[id] = (values, region)
        }
        return region
    }
}
