import Logging
import PostgresNIO
import TravelogStore

extension PostgresLocationStore: HistoryRemovalStore {
    public func historyRemovals() async throws(StoreError) -> [UserID: Int64] {
        let operation = "reading the counts of deletions"
        var counts: [UserID: Int64] = [:]
        for row in try await rows(operation, "SELECT user_id, generation FROM history_removals") {
            let (user, generation) = try Self.decode(row, as: (Int64, Int64).self, operation)
            counts[UserID(rawValue: user)] = generation
        }
        return counts
    }

    /// The statement that counts a deletion of the user's fixes (`$1` the user), run in the deletion's transaction.
    static let countRemovalSQL = """
        INSERT INTO history_removals (user_id, generation) VALUES ($1, 1)
        ON CONFLICT (user_id) DO UPDATE SET generation = history_removals.generation + 1
        """

    /// Counts a deletion of the user's fixes, in the deletion's transaction.
    static func countRemoval(userID: Int64, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run(PostgresQuery(unsafeSQL: countRemovalSQL, binds: binds(userID)), logger: logger)
    }
}
