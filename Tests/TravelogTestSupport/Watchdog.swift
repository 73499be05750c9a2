import Foundation

/// A bound on a whole test that fires even when nothing else in the process can run: a thread of
/// its own (not one of the few threads of Swift's cooperative pool, whose timers a stalled pool
/// cannot fire) waits `seconds`, and unless `finish()` was called by then it ends the process
/// with `what` and the test's `status()` of that moment. A stalled test would otherwise hold
/// `make test`, and CI, until their limits, with no word of where it stopped.
public final class Watchdog: @unchecked Sendable {
    /// Guards `finished`; the watchdog's thread waits on it.
    private let condition = NSCondition()
    private var finished = false

    /// Starts the watchdog's thread.
    /// - Parameter status: what the test has done so far (read on the watchdog's thread).
    public init(_ what: String, seconds: Int, status: @escaping @Sendable () -> String) {
        let thread = Thread { [self] in
            let deadline = Date(timeIntervalSinceNow: TimeInterval(seconds))
            condition.lock()
            while !finished && condition.wait(until: deadline) {}
            let fired = !finished
            condition.unlock()
            guard fired else { return }
            fatalError("watchdog: \(what) did not finish within \(seconds) s (stalled); \(status())")
        }
        thread.name = "watchdog"
        thread.start()
    }

    /// The test finished: the watchdog's thread ends without firing.
    public func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }
}
