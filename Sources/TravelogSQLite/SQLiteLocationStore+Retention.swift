import Foundation
import GRDB
import TravelogCore
import TravelogStore

extension SQLiteLocationStore {
    public func retentionSetting(userID: UserID) async throws(StoreError) -> RetentionSetting? {
        let row = try await read("reading the retention setting") { db -> (days: Int?, journal: String)? in
            try Row.fetchOne(db, sql: "SELECT keep_days, journal FROM retention_settings WHERE user_id = ?", arguments: [userID.rawValue])
                .map { ($0[0], $0[1]) }
        }
        guard let row else { return nil }
        return try Self.retentionSetting(days: row.days, journal: row.journal)
    }

    public func setRetentionSetting(_ setting: RetentionSetting?, userID: UserID, at date: Date) async throws(StoreError) {
        try await write("setting retention") { db throws(StoreError) in
            guard (try? Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE id = ?", arguments: [userID.rawValue])) != nil
            else { throw .unknownUser(userID) }
            guard let setting else {
                return try Self.execute(db, "setting retention", "DELETE FROM retention_settings WHERE user_id = ?", [userID.rawValue])
            }
            try Self.execute(db, "setting retention", """
                INSERT INTO retention_settings (user_id, keep_days, journal, updated_at_ms) VALUES (?, ?, ?, ?)
                ON CONFLICT (user_id) DO UPDATE SET keep_days = excluded.keep_days, journal = excluded.journal,
                    updated_at_ms = excluded.updated_at_ms
                """, [userID.rawValue, setting.days, setting.journal.rawValue, StoragePrecision.milliseconds(date)])
        }
    }

    public func recordRetentionRun(_ run: RetentionRun, userID: UserID) async throws(StoreError) {
        try await write("recording a retention run") { db throws(StoreError) in
            try Self.execute(db, "recording a retention run", """
                INSERT INTO retention_runs (user_id, ran_at_ms, cutoff_ms, deleted_fixes, deleted_visits)
                SELECT id, ?, ?, ?, ? FROM users WHERE id = ?
                ON CONFLICT (user_id) DO UPDATE SET ran_at_ms = excluded.ran_at_ms, cutoff_ms = excluded.cutoff_ms,
                    deleted_fixes = excluded.deleted_fixes, deleted_visits = excluded.deleted_visits
                """, [StoragePrecision.milliseconds(run.ranAt), StoragePrecision.milliseconds(run.cutoff), run.deletedFixes,
                      run.deletedVisits, userID.rawValue])
            guard db.changesCount == 1 else { throw .unknownUser(userID) }
        }
    }

    public func lastRetentionRun(userID: UserID) async throws(StoreError) -> RetentionRun? {
        try await read("reading the last retention run") { db in
            try Row.fetchOne(db, sql: "SELECT ran_at_ms, cutoff_ms, deleted_fixes, deleted_visits FROM retention_runs WHERE user_id = ?",
                             arguments: [userID.rawValue]).map { row in
                RetentionRun(ranAt: StoragePrecision.date(milliseconds: row[0]), cutoff: StoragePrecision.date(milliseconds: row[1]),
                             deletedFixes: row[2], deletedVisits: row[3])
            }
        }
    }

    public func locationSummaries(userID: UserID, before date: Date) async throws(StoreError) -> [DeviceSummary] {
        try await read("counting fixes before a date") { db in
            try Row.fetchAll(db, sql: """
                SELECT d.id, d.user_id, d.name, d.created_at_ms, d.app, d.token_scope, count(*), min(l.timestamp_ms), max(l.timestamp_ms)
                FROM devices d JOIN locations l ON l.device_id = d.id
                WHERE d.user_id = ? AND l.timestamp_ms < ?
                GROUP BY d.id ORDER BY d.id
                """, arguments: [userID.rawValue, StoragePrecision.milliseconds(date)]).map { row in
                let first: Int64 = row[7], last: Int64 = row[8]
                return DeviceSummary(device: Self.device(row), locationCount: row[6], firstTimestamp: StoragePrecision.date(milliseconds: first),
                                     lastTimestamp: StoragePrecision.date(milliseconds: last))
            }
        }
    }

    /// Where a visit ends, as `visits_device_end` indexes it.
    private static let visitEnded = """
        departure_ms IS NOT NULL AND max(departure_ms, coalesce(merged_until_ms, 0)) < ?
            AND device_id IN (SELECT id FROM devices WHERE user_id = ?)
        """

    public func visitCount(userID: UserID, endedBefore date: Date) async throws(StoreError) -> Int {
        try await read("counting old visits") { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM visits WHERE \(Self.visitEnded)",
                             arguments: [StoragePrecision.milliseconds(date), userID.rawValue]) ?? 0
        }
    }

    public func deleteVisits(userID: UserID, endedBefore date: Date) async throws(StoreError) -> Int {
        try await write("deleting old visits") { db throws(StoreError) in
            try Self.execute(db, "deleting old visits", "DELETE FROM visits WHERE \(Self.visitEnded)",
                             [StoragePrecision.milliseconds(date), userID.rawValue])
            let deleted = db.changesCount
            // The trips between them go with them, and so do their matches to the roads (lines of the deleted fixes).
            try Self.execute(db, "deleting old visits", "DELETE FROM trip_matches WHERE user_id = ? AND end_ms < ?",
                             [userID.rawValue, StoragePrecision.milliseconds(date)])
            return deleted
        }
    }

    static func retentionSetting(days: Int?, journal: String) throws(StoreError) -> RetentionSetting {
        guard let journal = RetentionSetting.Journal(rawValue: journal) else {
            throw .database(operation: "reading the retention setting", message: "the unknown journal choice '\(journal)'")
        }
        do { return try RetentionSetting(days: days, journal: journal) } catch {
            throw .database(operation: "reading the retention setting", message: error.description)
        }
    }
}
