import Foundation
import GRDB
import TravelogCore
import TravelogStore

extension SQLiteLocationStore: LabelStore {
    @discardableResult
    public func addLabels(_ labels: [StoredLabel]) async throws(StoreError) -> Int {
        guard !labels.isEmpty else { return 0 }
        return try await write("keeping labels") { db throws(StoreError) -> Int in
            var changed = 0
            for stored in labels {
                let key = stored.key
                guard (try? Bool.fetchOne(db, sql: "SELECT 1 FROM devices WHERE id = ?", arguments: [key.deviceID.rawValue])) != nil
                else { throw .unknownDevice(key.deviceID) }
                try Self.execute(db, "keeping labels", """
                    INSERT INTO location_labels (device_id, timestamp_ms, latitude_e7, longitude_e7, kind, text)
                    VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (device_id, timestamp_ms, latitude_e7, longitude_e7, kind)
                    DO UPDATE SET text = excluded.text WHERE text <> excluded.text
                    """, [key.deviceID.rawValue, key.timestampMilliseconds, key.latitudeE7, key.longitudeE7,
                          stored.label.kind.rawValue, stored.label.text])
                changed += db.changesCount
            }
            return changed
        }
    }

    public func labels(userID: UserID, deviceIDs: Set<DeviceID>?, from: Date?, to: Date?,
                       limit: Int) async throws(StoreError) -> [StoredLabel] {
        var conditions = ["d.user_id = ?"]
        var arguments: [(any DatabaseValueConvertible)?] = [userID.rawValue]
        if let deviceIDs {
            guard !deviceIDs.isEmpty else { return [] }
            conditions.append("b.device_id IN (\(deviceIDs.map { _ in "?" }.joined(separator: ", ")))")
            arguments += deviceIDs.map(\.rawValue).sorted()
        }
        if let from {
            conditions.append("b.timestamp_ms >= ?")
            arguments.append(StoragePrecision.milliseconds(from))
        }
        if let to {
            conditions.append("b.timestamp_ms < ?")
            arguments.append(StoragePrecision.milliseconds(to))
        }
        arguments.append(max(0, limit))
        let sql = """
            SELECT b.device_id, b.timestamp_ms, b.latitude_e7, b.longitude_e7, b.kind, b.text
            FROM location_labels b JOIN devices d ON d.id = b.device_id
            WHERE \(conditions.joined(separator: " AND "))
              AND EXISTS (SELECT 1 FROM locations l WHERE l.device_id = b.device_id AND l.timestamp_ms = b.timestamp_ms
                          AND l.latitude_e7 = b.latitude_e7 AND l.longitude_e7 = b.longitude_e7)
            ORDER BY b.timestamp_ms, b.device_id, b.kind
            LIMIT ?
            """
        let bound = StatementArguments(arguments)
        return try await read("reading labels") { db in
            try Row.fetchAll(db, sql: sql, arguments: bound).compactMap { row in
                StoredLabel(deviceID: DeviceID(rawValue: row[0]), timestampMilliseconds: row[1], latitudeE7: row[2],
                            longitudeE7: row[3], kind: row[4], text: row[5])
            }
        }
    }
}
