import PostgresNIO
import TravelogStore

/// A bounded wait for a connection. PostgresNIO's pool keeps a request waiting while it cannot
/// connect (the database restarting) until its circuit breaker opens a minute later; a phone's
/// upload would hang that long. Leasing here gives up after the store's `leaseTimeout` instead, so
/// the request fails at once as a database error (the server answers 503: try again) while the
/// pool goes on reconnecting by itself.
extension PostgresLocationStore {
    /// Runs `body` on a connection of the pool, which stays leased until `body` returns.
    /// - Throws: `PostgresLeaseTimeout` when no connection was free or could be made within
    ///   `leaseTimeout`; the pool's error when it refused the lease; what `body` throws.
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
        return try await body(connection)
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
