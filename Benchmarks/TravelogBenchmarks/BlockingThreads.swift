import Foundation
import Glibc

/// Blocking socket clients run on their own threads, not on the (two-thread) cooperative pool.
enum BlockingThreads {
    /// Runs `body(0..<count)` on `count` new threads and returns when every one has finished.
    static func run(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let remaining = Remaining(count, continuation)
            for index in 0..<count {
                let thread = Thread {
                    body(index)
                    remaining.finishOne()
                }
                thread.stackSize = 1 << 20
                thread.start()
            }
        }
    }

    /// Nanoseconds on the monotonic clock.
    static func nowNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Sleeps until a time on the monotonic clock (at once if it has passed).
    static func sleep(untilNanoseconds deadline: UInt64) {
        var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
    }

    private final class Remaining: @unchecked Sendable {
        private let lock = NSLock()
        private var count: Int
        private let continuation: CheckedContinuation<Void, Never>

        init(_ count: Int, _ continuation: CheckedContinuation<Void, Never>) {
            self.count = count
            self.continuation = continuation
            if count == 0 { continuation.resume() }
        }

        func finishOne() {
            lock.lock()
            count -= 1
            let done = count == 0
            lock.unlock()
            if done { continuation.resume() }
        }
    }
}

/// Values gathered by several threads under a lock.
final class LockedList<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var elements: [Element] = []

    func append(contentsOf values: [Element]) { lock.lock(); elements += values; lock.unlock() }
    var all: [Element] { lock.lock(); defer { lock.unlock() }; return elements }
}
