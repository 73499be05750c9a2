import Foundation
import GRDB
import TravelogCore
import TravelogStore

extension SQLiteLocationStore {
    static let zoneColumns = "id, user_id, name, shape, center_latitude_e7, center_longitude_e7, radius_m, rings_json, rule, created_at_ms"

    public func addZone(_ definition: ZoneDefinition, userID: UserID, at date: Date) async throws(StoreError) -> StoredZone {
        let shape = try RegionRow.shapeValues(definition.shape)
        return try await write("adding a zone") { db throws(StoreError) in
            guard (try? Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE id = ?", arguments: [userID.rawValue])) != nil
            else { throw .unknownUser(userID) }
            try Self.execute(db, "adding a zone", """
                INSERT INTO zones (user_id, name, shape, center_latitude_e7, center_longitude_e7, radius_m, rings_json, rule, created_at_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [userID.rawValue, definition.name, shape.kind, shape.latitudeE7, shape.longitudeE7, shape.radiusMeters,
                      shape.ringsJSON, definition.rule.rawValue, StoragePrecision.milliseconds(date)])
            let id = db.lastInsertedRowID
            guard let row = try? Row.fetchOne(db, sql: "SELECT \(Self.zoneColumns) FROM zones WHERE id = ?", arguments: [id]),
                  let zone = try? Self.zone(row) else {
                throw .database(operation: "adding a zone", message: "the new zone cannot be read back")
            }
            return zone
        }
    }

    public func zones(userID: UserID) async throws(StoreError) -> [StoredZone] {
        try await read("reading zones") { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT \(Self.zoneColumns) FROM zones WHERE user_id = ? ORDER BY id"),
                             arguments: [userID.rawValue]).map(Self.zone)
        }
    }

    public func removeZone(id: ZoneID, userID: UserID) async throws(StoreError) -> Bool {
        try await write("removing a zone") { db throws(StoreError) in
            try Self.execute(db, "removing a zone", "DELETE FROM zones WHERE id = ? AND user_id = ?", [id.rawValue, userID.rawValue])
            return db.changesCount == 1
        }
    }

    public func recordZoneDrops(userID: UserID, countsByDay: [String: Int]) async throws(StoreError) {
        guard !countsByDay.isEmpty else { return }
        try await write("counting dropped fixes") { db throws(StoreError) in
            for (day, count) in countsByDay {
                try Self.execute(db, "counting dropped fixes", """
                    INSERT INTO zone_drops (user_id, day, count) VALUES (?, ?, ?)
                    ON CONFLICT (user_id, day) DO UPDATE SET count = count + excluded.count
                    """, [userID.rawValue, day, count])
            }
        }
    }

    public func zoneDrops(userID: UserID) async throws(StoreError) -> [ZoneDropCount] {
        try await read("reading dropped fixes") { db in
            try Row.fetchAll(db, sql: "SELECT day, count FROM zone_drops WHERE user_id = ? ORDER BY day", arguments: [userID.rawValue])
                .map { ZoneDropCount(day: $0[0], count: $0[1]) }
        }
    }

    /// One transaction: each key's row by its unique index (a cached statement), then each day box
    /// touched once. Retention deletes in batches of a few hundred keys through here, so a phone's
    /// write waits milliseconds for one.
    public func deleteLocations(_ keys: [LocationKey], userID: UserID) async throws(StoreError) -> Int {
        guard !keys.isEmpty else { return 0 }
        return try await write("deleting fixes") { db throws(StoreError) in
            do {
                let owned = Set(try Int64.fetchAll(db, sql: "SELECT id FROM devices WHERE user_id = ?", arguments: [userID.rawValue]))
                let delete = try db.cachedStatement(sql: """
                    DELETE FROM locations WHERE device_id = ? AND timestamp_ms = ? AND latitude_e7 = ? AND longitude_e7 = ?
                    """)
                var deletedPerDay: [DeviceDay: Int] = [:]
                for key in keys where owned.contains(key.deviceID.rawValue) {
                    try delete.execute(arguments: [key.deviceID.rawValue, key.timestampMilliseconds, key.latitudeE7, key.longitudeE7])
                    guard db.changesCount == 1 else { continue }
                    deletedPerDay[DeviceDay(device: key.deviceID.rawValue,
                                            day: key.timestampMilliseconds.floorDivided(by: LocationRowWriter.millisecondsPerDay)), default: 0] += 1
                }
                // The day's box keeps its bounds (still holding every fix left), counts fewer and counts the deletion.
                let count = try db.cachedStatement(sql: """
                    UPDATE location_days SET location_count = location_count - ?, removals = removals + 1 WHERE device_id = ? AND day = ?
                    """)
                for (key, deleted) in deletedPerDay { try count.execute(arguments: [deleted, key.device, key.day]) }
                if !deletedPerDay.isEmpty { try Self.countRemoval(userID: userID.rawValue, in: db) }
                return deletedPerDay.values.reduce(0, +)
            } catch let error as StoreError {
                throw error
            } catch {
                throw .database(operation: "deleting fixes", message: String(describing: error))
            }
        }
    }

    /// A device's UTC day, as `location_days` keys its boxes.
    private struct DeviceDay: Hashable {
        var device: Int64
        var day: Int64
    }

    /// A zone from a row selected with `zoneColumns`. - Throws: for a row no version of Travelog writes.
    static func zone(_ row: Row) throws -> StoredZone {
        let shape = try RegionRow.shape(kind: row[3], latitudeE7: row[4], longitudeE7: row[5], radiusMeters: row[6], ringsJSON: row[7])
        guard let rule = ZoneRule(rawValue: row[8]) else {
            throw StoreError.database(operation: "reading a zone", message: "the unknown rule '\(row[8] as String)'")
        }
        return StoredZone(id: ZoneID(rawValue: row[0]), userID: UserID(rawValue: row[1]),
                          definition: try ZoneDefinition(name: row[2], shape: shape, rule: rule),
                          createdAt: StoragePrecision.date(milliseconds: row[9]))
    }
}
