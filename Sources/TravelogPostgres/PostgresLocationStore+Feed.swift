import Foundation
import Logging
import PostgresNIO
import TravelogStore

/// Notices between the server processes of one database, through LISTEN/NOTIFY on a channel of
/// the store's schema (two schemas of one database never hear each other).
extension PostgresLocationStore: StoredLocationFeed {
    /// Seconds between attempts to listen again after the connection failed.
    static let relistenSeconds = 1

    public func announce(_ notice: StoredBatchNotice) async {
        do {
            let payload = String(decoding: try JSONEncoder().encode(notice), as: UTF8.self)
            try await withLease { connection in
                try await connection.run("SELECT pg_notify(\(liveChannel), \(payload))", logger: logger)
            }
        } catch {
            logger.warning("could not announce stored locations to other processes: \(Self.message(error))")
        }
    }

    public func followNotices(_ handle: @escaping @Sendable (StoredBatchNotice) async -> Void) async {
        let decoder = JSONDecoder()
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: liveChannel) { notifications in
                        for try await notification in notifications {
                            guard let notice = try? decoder.decode(StoredBatchNotice.self, from: Data(notification.payload.utf8))
                            else { continue }
                            await handle(notice)
                        }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("listening for other processes' locations failed, again in \(Self.relistenSeconds) s: \(Self.message(error))")
            }
            try? await Task.sleep(for: .seconds(Self.relistenSeconds))
        }
    }
}
