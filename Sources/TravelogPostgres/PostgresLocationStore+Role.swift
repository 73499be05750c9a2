import Logging
import PostgresNIO
import TravelogStore

/// One process at a time in a role: a session advisory lock keyed by the schema and the role's
/// name, taken with `pg_try_advisory_lock` every second on a connection held for as long as the
/// role is (PostgreSQL releases it when the session ends: a process killed, or its connection
/// lost). While `body` runs, the connection is checked every `roleCheckSeconds`; when a check
/// fails the hold may be gone (another process may take it at once), so `body` is cancelled.
extension PostgresLocationStore: ExclusiveRole {
    /// Seconds between attempts to take a role held elsewhere, and between checks of a role held.
    static let roleRetrySeconds = 1
    static let roleCheckSeconds = 1

    public func holdingRole(_ role: String, _ body: @escaping @Sendable () async throws -> Void) async throws {
        // The two-key form, as the device locks: the schema's namespace, then the role's hash (of
        // the form 0x7… so it never meets a device id's small numbers).
        let keys = (namespace: Self.lockNamespace(liveChannel), role: Self.lockNamespace("role:" + role) | 0x4000_0000)
        try await client.withConnection { connection in
            while true {
                try Task.checkCancellation()
                let rows = try await connection.run("SELECT pg_try_advisory_lock(\(keys.namespace), \(keys.role))", logger: logger).collect()
                if try rows.first?.decode(Bool.self) == true { break }
                try await Task.sleep(for: .seconds(Self.roleRetrySeconds))
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await body() }
                group.addTask { [logger] in
                    while true {
                        try await Task.sleep(for: .seconds(Self.roleCheckSeconds))
                        guard !connection.isClosed else { throw PostgresConnectionLost() }
                        _ = try await connection.run("SELECT 1", logger: logger).collect()
                    }
                }
                // The first to end decides: `body` returned (the process stops), or the check failed.
                defer { group.cancelAll() }
                try await group.next()
            }
            _ = try? await connection.run("SELECT pg_advisory_unlock(\(keys.namespace), \(keys.role))", logger: logger).collect()
        }
    }
}
