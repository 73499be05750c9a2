import Foundation
import PostgresNIO
import TravelogCore
import TravelogStore

extension PostgresLocationStore {
    public func retentionSetting(userID: UserID) async throws(StoreError) -> RetentionSetting? {
        let operation = "reading the retention setting"
        guard let row = try await rows(operation, "SELECT keep_days, journal FROM retention_settings WHERE user_id = \(userID.rawValue)").first
        else { return nil }
        let (days, journalName) = try Self.decode(row, as: (Int32?, String).self, operation)
        guard let journal = RetentionSetting.Journal(rawValue: journalName) else {
            throw .database(operation: operation, message: "the unknown journal choice '\(journalName)'")
        }
        do { return try RetentionSetting(days: days.map(Int.init), journal: journal) } catch {
            throw .database(operation: operation, message: error.description)
        }
    }

    public func setRetentionSetting(_ setting: RetentionSetting?, userID: UserID, at date: Date) async throws(StoreError) {
        guard let setting else {
            let found = try await rows("setting retention", """
                WITH gone AS (DELETE FROM retention_settings WHERE user_id = \(userID.rawValue))
                SELECT 1 FROM users WHERE id = \(userID.rawValue)
                """)
            if found.isEmpty { throw .unknownUser(userID) }
            return
        }
        let found = try await rows("setting retention", """
            INSERT INTO retention_settings (user_id, keep_days, journal, updated_at_ms)
            SELECT id, \(setting.days.map(Int32.init)), \(setting.journal.rawValue), \(StoragePrecision.milliseconds(date))
            FROM users WHERE id = \(userID.rawValue)
            ON CONFLICT (user_id) DO UPDATE SET keep_days = EXCLUDED.keep_days, journal = EXCLUDED.journal,
                updated_at_ms = EXCLUDED.updated_at_ms
            RETURNING user_id
            """)
        if found.isEmpty { throw .unknownUser(userID) }
    }

    public func recordRetentionRun(_ run: RetentionRun, userID: UserID) async throws(StoreError) {
        let found = try await rows("recording a retention run", """
            INSERT INTO retention_runs (user_id, ran_at_ms, cutoff_ms, deleted_fixes, deleted_visits)
            SELECT id, \(StoragePrecision.milliseconds(run.ranAt)), \(StoragePrecision.milliseconds(run.cutoff)),
                   \(Int64(run.deletedFixes)), \(Int64(run.deletedVisits))
            FROM users WHERE id = \(userID.rawValue)
            ON CONFLICT (user_id) DO UPDATE SET ran_at_ms = EXCLUDED.ran_at_ms, cutoff_ms = EXCLUDED.cutoff_ms,
                deleted_fixes = EXCLUDED.deleted_fixes, deleted_visits = EXCLUDED.deleted_visits
            RETURNING user_id
            """)
        if found.isEmpty { throw .unknownUser(userID) }
    }

    public func lastRetentionRun(userID: UserID) async throws(StoreError) -> RetentionRun? {
        let operation = "reading the last retention run"
        guard let row = try await rows(operation, """
            SELECT ran_at_ms, cutoff_ms, deleted_fixes, deleted_visits FROM retention_runs WHERE user_id = \(userID.rawValue)
            """).first else { return nil }
        let (ran, cutoff, fixes, visits) = try Self.decode(row, as: (Int64, Int64, Int64, Int64).self, operation)
        return RetentionRun(ranAt: StoragePrecision.date(milliseconds: ran), cutoff: StoragePrecision.date(milliseconds: cutoff),
                            deletedFixes: Int(fixes), deletedVisits: Int(visits))
    }

    public func locationSummaries(userID: UserID, before date: Date) async throws(StoreError) -> [DeviceSummary] {
        let operation = "counting fixes before a date"
        var summaries: [DeviceSummary] = []
        // Each device counted on its own, as `deviceSummaries` does.
        for row in try await rows(operation, """
            SELECT d.id, d.user_id, d.name, d.created_at_ms, d.app, d.token_scope, s.count, s.first, s.last
            FROM devices d CROSS JOIN LATERAL (
                SELECT count(*) AS count, min(l.timestamp_ms) AS first, max(l.timestamp_ms) AS last
                FROM locations l WHERE l.user_id = d.user_id AND l.device_id = d.id
                    AND l.timestamp_ms < \(StoragePrecision.milliseconds(date))) AS s
            WHERE d.user_id = \(userID.rawValue) AND s.count > 0
            ORDER BY d.id
            """) {
            let count = try Self.decode(row, column: 6, as: Int64.self, operation)
            let first = try Self.decode(row, column: 7, as: Int64.self, operation)
            let last = try Self.decode(row, column: 8, as: Int64.self, operation)
            summaries.append(DeviceSummary(device: try Self.device(row), locationCount: Int(count),
                                           firstTimestamp: StoragePrecision.date(milliseconds: first),
                                           lastTimestamp: StoragePrecision.date(milliseconds: last)))
        }
        return summaries
    }

    public func visitCount(userID: UserID, endedBefore date: Date) async throws(StoreError) -> Int {
        let operation = "counting old visits"
        let row = try await rows(operation, """
            SELECT count(*) FROM visits WHERE user_id = \(userID.rawValue) AND departure_ms IS NOT NULL
                AND greatest(departure_ms, coalesce(merged_until_ms, 0)) < \(StoragePrecision.milliseconds(date))
            """).first
        let (count) = try Self.decode(row, as: (Int64).self, operation)
        return Int(count)
    }

    public func deleteVisits(userID: UserID, endedBefore date: Date) async throws(StoreError) -> Int {
        let cutoff = StoragePrecision.milliseconds(date)
        // The trips between them go with them, and so do their matches to the roads (lines of the deleted fixes).
        return try await rows("deleting old visits", """
            WITH matches AS (DELETE FROM trip_matches WHERE user_id = \(userID.rawValue) AND end_ms < \(cutoff))
            DELETE FROM visits WHERE user_id = \(userID.rawValue) AND departure_ms IS NOT NULL
                AND greatest(departure_ms, coalesce(merged_until_ms, 0)) < \(cutoff)
            RETURNING 1
            """).count
    }
}
