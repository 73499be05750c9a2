import Logging
import NIOCore
import PostgresNIO
import Synchronization
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
///
/// That check cannot close the window between looking and writing, and a transaction or the
/// journal's lock sends several queries on one lease, any of which may follow the close: so every
/// query on a leased connection goes through `PostgresConnection.run(_:logger:)`, which gives a
/// query up once its connection has been closed for a moment (the fresh clone's stall of
/// `PostgresFaultTests`: the journal's `forEachBatch`, leased inside PostgresNIO, waited for ever on
/// a dropped query, and the server's graceful shutdown for the journal).
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
    /// and `run` sends nothing on a closed connection).
    /// - Throws: what BEGIN, `body` or COMMIT throws (a failed ROLLBACK is not reported: `body`'s
    ///   error is); `PostgresConnectionLost` when the connection closed before COMMIT was answered.
    static func inTransaction<T>(_ connection: PostgresConnection, logger: Logger,
                                 _ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await connection.run("BEGIN", logger: logger)
        let value: T
        do {
            value = try await body(connection)
        } catch {
            _ = try? await connection.run("ROLLBACK", logger: logger)
            throw error
        }
        try await connection.run("COMMIT", logger: logger)
        return value
    }

    /// Runs `body` on an open connection of the pool, like `withLease`, with the rows of `query`
    /// (sent with `run`) as they arrive; the connection stays leased until `body` returns.
    /// - Throws: what `withLease`, `run`, reading the rows or `body` throws.
    func withRows<T>(of query: PostgresQuery, _ body: (PostgresRowSequence) async throws -> T) async throws -> T {
        try await withLease { connection in try await body(try await connection.run(query, logger: logger)) }
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

/// The connection to the database closed before a query on it was answered (it stopped or
/// restarted), or the pool handed over a connection that was closed already.
struct PostgresConnectionLost: Error, CustomStringConvertible {
    var description: String { "the connection to the database was closed (is the server restarting?)" }
}

extension PostgresConnection {
    /// How long a query may go unanswered once its connection is closed. A query PostgresNIO
    /// wrote before the close is failed at once; only a dropped one waits this long.
    static let droppedQueryGraceSeconds = 2

    /// Runs `query` as `query(_:logger:)` does, except that it cannot wait for ever on a connection
    /// that closes. PostgresNIO 1.33 writes a query to its channel without a promise for the write,
    /// so one written just after the channel closed (and took its handlers down) is dropped and
    /// its answer never comes (vapor/postgres-nio#487, reverted in #501). While the query waits,
    /// its connection is looked at every second on the connection's own event loop (not a thread
    /// of Swift's cooperative pool); once it has been closed for `droppedQueryGraceSeconds`, the
    /// query is given up (the dropped query's task is left waiting, holding only its memory).
    /// - Throws: `PostgresConnectionLost` when the connection is closed already, or closed and the
    ///   query was not answered within the grace; what `query(_:logger:)` throws.
    @discardableResult
    func run(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
        guard !isClosed else { throw PostgresConnectionLost() }
        let answer = AwaitedAnswer()
        return try await withCheckedThrowingContinuation { continuation in
            answer.expect(continuation)
            let watch = eventLoop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { [self] watch in
                switch answer.look(connectionClosed: isClosed, graceSeconds: Self.droppedQueryGraceSeconds) {
                case .waiting: break
                case .answered: watch.cancel()
                case .givenUp:
                    watch.cancel()
                    logger.warning("a query was not answered \(Self.droppedQueryGraceSeconds) s after its connection closed (dropped by PostgresNIO): given up")
                }
            }
            Task {
                do {
                    answer.resume(with: .success(try await self.query(query, logger: logger)))
                } catch {
                    answer.resume(with: .failure(error))
                }
                watch.cancel()
            }
        }
    }
}

/// The answer to one query, awaited once: from the query, or a `PostgresConnectionLost` from the
/// watch of its connection, whichever comes first (`PostgresConnection.run`).
private final class AwaitedAnswer: Sendable {
    enum Look { case waiting, answered, givenUp }

    private let state = Mutex<(continuation: CheckedContinuation<PostgresRowSequence, any Error>?, closedSeconds: Int)>((nil, 0))

    func expect(_ continuation: CheckedContinuation<PostgresRowSequence, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    func resume(with result: Result<PostgresRowSequence, any Error>) {
        state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }?.resume(with: result)
    }

    /// A second of the watch: counts the seconds the connection has been closed, and gives the
    /// query up once they reach `graceSeconds`.
    func look(connectionClosed: Bool, graceSeconds: Int) -> Look {
        let (look, givenUp) = state.withLock { state -> (Look, CheckedContinuation<PostgresRowSequence, any Error>?) in
            guard let continuation = state.continuation else { return (.answered, nil) }
            if connectionClosed { state.closedSeconds += 1 }
            guard state.closedSeconds >= graceSeconds else { return (.waiting, nil) }
            state.continuation = nil
            return (.givenUp, continuation)
        }
        givenUp?.resume(throwing: PostgresConnectionLost())
        return look
    }
}
