import Logging
import PostgresNIO
import TravelogStore

/// Work on one device in one process at a time: a session advisory lock keyed by the schema and the
/// device (the two-key form, apart from the migrations' one-key lock), held on a connection of its
/// own while the work runs on the others, and released when it ends or the connection drops (then
/// by the server: nothing is sent on a closed connection, see `PostgresConnection.run`).
extension PostgresLocationStore: ExclusiveDeviceWork {
    public func exclusively<T: Sendable>(deviceID: DeviceID, _ body: @Sendable () async throws -> T) async throws -> T {
        let keys = (namespace: Self.lockNamespace(liveChannel), device: Int32(truncatingIfNeeded: deviceID.rawValue))
        return try await withLease { connection in
            try await connection.run("SELECT pg_advisory_lock(\(keys.namespace), \(keys.device))", logger: logger)
            let value: T
            do {
                value = try await body()
            } catch {
                _ = try? await connection.run("SELECT pg_advisory_unlock(\(keys.namespace), \(keys.device))", logger: logger)
                throw error
            }
            do {
                try await connection.run("SELECT pg_advisory_unlock(\(keys.namespace), \(keys.device))", logger: logger)
            } catch is PostgresConnectionLost {
                // The session ended, and the server released its locks with it.
            }
            return value
        }
    }

    public func claimDeviceWork(userID: UserID, deviceID: DeviceID, runner: String) async throws -> Bool {
        // The statement's snapshot holds the row as it was before this upsert.
        let rows = try await withLease { connection in
            try await connection.run("""
                WITH previous AS (
                    SELECT runner FROM journal_runners WHERE user_id = \(userID.rawValue) AND device_id = \(deviceID.rawValue)
                )
                INSERT INTO journal_runners (user_id, device_id, runner) VALUES (\(userID.rawValue), \(deviceID.rawValue), \(runner))
                ON CONFLICT (user_id, device_id) DO UPDATE SET runner = EXCLUDED.runner
                RETURNING (SELECT runner FROM previous)
                """, logger: logger).collect()
        }
        let previous = try rows.first?.decode(String?.self)
        return previous == runner
    }

    /// The lock's first key: FNV-1a (32-bit) of the schema's channel name, so schemas of one
    /// database do not wait for each other.
    static func lockNamespace(_ name: String) -> Int32 {
        var hash: UInt32 = 0x811c_9dc5
        for byte in name.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return Int32(bitPattern: hash)
    }
}
