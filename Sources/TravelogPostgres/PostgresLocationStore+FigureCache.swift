import Foundation
import PostgresNIO
import TravelogStore

extension PostgresLocationStore: FigureCacheStore {
    public func dailyFixCounts(userID: UserID, days: ClosedRange<Int>) async throws(StoreError) -> [DailyFixCount] {
        let operation = "counting the fixes per day"
        let start = Int64(days.lowerBound) * 86_400_000, end = (Int64(days.upperBound) + 1) * 86_400_000
        // No day boxes here: the rows are counted and their times summed (an index range of the partitions' time).
        let found = try await rows(operation, """
            SELECT device_id, floor(timestamp_ms / 86400000.0)::bigint AS day, count(*), sum(timestamp_ms)::bigint
            FROM locations WHERE user_id = \(userID.rawValue) AND timestamp_ms >= \(start) AND timestamp_ms < \(end)
            GROUP BY 1, 2
            """)
        return try found.map { row throws(StoreError) in
            let (device, day, count, times) = try Self.decode(row, as: (Int64, Int64, Int64, Int64).self, operation)
            return DailyFixCount(deviceID: DeviceID(rawValue: device), day: Int(day), count: Int(count), version: times)
        }
    }

    public func cachedFigures(userID: UserID, kind: String, slots: ClosedRange<Int>) async throws(StoreError) -> [Int: CachedFigures] {
        let operation = "reading kept figures"
        let found = try await rows(operation, """
            SELECT slot, key, payload FROM figure_cache
            WHERE user_id = \(userID.rawValue) AND kind = \(kind) AND slot BETWEEN \(Int64(slots.lowerBound)) AND \(Int64(slots.upperBound))
            """)
        var result: [Int: CachedFigures] = [:]
        for row in found {
            let (slot, key, payload) = try Self.decode(row, as: (Int64, String, Data).self, operation)
            result[Int(slot)] = CachedFigures(key: key, payload: payload)
        }
        return result
    }

    public func storeCachedFigures(userID: UserID, kind: String, _ figures: [Int: CachedFigures]) async throws(StoreError) {
        guard !figures.isEmpty else { return }
        try await transaction("keeping figures") { connection in
            for (slot, figure) in figures {
                let inserted = try await connection.run("""
                    INSERT INTO figure_cache (user_id, kind, slot, key, payload)
                    SELECT id, \(kind), \(Int64(slot)), \(figure.key), \(figure.payload) FROM users WHERE id = \(userID.rawValue)
                    ON CONFLICT (user_id, kind, slot) DO UPDATE SET key = EXCLUDED.key, payload = EXCLUDED.payload
                    RETURNING slot
                    """, logger: logger).collect()
                guard inserted.count == 1 else { throw StoreError.unknownUser(userID) }
            }
        }
    }
}
