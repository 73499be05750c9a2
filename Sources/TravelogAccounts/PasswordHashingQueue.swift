import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs bcrypt, a quarter of a second of CPU per password at cost 12, on dedicated threads at a
/// lower scheduling priority (nice 10), never on the concurrency pool or GCD's threads that serve
/// requests: a flood of logins waits in line instead of taking every core from the phones'
/// ingest, and once `maximumWaiting` checks wait, the next is refused at once.
///
/// The threads start on first use and live as long as the process.
final class PasswordHashingQueue: @unchecked Sendable {
    /// The process's queue: one thread, so that on a small machine the other cores stay free for
    /// requests. Each `AccountService` bounds its own logins waiting here (a test process runs many
    /// servers, and a server's login flood must not refuse another's); this bound only keeps the
    /// line finite.
    static let shared = PasswordHashingQueue(threadCount: 1, maximumWaiting: 4_096)

    let threadCount: Int
    let maximumWaiting: Int
    /// Guards `jobs` and `started`; its threads wait on it for work.
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var started = false

    init(threadCount: Int, maximumWaiting: Int) {
        self.threadCount = max(1, threadCount)
        self.maximumWaiting = maximumWaiting
    }

    /// Jobs waiting for a thread now.
    var waitingCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return jobs.count
    }

    /// Runs `work` on one of the queue's threads and returns its result.
    /// - Throws: `AccountError.busy` when `maximumWaiting` jobs are waiting already.
    func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws(AccountError) -> T {
        let result: T? = await withCheckedContinuation { continuation in
            if !enqueue({ continuation.resume(returning: work()) }) { continuation.resume(returning: nil) }
        }
        guard let result else { throw .busy(retryAfterSeconds: 5) }
        return result
    }

    private func enqueue(_ job: @escaping @Sendable () -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard jobs.count < maximumWaiting else { return false }
        jobs.append(job)
        if !started {
            started = true
            for index in 0..<threadCount {
                let thread = Thread { [self] in work() }
                thread.name = "travelog-bcrypt-\(index)"
                thread.start()
            }
        }
        condition.signal()
        return true
    }

    /// A thread's loop: lower its own priority, then take jobs for ever.
    private func work() {
        #if os(Linux)
        // On Linux the nice value is the thread's own (man 2 setpriority, BUGS): `who` 0 is this thread.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #endif
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}
