import Foundation
import GRDB
import TravelogStore

extension SQLiteLocationStore {
    public func quarantine(_ items: [NewRejectedItem]) async throws(StoreError) -> Int {
        guard !items.isEmpty else { return 0 }
        return try await write("keeping rejected items") { db throws(StoreError) in
            do {
                var added = 0
                for item in items {
                    try db.execute(sql: """
                        INSERT OR IGNORE INTO rejected_items (user_id, device_id, route, reason, raw, raw_byte_count,
                            received_at_ms, fingerprint)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """, arguments: [item.userID.rawValue, item.deviceID?.rawValue, item.route, item.reason, item.raw,
                                          item.rawByteCount, StoragePrecision.milliseconds(item.receivedAt), item.fingerprint])
                    added += db.changesCount
                }
                return added
            } catch {
                throw .database(operation: "keeping rejected items", message: String(describing: error))
            }
        }
    }

    public func rejectedItems(userID: UserID, limit: Int) async throws(StoreError) -> [RejectedItem] {
        try await read("listing rejected items") { db in
            try Row.fetchAll(db, sql: """
                SELECT id, user_id, device_id, route, reason, raw, raw_byte_count, received_at_ms
                FROM rejected_items WHERE user_id = ? ORDER BY id DESC LIMIT ?
                """, arguments: [userID.rawValue, max(0, limit)]).map { row in
                RejectedItem(id: RejectedItemID(rawValue: row[0]), userID: UserID(rawValue: row[1]),
                             deviceID: (row[2] as Int64?).map(DeviceID.init(rawValue:)), route: row[3], reason: row[4],
                             raw: row[5], rawByteCount: row[6], receivedAt: StoragePrecision.date(milliseconds: row[7]))
            }
        }
    }

    public func rejectedItemCount(userID: UserID) async throws(StoreError) -> Int {
        try await read("counting rejected items") { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM rejected_items WHERE user_id = ?", arguments: [userID.rawValue]) ?? 0
        }
    }

    public func deleteRejectedItems(userID: UserID, ids: [RejectedItemID]?) async throws(StoreError) -> Int {
        try await write("deleting rejected items") { db throws(StoreError) in
            do {
                if let ids {
                    var deleted = 0
                    for id in ids {
                        try db.execute(sql: "DELETE FROM rejected_items WHERE user_id = ? AND id = ?",
                                       arguments: [userID.rawValue, id.rawValue])
                        deleted += db.changesCount
                    }
                    return deleted
                }
                try db.execute(sql: "DELETE FROM rejected_items WHERE user_id = ?", arguments: [userID.rawValue])
                return db.changesCount
            } catch {
                throw .database(operation: "deleting rejected items", message: String(describing: error))
            }
        }
    }
}
