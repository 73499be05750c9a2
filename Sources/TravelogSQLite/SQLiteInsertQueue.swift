import Synchronization
import TravelogStore

/// Batches of locations waiting for the database's one writer (group commit): a batch that arrives
/// while others are being stored waits, and every batch that waited is stored in the next
/// transaction, each in a savepoint of its own, so one that fails stores nothing and the others
/// are kept. Uploads in flight together then share a transaction's fixed cost (its commit, the
/// pages it writes to the WAL), and none waits for a commit per batch queued before it.
///
/// Each caller hears of its own batch only once the transaction holding it has committed.
final class SQLiteInsertQueue: Sendable {
    typealias Store = @Sendable ([[StoredLocation]]) async -> [Result<InsertSummary, StoreError>]

    private struct Waiting {
        var batch: [StoredLocation]
        var continuation: CheckedContinuation<InsertSummary, any Error>
    }

    private struct State {
        var waiting: [Waiting] = []
        var draining = false
    }

    private let state = Mutex(State())

    /// Stores `batch` in the next transaction.
    /// - Parameter store: stores batches together in one transaction, a result per batch in order
    ///   (the caller that finds the queue idle runs it for everything that waits meanwhile).
    func insert(_ batch: [StoredLocation], storing store: @escaping Store) async throws(StoreError) -> InsertSummary {
        do {
            return try await withCheckedThrowingContinuation { continuation in
                let leads = state.withLock { state in
                    state.waiting.append(Waiting(batch: batch, continuation: continuation))
                    defer { state.draining = true }
                    return !state.draining
                }
                if leads { Task { await self.drain(store) } }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .database(operation: "storing locations", message: String(describing: error))
        }
    }

    /// Stores what waits, a transaction at a time, until nothing does.
    private func drain(_ store: Store) async {
        while true {
            let taken = state.withLock { state in
                let taken = state.waiting
                state.waiting = []
                if taken.isEmpty { state.draining = false }
                return taken
            }
            guard !taken.isEmpty else { return }
            let results = await store(taken.map(\.batch))
            for (waiting, result) in zip(taken, results) {
                waiting.continuation.resume(with: result.mapError { $0 as any Error })
            }
        }
    }
}
