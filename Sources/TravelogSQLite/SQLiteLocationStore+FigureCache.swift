import Foundation
import GRDB
import TravelogStore

extension SQLiteLocationStore: FigureCacheStore {
    public func dailyFixCounts(userID: UserID, days: ClosedRange<Int>) async throws(StoreError) -> [DailyFixCount] {
        try await read("reading the fixes per day") { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT d.device_id, d.day, d.location_count, d.removals FROM location_days d JOIN devices v ON v.id = d.device_id
                WHERE v.user_id = ? AND d.day BETWEEN ? AND ? AND (d.location_count > 0 OR d.removals > 0)
                """), arguments: [userID.rawValue, days.lowerBound, days.upperBound])
            .map { DailyFixCount(deviceID: DeviceID(rawValue: $0[0]), day: $0[1], count: $0[2], version: $0[3]) }
        }
    }

    public func cachedFigures(userID: UserID, kind: String, slots: ClosedRange<Int>) async throws(StoreError) -> [Int: CachedFigures] {
        try await read("reading kept figures") { db in
            var found: [Int: CachedFigures] = [:]
            for row in try Row.fetchAll(db.cachedStatement(sql: """
                SELECT slot, key, payload FROM figure_cache WHERE user_id = ? AND kind = ? AND slot BETWEEN ? AND ?
                """), arguments: [userID.rawValue, kind, slots.lowerBound, slots.upperBound]) {
                found[row[0]] = CachedFigures(key: row[1], payload: row[2])
            }
            return found
        }
    }

    public func storeCachedFigures(userID: UserID, kind: String, _ figures: [Int: CachedFigures]) async throws(StoreError) {
        guard !figures.isEmpty else { return }
        let operation = "keeping figures"
        try await write(operation) { db throws(StoreError) in
            guard (try? Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE id = ?", arguments: [userID.rawValue])) != nil
            else { throw .unknownUser(userID) }
            for (slot, figure) in figures {
                try Self.execute(db, operation, """
                    INSERT OR REPLACE INTO figure_cache (user_id, kind, slot, key, payload) VALUES (?, ?, ?, ?, ?)
                    """, [userID.rawValue, kind, slot, figure.key, figure.payload])
            }
        }
    }
}
