import Foundation
import PostgresNIO
import TravelogCore
import TravelogStore

extension PostgresLocationStore {
    static let zoneColumns = "id, user_id, name, shape, center_latitude_e7, center_longitude_e7, radius_m, rings_json, rule, created_at_ms"

    public func addZone(_ definition: ZoneDefinition, userID: UserID, at date: Date) async throws(StoreError) -> StoredZone {
        let values = try PostgresRegionRows.Values(shape: definition.shape)
        let found = try await rows("adding a zone", """
            INSERT INTO zones (user_id, name, shape, center_latitude_e7, center_longitude_e7, radius_m, rings_json, rule, created_at_ms)
            SELECT id, \(definition.name), \(values.shape), \(values.latitudeE7), \(values.longitudeE7), \(values.radiusMeters),
                   \(values.ringsJSON), \(definition.rule.rawValue), \(StoragePrecision.milliseconds(date))
            FROM users WHERE id = \(userID.rawValue)
            RETURNING \(unescaped: Self.zoneColumns)
            """)
        guard let row = found.first else { throw .unknownUser(userID) }
        return try Self.zone(row)
    }

    public func zones(userID: UserID) async throws(StoreError) -> [StoredZone] {
        var result: [StoredZone] = []
        for row in try await rows("reading zones",
                                  "SELECT \(unescaped: Self.zoneColumns) FROM zones WHERE user_id = \(userID.rawValue) ORDER BY id") {
            result.append(try Self.zone(row))
        }
        return result
    }

    public func removeZone(id: ZoneID, userID: UserID) async throws(StoreError) -> Bool {
        let found = try await rows("removing a zone",
                                   "DELETE FROM zones WHERE id = \(id.rawValue) AND user_id = \(userID.rawValue) RETURNING id")
        return !found.isEmpty
    }

    public func recordZoneDrops(userID: UserID, countsByDay: [String: Int]) async throws(StoreError) {
        for (day, count) in countsByDay.sorted(by: { $0.key < $1.key }) {
            _ = try await rows("counting dropped fixes", """
                INSERT INTO zone_drops (user_id, day, count) VALUES (\(userID.rawValue), \(day), \(Int64(count)))
                ON CONFLICT (user_id, day) DO UPDATE SET count = zone_drops.count + EXCLUDED.count
                """)
        }
    }

    public func zoneDrops(userID: UserID) async throws(StoreError) -> [ZoneDropCount] {
        var result: [ZoneDropCount] = []
        for row in try await rows("reading dropped fixes",
                                  "SELECT day, count FROM zone_drops WHERE user_id = \(userID.rawValue) ORDER BY day") {
            let (day, count) = try Self.decode(row, as: (String, Int64).self, "reading dropped fixes")
            result.append(ZoneDropCount(day: day, count: Int(count)))
        }
        return result
    }

    public func deleteLocations(_ keys: [LocationKey], userID: UserID) async throws(StoreError) -> Int {
        guard !keys.isEmpty else { return 0 }
        let devices = keys.map(\.deviceID.rawValue), times = keys.map(\.timestampMilliseconds)
        let latitudes = keys.map(\.latitudeE7), longitudes = keys.map(\.longitudeE7)
        // The deletion is counted in the same statement (`HistoryRemovalStore`).
        let found = try await rows("deleting fixes inside a zone", """
            WITH deleted AS (
                DELETE FROM locations l
                USING unnest(\(devices)::bigint[], \(times)::bigint[], \(latitudes)::bigint[], \(longitudes)::bigint[])
                    AS k(device_id, timestamp_ms, latitude_e7, longitude_e7)
                WHERE l.user_id = \(userID.rawValue) AND l.device_id = k.device_id AND l.timestamp_ms = k.timestamp_ms
                    AND l.latitude_e7 = k.latitude_e7 AND l.longitude_e7 = k.longitude_e7
                RETURNING 1
            ), counted AS (
                INSERT INTO history_removals (user_id, generation) SELECT \(userID.rawValue)::bigint, 1 WHERE EXISTS (SELECT 1 FROM deleted)
                ON CONFLICT (user_id) DO UPDATE SET generation = history_removals.generation + 1
            )
            SELECT 1 FROM deleted
            """)
        return found.count
    }

    static func zone(_ row: PostgresRow) throws(StoreError) -> StoredZone {
        let operation = "reading a zone"
        let (id, user, name, kind, latitude, longitude, radius, rings) = try decode(
            row, as: (Int64, Int64, String, String, Int32?, Int32?, Double?, String?).self, operation)
        let ruleName = try decode(row, column: 8, as: String.self, operation)
        let created = try decode(row, column: 9, as: Int64.self, operation)
        guard let rule = ZoneRule(rawValue: ruleName) else {
            throw .database(operation: operation, message: "zone \(id) has the unknown rule '\(ruleName)'")
        }
        do {
            let shape = try PostgresRegionRows.shape(kind: kind, latitudeE7: latitude, longitudeE7: longitude, radiusMeters: radius,
                                                     ringsJSON: rings)
            return StoredZone(id: ZoneID(rawValue: id), userID: UserID(rawValue: user),
                              definition: try ZoneDefinition(name: name, shape: shape, rule: rule),
                              createdAt: StoragePrecision.date(milliseconds: created))
        } catch let error as StoreError {
            throw error
        } catch {
            throw .database(operation: operation, message: "zone \(id) cannot be read: \(error)")
        }
    }
}
