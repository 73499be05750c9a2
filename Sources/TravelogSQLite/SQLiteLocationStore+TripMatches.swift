import Foundation
import GRDB
import TravelogStore

extension SQLiteLocationStore: TripMatchStore {
    public func tripMatches(keys: [String]) async throws(StoreError) -> [String: TripMatchRecord] {
        guard !keys.isEmpty else { return [:] }
        return try await read("reading the trips' road matches") { db in
            var found: [String: TripMatchRecord] = [:]
            // In chunks: SQLite binds at most 32,766 parameters to a statement.
            for start in stride(from: 0, to: keys.count, by: 500) {
                let chunk = Array(keys[start..<min(start + 500, keys.count)])
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                let rows = try Row.fetchAll(db, sql: """
                    SELECT key, user_id, device_id, start_ms, end_ms, matched_distance_m, roads_json, line_json, unmatched_reason
                    FROM trip_matches WHERE key IN (\(marks))
                    """, arguments: StatementArguments(chunk))
                for row in rows {
                    let (roads, line) = TripMatchRecord.decoded(roadsJSON: row["roads_json"], lineJSON: row["line_json"])
                    let record = TripMatchRecord(key: row["key"], userID: UserID(rawValue: row["user_id"]),
                                                 deviceID: DeviceID(rawValue: row["device_id"]),
                                                 start: StoragePrecision.date(milliseconds: row["start_ms"]),
                                                 end: StoragePrecision.date(milliseconds: row["end_ms"]),
                                                 matchedDistanceMeters: row["matched_distance_m"], roads: roads, line: line,
                                                 unmatchedReason: row["unmatched_reason"])
                    found[record.key] = record
                }
            }
            return found
        }
    }

    public func storeTripMatch(_ record: TripMatchRecord) async throws(StoreError) {
        let operation = "storing a trip's road match"
        try await write(operation) { db throws(StoreError) in
            guard (try? Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE id = ?", arguments: [record.userID.rawValue])) != nil
            else { throw .unknownUser(record.userID) }
            let start = StoragePrecision.milliseconds(record.start), end = StoragePrecision.milliseconds(record.end)
            try Self.execute(db, operation, "DELETE FROM trip_matches WHERE device_id = ? AND start_ms < ? AND end_ms > ?",
                             [record.deviceID.rawValue, end, start])
            try Self.execute(db, operation, """
                INSERT OR REPLACE INTO trip_matches
                    (key, user_id, device_id, start_ms, end_ms, matched_distance_m, roads_json, line_json, unmatched_reason)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [record.key, record.userID.rawValue, record.deviceID.rawValue, start, end, record.matchedDistanceMeters,
                      record.roadsJSON, record.lineJSON, record.unmatchedReason])
        }
    }
}
