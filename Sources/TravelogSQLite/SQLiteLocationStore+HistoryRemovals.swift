import GRDB
import TravelogStore

extension SQLiteLocationStore: HistoryRemovalStore {
    public func historyRemovals() async throws(StoreError) -> [UserID: Int64] {
        try await read("reading the counts of deletions") { db in
            var counts: [UserID: Int64] = [:]
            for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT user_id, generation FROM history_removals")) {
                counts[UserID(rawValue: row[0])] = row[1]
            }
            return counts
        }
    }

    /// Counts a deletion of the user's fixes, in the deletion's transaction.
    static func countRemoval(userID: Int64, in db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO history_removals (user_id, generation) VALUES (?, 1)
            ON CONFLICT (user_id) DO UPDATE SET generation = history_removals.generation + 1
            """).execute(arguments: [userID])
    }

    /// Counts a deletion of fixes of the device's user.
    static func countRemoval(deviceID: Int64, in db: Database) throws {
        guard let userID = try Int64.fetchOne(db, sql: "SELECT user_id FROM devices WHERE id = ?", arguments: [deviceID]) else { return }
        try countRemoval(userID: userID, in: db)
    }
}
