import Logging
import PostgresNIO
import TravelogStore

/// A bounded wait for a connection, and no work on a connection that is closed.
///
/// PostgresNIO's pool keeps a request waiting while it cannot connect (the database restarting)
/// until its circuit breaker opens a minute later; a phone's upload would hang that long. Leasing
/// here gives up after the store's `leaseTimeout` instead, so the request fails at once as a
/// database error (the server answers 503: try again) while the pool goes on reconnecting by itself.
///
/// PostgresNIO 1.33 writes a query to its channel without a promise for the write: a query sent
/// on a connection whose channel has already closed and taken its handlers down is dropped, and
/// its caller waits for ever (found by `PostgresFaultTests`: a request, and the journal's device
/// lock, hung for good after PostgreSQL stopped). Such a connection comes from the pool in the
/// moment between its closing and the pool hearing of it, and is what a transaction's ROLLBACK or
/// an advisory lock's release would be sent on after the database went away. So nothing is sent
/// on a connection that `isClosed`: the lease fails instead (`PostgresConnectionLost`), and the
/// ROLLBACK or release is left to the server, which ends both with the session.
extension PostgresLocationStore {
    /// Runs `body` on an open connection of the pool, which stays leased until `body` returns.
    /// - Throws: `PostgresLeaseTimeout` when no connection was free or could be made within
    ///   `leaseTimeout`; `PostgresConnectionLost` when the pool handed over a closed connection;
    ///   the pool's error when it refused the lease; what `body` throws.
    func withLease<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let (handed, handOver) = AsyncThrowingStream.makeStream(of: PostgresConnection.self)
        let (released, release) = AsyncStream.makeStream(of: Never.self)
        // The pool's lease runs in a task of its own so that waiting for it can be given up.
        let lease = Task { [client] in
            do {
                try await client.withConnection { connection in
                    handOver.yield(connection)
                    for await _ in released {}
                }
                handOver.finish()
            } catch {
                handOver.finish(throwing: error)
            }
        }
        defer { release.finish() }
        let connection: PostgresConnection
        do {
            connection = try await Self.first(of: handed, within: leaseTimeout)
        } catch {
            lease.cancel()
            throw error
        }
        guard !connection.isClosed else { throw PostgresConnectionLost() }
        return try await body(connection)
    }

    /// Runs `body` in a transaction on `connection`: committed when it returns; rolled back when
    /// it throws, unless the connection has closed (the server rolled back as the session ended,
    /// and a ROLLBACK sent on it would never be answered).
    /// - Throws: what BEGIN, `body` or COMMIT throws (a failed ROLLBACK is not reported: `body`'s
    ///   error is); `PostgresConnectionLost` when the connection closed before COMMIT.
    static func inTransaction<T>(_ connection: PostgresConnection, logger: Logger,
                                 _ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await connection.query("BEGIN", logger: logger)
        let value: T
        do {
            value = try await body(connection)
        } catch {
            if !connection.isClosed { _ = try? await connection.query("ROLLBACK", logger: logger) }
            throw error
        }
        // Closed since: the server rolled the transaction back.
        guard !connection.isClosed else { throw PostgresConnectionLost() }
        try await connection.query("COMMIT", logger: logger)
        return value
    }

    /// The connection the lease hands over, unless `timeout` passes first.
    private static func first(of handed: AsyncThrowingStream<PostgresConnection, any Error>,
                              within timeout: Duration) async throws -> PostgresConnection {
        try await withThrowingTaskGroup(of: PostgresConnection?.self) { group in
            group.addTask {
                for try await connection in handed { return connection }
                throw PostgresLeaseTimeout(timeout: timeout)
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let connection = try await group.next() ?? nil else { throw PostgresLeaseTimeout(timeout: timeout) }
            return connection
        }
    }
}

/// No connection to the database within the store's lease timeout: the server is down,
/// restarting or overloaded.
struct PostgresLeaseTimeout: Error, CustomStringConvertible {
    let timeout: Duration

    var description: String { "no connection to the database within \(timeout) (is the server down or restarting?)" }
}

/// The pool handed over a connection the database had closed already (it stopped or restarted).
struct PostgresConnectionLost: Error, CustomStringConvertible {
    var description: String { "the connection to the database was closed (is the server restarting?)" }
}
