import Foundation
import PostgresNIO
import TravelogStore

extension PostgresLocationStore {
    public func quarantine(_ items: [NewRejectedItem]) async throws(StoreError) -> Int {
        guard !items.isEmpty else { return 0 }
        return try await transaction("keeping rejected items") { connection in
            var added = 0
            for item in items {
                // An item whose fingerprint its user keeps already is not kept again.
                added += try await connection.run("""
                    INSERT INTO rejected_items (user_id, device_id, route, reason, raw, raw_byte_count, received_at_ms, fingerprint)
                    VALUES (\(item.userID.rawValue), \(item.deviceID?.rawValue), \(item.route), \(item.reason), \(item.raw),
                        \(Int64(item.rawByteCount)), \(StoragePrecision.milliseconds(item.receivedAt)), \(item.fingerprint))
                    ON CONFLICT DO NOTHING RETURNING 1
                    """, logger: logger).collect().count
            }
            return added
        }
    }

    public func rejectedItems(userID: UserID, limit: Int) async throws(StoreError) -> [RejectedItem] {
        var items: [RejectedItem] = []
        for row in try await rows("listing rejected items", """
            SELECT id, user_id, device_id, route, reason, raw, raw_byte_count, received_at_ms
            FROM rejected_items WHERE user_id = \(userID.rawValue) ORDER BY id DESC LIMIT \(Int64(max(0, limit)))
            """) {
            let (id, user, device, route, reason, raw, byteCount, received) = try Self.decode(
                row, as: (Int64, Int64, Int64?, String, String, String, Int64, Int64).self, "listing rejected items")
            items.append(RejectedItem(id: RejectedItemID(rawValue: id), userID: UserID(rawValue: user),
                                      deviceID: device.map(DeviceID.init(rawValue:)), route: route, reason: reason, raw: raw,
                                      rawByteCount: Int(byteCount), receivedAt: StoragePrecision.date(milliseconds: received)))
        }
        return items
    }

    public func rejectedItemCount(userID: UserID) async throws(StoreError) -> Int {
        let found = try await rows("counting rejected items", "SELECT count(*) FROM rejected_items WHERE user_id = \(userID.rawValue)")
        let count: Int64 = try Self.decode(found.first, as: Int64.self, "counting rejected items")
        return Int(count)
    }

    public func deleteRejectedItems(userID: UserID, ids: [RejectedItemID]?) async throws(StoreError) -> Int {
        if let ids {
            // Other users' ids are ignored: the user's id is in the condition.
            return try await rows("deleting rejected items", """
                DELETE FROM rejected_items WHERE user_id = \(userID.rawValue) AND id = ANY(\(ids.map(\.rawValue)))
                RETURNING 1
                """).count
        }
        return try await rows("deleting rejected items",
                              "DELETE FROM rejected_items WHERE user_id = \(userID.rawValue) RETURNING 1").count
    }
}
