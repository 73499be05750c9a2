import GRDB
import Synchronization
import TravelogStore

/// Writes waiting for the database's one writer (group commit): a write that arrives while others
/// are being committed waits, and every write that waited runs in the next transaction, each in a
/// savepoint of its own, so one that fails changes nothing and the others are kept. Writers in
/// flight together (uploads, the MQTT subscriber's connections storing a message each and then the
/// device's report) then share a transaction's fixed cost (its commit and fsync, the pages it
/// writes to the WAL), and none waits for a commit per write queued before it.
///
/// Each caller hears of its own write only once the transaction holding it has committed.
final class SQLiteInsertQueue: Sendable {
    typealias Job = @Sendable (Database) throws(StoreError) -> any Sendable

    private struct Waiting {
        var operation: String
        var job: Job
        var continuation: CheckedContinuation<any Sendable, any Error>
    }

    private struct State {
        var waiting: [Waiting] = []
        var draining = false
    }

    private let state = Mutex(State())

    /// Runs `job` in the next transaction of `pool`'s writer, alone or in a savepoint beside the
    /// others that waited; returns once that transaction committed.
    /// - Throws: what the job threw (nothing of it is stored), or `StoreError.database` when the
    ///   transaction failed (nothing of any job in it is stored).
    func write<T: Sendable>(_ operation: String, in pool: DatabasePool,
                            _ job: @escaping @Sendable (Database) throws(StoreError) -> T) async throws(StoreError) -> T {
        do {
            let result = try await withCheckedThrowingContinuation { continuation in
                let leads = state.withLock { state in
                    state.waiting.append(Waiting(operation: operation, job: { db throws(StoreError) in try job(db) },
                                                 continuation: continuation))
                    defer { state.draining = true }
                    return !state.draining
                }
                if leads { Task { await self.drain(pool) } }
            }
            guard let result = result as? T else {
                throw StoreError.database(operation: operation, message: "a group commit answered \(type(of: result))")
            }
            return result
        } catch let error as StoreError {
            throw error
        } catch {
            throw .database(operation: operation, message: String(describing: error))
        }
    }

    /// Commits what waits, a transaction at a time, until nothing does.
    private func drain(_ pool: DatabasePool) async {
        while true {
            let taken = state.withLock { state in
                let taken = state.waiting
                state.waiting = []
                if taken.isEmpty { state.draining = false }
                return taken
            }
            guard !taken.isEmpty else { return }
            let results = await Self.run(taken, in: pool)
            for (waiting, result) in zip(taken, results) {
                waiting.continuation.resume(with: result.mapError { $0 as any Error })
            }
        }
    }

    /// One transaction: a job alone as it is, several each in a savepoint. A result per job, in order.
    private static func run(_ jobs: [Waiting], in pool: DatabasePool) async -> [Result<any Sendable, StoreError>] {
        do {
            return try await pool.write { db in
                guard jobs.count > 1 else {
                    do throws(StoreError) {
                        return [.success(try jobs[0].job(db))]
                    } catch {
                        // Alone: its failure fails the transaction, as a write of its own would.
                        throw error
                    }
                }
                return jobs.map { waiting in
                    var result: Result<any Sendable, StoreError> = .failure(.database(operation: waiting.operation, message: "not run"))
                    do {
                        try db.inSavepoint {
                            do throws(StoreError) {
                                result = .success(try waiting.job(db))
                                return .commit
                            } catch {
                                result = .failure(error)
                                return .rollback
                            }
                        }
                    } catch {
                        result = .failure(.database(operation: waiting.operation, message: String(describing: error)))
                    }
                    return result
                }
            }
        } catch let error as StoreError {
            return jobs.map { _ in .failure(error) }
        } catch {
            return jobs.map { .failure(.database(operation: $0.operation, message: String(describing: error))) }
        }
    }
}
