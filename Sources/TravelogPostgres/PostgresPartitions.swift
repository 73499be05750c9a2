import Foundation
import Logging
import PostgresNIO
import Synchronization

/// Monthly partitions of `locations` (UTC months, `locations_yYYYYmMM`), created ahead of time: the
/// month now and the next `monthsAhead`, when the store opens and again as its inserts pass into a
/// month whose successors are not there yet. Older fixes (an import of years) go to the DEFAULT
/// partition. A month whose fixes are already in the DEFAULT partition (a database from before
/// partitions) is left there: PostgreSQL refuses a partition that would take rows from the DEFAULT
/// one, and moving them is an operator's decision (docs/SCALING.md).
enum PostgresPartitions {
    static let monthsAhead = 3

    /// The bounds of the UTC month `offset` months from the one holding `date`, milliseconds.
    static func month(containing date: Date, offset: Int) -> (name: String, startMilliseconds: Int64, endMilliseconds: Int64) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month], from: date)
        let start = calendar.date(byAdding: .month, value: offset, to: calendar.date(from: parts)!)!
        let end = calendar.date(byAdding: .month, value: 1, to: start)!
        let startParts = calendar.dateComponents([.year, .month], from: start)
        let name = String(format: "locations_y%04dm%02d", startParts.year!, startParts.month!)
        return (name, Int64(start.timeIntervalSince1970 * 1000), Int64(end.timeIntervalSince1970 * 1000))
    }

    /// Creates the partitions from the month of `now` to `monthsAhead` after it that do not exist,
    /// on connections of `store` (`withLease`: bounded while the database is down).
    /// - Returns: the end of the last month that exists now, milliseconds (inserts before it need
    ///   no new partition).
    @discardableResult
    static func createAhead(store: PostgresLocationStore, now: Date = Date()) async -> Int64 {
        let logger = store.logger
        var through: Int64 = 0
        for offset in 0...monthsAhead {
            let month = month(containing: now, offset: offset)
            through = month.endMilliseconds
            do {
                try await store.withLease { connection in
                    let existing = try await connection.run(
                        "SELECT 1 FROM pg_class WHERE relname = \(month.name) AND relnamespace = current_schema()::regnamespace",
                        logger: logger).collect()
                    guard existing.isEmpty else { return }
                    try await connection.run(PostgresQuery(unsafeSQL: """
                        CREATE TABLE IF NOT EXISTS \(month.name) PARTITION OF locations
                        FOR VALUES FROM (\(month.startMilliseconds)) TO (\(month.endMilliseconds))
                        """), logger: logger)
                }
            } catch {
                // Another process made it meanwhile, the DEFAULT partition holds that month's fixes, or the
                // database is down (the next insert past the margin tries again).
                logger.info("locations partition \(month.name) not created: \(PostgresLocationStore.message(error))")
            }
        }
        return through
    }
}

extension PostgresLocationStore {
    /// How close the end of the last partition may come before more are made, milliseconds (60 days).
    static let partitionMarginMilliseconds: Int64 = 60 * 86_400_000

    /// Makes the partitions ahead when the last one ends within the margin (a long-running server
    /// passes into new months); cheap otherwise.
    func createPartitionsIfDue(now: Date = Date()) async {
        let nowMilliseconds = Int64(now.timeIntervalSince1970 * 1000)
        guard partitionsThroughMilliseconds.withLock({ nowMilliseconds > $0 - Self.partitionMarginMilliseconds }) else { return }
        let through = await PostgresPartitions.createAhead(store: self, now: now)
        partitionsThroughMilliseconds.withLock { $0 = max($0, through) }
    }
}
