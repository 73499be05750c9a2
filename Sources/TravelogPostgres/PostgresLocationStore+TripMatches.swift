import Foundation
import PostgresNIO
import TravelogStore

extension PostgresLocationStore: TripMatchStore {
    public func tripMatches(keys: [String]) async throws(StoreError) -> [String: TripMatchRecord] {
        guard !keys.isEmpty else { return [:] }
        let operation = "reading the trips' road matches"
        let found = try await rows(operation, """
            SELECT key, user_id, device_id, start_ms, end_ms, matched_distance_m, roads_json, line_json, unmatched_reason
            FROM trip_matches WHERE key = ANY(\(keys)::text[])
            """)
        var result: [String: TripMatchRecord] = [:]
        for row in found {
            let (key, user, device, startMS, endMS, meters, roadsJSON, lineJSON, reason) = try Self.decode(
                row, as: (String, Int64, Int64, Int64, Int64, Double?, String, String, String?).self, operation)
            let (roads, line) = TripMatchRecord.decoded(roadsJSON: roadsJSON, lineJSON: lineJSON)
            result[key] = TripMatchRecord(key: key, userID: UserID(rawValue: user), deviceID: DeviceID(rawValue: device),
                                          start: StoragePrecision.date(milliseconds: startMS), end: StoragePrecision.date(milliseconds: endMS),
                                          matchedDistanceMeters: meters, roads: roads, line: line, unmatchedReason: reason)
        }
        return result
    }

    public func storeTripMatch(_ record: TripMatchRecord) async throws(StoreError) {
        let start = StoragePrecision.milliseconds(record.start), end = StoragePrecision.milliseconds(record.end)
        try await transaction("storing a trip's road match") { connection in
            _ = try await connection.run("""
                DELETE FROM trip_matches WHERE device_id = \(record.deviceID.rawValue) AND start_ms < \(end) AND end_ms > \(start)
                """, logger: logger)
            let inserted = try await connection.run("""
                INSERT INTO trip_matches (key, user_id, device_id, start_ms, end_ms, matched_distance_m, roads_json, line_json, unmatched_reason)
                SELECT \(record.key), id, \(record.deviceID.rawValue), \(start), \(end), \(record.matchedDistanceMeters),
                       \(record.roadsJSON), \(record.lineJSON), \(record.unmatchedReason)
                FROM users WHERE id = \(record.userID.rawValue)
                ON CONFLICT (key) DO UPDATE SET matched_distance_m = EXCLUDED.matched_distance_m, roads_json = EXCLUDED.roads_json,
                    line_json = EXCLUDED.line_json, unmatched_reason = EXCLUDED.unmatched_reason
                RETURNING key
                """, logger: logger).collect()
            guard inserted.count == 1 else { throw StoreError.unknownUser(record.userID) }
        }
    }
}
