import Foundation

/// A login flood (issue 11): `count` keep-alive connections, each bound to its own loopback address
/// (127.0.1.x, so that the server's per-address throttle sees `count` clients), post wrong passwords
/// for made-up user names, the next as soon as the last is answered; a connection that fails is
/// opened again. Every attempt is recorded with when it was sent and answered, so that the run can
/// show the flood really lasted: how much of a time window each connection spent with an attempt
/// waiting on the server, and what the server answered (`401`, a throttling `429`, …).
final class LoginFlood: @unchecked Sendable {
    /// One login attempt: its connection, when it was sent and answered (monotonic nanoseconds), and
    /// the answer's status (0 when the connection failed instead).
    struct Attempt {
        var lane: Int
        var sentNanoseconds: UInt64
        var answeredNanoseconds: UInt64
        var status: Int
    }

    let port: Int
    let count: Int
    private let lock = NSLock()
    private var stopping = false
    private var attempts: [Attempt] = []

    init(port: Int, count: Int) {
        self.port = port
        self.count = count
    }

    /// Floods until `stop()`, then returns once every connection has had its last attempt answered.
    func run() async {
        await BlockingThreads.run(count) { lane in self.runLane(lane) }
    }

    func stop() { lock.lock(); stopping = true; lock.unlock() }

    private var isStopping: Bool { lock.lock(); defer { lock.unlock() }; return stopping }

    private func runLane(_ lane: Int) {
        var recorded: [Attempt] = []
        var number = 0
        while !isStopping {
            do {
                let connection = try HTTPConnection(port: port, sourceAddress: "127.0.1.\(lane + 1)")
                while !isStopping {
                    number += 1
                    let body = #"{"user":"guess\#(lane)-\#(number % 50)","password":"wrong-password-\#(number)"}"#
                    let sent = BlockingThreads.nowNanoseconds()
                    let response = try connection.send("POST", "/api/v1/session", headers: [("Content-Type", "application/json")],
                                                       body: Array(body.utf8))
                    recorded.append(Attempt(lane: lane, sentNanoseconds: sent, answeredNanoseconds: BlockingThreads.nowNanoseconds(),
                                            status: response.status))
                }
            } catch {
                let now = BlockingThreads.nowNanoseconds()
                recorded.append(Attempt(lane: lane, sentNanoseconds: now, answeredNanoseconds: now, status: 0))
                // A refused connection is tried again at once, but not in a tight loop.
                BlockingThreads.sleep(untilNanoseconds: now + 10_000_000)
            }
        }
        lock.lock(); attempts += recorded; lock.unlock()
    }

    /// What the flood did between two monotonic times (after `run()` has returned): attempts sent and
    /// answered, the answers by status, how long answers took, and the share of the window each
    /// connection had an attempt waiting on the server (100 % means it never stopped flooding).
    func report(fromNanoseconds start: UInt64, toNanoseconds end: UInt64) -> [String] {
        lock.lock(); let all = attempts; lock.unlock()
        let window = all.filter { $0.answeredNanoseconds > start && $0.sentNanoseconds < end }
        let sent = window.filter { $0.sentNanoseconds >= start }.count
        let answered = window.filter { $0.answeredNanoseconds <= end }
        let statuses = Dictionary(grouping: answered, by: \.status).mapValues(\.count)
        let statusText = statuses.keys.sorted().map { "\($0 == 0 ? "failed" : String($0)): \(statuses[$0] ?? 0)" }
            .joined(separator: ", ")
        let delays = LatencySummary(nanoseconds: window.map { $0.answeredNanoseconds - $0.sentNanoseconds })
        let length = Double(end - start)
        let busy = (0..<count).map { lane in
            window.filter { $0.lane == lane }.reduce(0.0) { total, attempt in
                total + Double(min(attempt.answeredNanoseconds, end) - max(attempt.sentNanoseconds, start))
            } / length
        }
        let percent = { (value: Double) in String(format: "%.1f %%", value * 100) }
        return [
            "the flood during the measurement: \(sent) attempts sent, \(answered.count) answered (\(statusText.isEmpty ? "none" : statusText))",
            "the flood's answer delays (attempts overlapping the measurement): \(delays.line([50, 99]))",
            "each of the \(count) connections had an attempt waiting on the server for \(percent(busy.min() ?? 0)) to "
                + "\(percent(busy.max() ?? 0)) of the measurement (mean \(percent(busy.reduce(0, +) / Double(max(count, 1)))))",
        ]
    }
}
