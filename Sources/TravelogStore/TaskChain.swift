import Synchronization

/// Runs async jobs one at a time, in the order they were submitted: each waits for the one before
/// it. The journal's processing and the notification sender use it so that a background run and
/// a request's own run never interleave their reads and writes.
public final class TaskChain: Sendable {
    public init() {}

    private let tail = Mutex<Task<Void, Never>?>(nil)

    /// Runs `job` after every job submitted before, and returns when it is done.
    public func run(_ job: @escaping @Sendable () async -> Void) async {
        await value(of: job)
    }

    /// Runs `job` after every job submitted before, and returns what it returned.
    @discardableResult
    public func value<Value: Sendable>(of job: @escaping @Sendable () async -> Value) async -> Value {
        let task = tail.withLock { tail -> Task<Value, Never> in
            let previous = tail
            let next = Task {
                await previous?.value
                return await job()
            }
            tail = Task { _ = await next.value }
            return next
        }
        return await task.value
    }
}
