import Foundation
import Synchronization
import Testing
@testable import TravelogAccounts
import TravelogStore

/// bcrypt runs on its own bounded queue (issue 11: a login flood took every core from the phones).
@Suite("The password hashing queue")
struct PasswordHashingQueueTests {
    /// Holds the queue's thread in a job until `open` is signalled.
    final class Gate: Sendable {
        let entered = Mutex(false)
        let open = DispatchSemaphore(value: 0)

        func hold() -> Int {
            entered.withLock { $0 = true }
            open.wait()
            return 1
        }
    }

    /// Polls (without blocking the concurrency pool) until `condition` holds.
    static func wait(until condition: () -> Bool) async throws {
        while !condition() { try await Task.sleep(nanoseconds: 5_000_000) }
    }

    @Test("jobs run in order on the queue's thread, and once the line is full the next is refused as busy")
    func boundedLine() async throws {
        let queue = PasswordHashingQueue(threadCount: 1, maximumWaiting: 2)
        let gate = Gate()
        async let first: Int = try queue.run { gate.hold() }
        try await Self.wait { gate.entered.withLock { $0 } }
        async let second: Int = try queue.run { 2 }
        async let third: Int = try queue.run { 3 }
        try await Self.wait { queue.waitingCount == 2 }
        await #expect(throws: AccountError.busy(retryAfterSeconds: 5)) { try await queue.run { 4 } }
        gate.open.signal()
        #expect(try await [first, second, third] == [1, 2, 3])
        #expect(try await queue.run { 5 } == 5)
    }

    @Test("a cheap hash (cost 4, the tests') runs where it is asked, never behind the process's line; the server's cost 12 waits in it")
    func cheapHashesInline() async throws {
        #expect(AccountService.cost(ofHash: "$2b$04$abcdefghijklmnopqrstuu5MDVsUgyNYWn2ZsHeXZnu8GMTrUHY5i") == 4)
        #expect(AccountService.cost(ofHash: "$2y$12$x") == 12)
        #expect(AccountService.cost(ofHash: "plain") == nil)
        let gate = Gate()
        let held = Task { try await PasswordHashingQueue.shared.run { gate.hold() } }
        try await Self.wait { gate.entered.withLock { $0 } }
        let cheap = Task {
            let accounts = AccountService(store: InMemoryLocationStore(), bcryptCost: 4)
            let user = try await accounts.addUser(named: "ada", password: "correct horse battery")
            return try await accounts.user(named: "ada", password: "correct horse battery")?.id == user.id
        }
        let expensive = Task { try await AccountService.offload(cost: 12) { 12 } }
        // Up to ten seconds for the cheap one while the line is held; then the line opens either way.
        let done = Mutex<Bool?>(nil)
        let watcher = Task { let result = try await cheap.value; done.withLock { $0 = result } }
        for _ in 0..<2_000 where done.withLock({ $0 }) == nil { try await Task.sleep(nanoseconds: 5_000_000) }
        let beforeOpening = done.withLock { $0 }
        let waitingBehind = PasswordHashingQueue.shared.waitingCount
        gate.open.signal()
        _ = try await held.value
        try await watcher.value
        #expect(beforeOpening == true, "a cost-4 login waited for the hashing line")
        #expect(waitingBehind >= 1, "the cost-12 hash did not wait in the line")
        #expect(try await expensive.value == 12)
    }

    @Test("its thread runs at a lower priority (nice 10 more) than the threads serving requests")
    func lowerPriority() async throws {
        let queue = PasswordHashingQueue(threadCount: 1, maximumWaiting: 1)
        let mine = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let niceness = try await queue.run { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
        #expect(niceness == min(mine + 10, 19))
    }
}
