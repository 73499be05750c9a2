import Foundation

/// Expensive requests a stranger with a token or a login can send (issue 25), each kind from its
/// own keep-alive connections, one attempt after another until `stop()`: an attempt starts when
/// the last one on its connection has been answered, but not sooner than `minimumIntervalSeconds`
/// after it started (so that a request the server refuses at once is repeated, not turned into a
/// flood). A connection that fails or is closed is opened again. An attempt still unanswered at
/// `abandonAtNanoseconds` is given up (its socket times out), so the run ends by then whatever the
/// server does. Every attempt is recorded with its answer's status, or what went wrong instead.
final class HostileAttacks: @unchecked Sendable {
    /// One kind of request.
    struct Attack: Sendable {
        /// What it is, for the report (`snapshot 4096x4096 scale 4 heat`).
        var name: String
        var connections: Int
        /// Sends one attempt on a connection and reads its answer.
        var send: @Sendable (HTTPConnection) throws -> HTTPConnection.Response
    }

    /// One attempt: when it was sent and when it ended (monotonic nanoseconds), and its outcome:
    /// `200`, `413`, … or what went wrong (`recv timed out`, `the server closed the connection`).
    struct Attempt {
        var attack: Int
        var sentNanoseconds: UInt64
        var endedNanoseconds: UInt64
        var outcome: String
        /// The start of the answer's body when it is not a success (the limit a refusal names).
        var detail: String?
    }

    let port: Int
    let attacks: [Attack]
    let abandonAtNanoseconds: UInt64
    let minimumIntervalSeconds: Double
    private let lock = NSLock()
    private var stopping = false
    private var attempts: [Attempt] = []

    init(port: Int, attacks: [Attack], abandonAtNanoseconds: UInt64, minimumIntervalSeconds: Double = 0.5) {
        self.port = port
        self.attacks = attacks
        self.abandonAtNanoseconds = abandonAtNanoseconds
        self.minimumIntervalSeconds = minimumIntervalSeconds
    }

    /// Attacks until `stop()`, then returns once every connection's last attempt has ended
    /// (answered, failed, or given up at `abandonAtNanoseconds`).
    func run() async {
        let lanes = attacks.indices.flatMap { index in Array(repeating: index, count: attacks[index].connections) }
        await BlockingThreads.run(lanes.count) { lane in self.runLane(attack: lanes[lane]) }
    }

    func stop() { lock.lock(); stopping = true; lock.unlock() }

    private var isStopping: Bool { lock.lock(); defer { lock.unlock() }; return stopping }

    private func runLane(attack index: Int) {
        var recorded: [Attempt] = []
        var connection: HTTPConnection?
        let intervalNanoseconds = UInt64(minimumIntervalSeconds * 1e9)
        while !isStopping {
            let sent = BlockingThreads.nowNanoseconds()
            guard sent < abandonAtNanoseconds else { break }
            var outcome: String
            var detail: String?
            do {
                let open = try connection ?? HTTPConnection(port: port)
                connection = open
                open.setTimeout(seconds: Double(abandonAtNanoseconds - sent) / 1e9)
                let response = try attacks[index].send(open)
                outcome = String(response.status)
                if response.status >= 300 { detail = String(response.text.prefix(160)) }
                if response.header("Connection")?.lowercased() == "close" { connection = nil }
            } catch {
                outcome = "\(error)"
                connection = nil
            }
            recorded.append(Attempt(attack: index, sentNanoseconds: sent, endedNanoseconds: BlockingThreads.nowNanoseconds(),
                                    outcome: outcome, detail: detail))
            BlockingThreads.sleep(untilNanoseconds: sent + intervalNanoseconds)
        }
        lock.lock(); attempts += recorded; lock.unlock()
    }

    /// A line per attack (after `run()` has returned): its attempts, their outcomes, and how long
    /// they took (answered or not); then, indented, the first answer of each refusal.
    func report() -> [String] {
        lock.lock(); let all = attempts; lock.unlock()
        return attacks.indices.flatMap { index in
            let mine = all.filter { $0.attack == index }
            let outcomes = Dictionary(grouping: mine, by: \.outcome).mapValues(\.count)
            let outcomeText = outcomes.sorted { $0.value > $1.value }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
            let times = LatencySummary(nanoseconds: mine.map { $0.endedNanoseconds - $0.sentNanoseconds })
            let attack = attacks[index]
            let line = "\(attack.name) (\(attack.connections) connection\(attack.connections == 1 ? "" : "s")): \(mine.count) attempts "
                + "(\(outcomeText.isEmpty ? "none" : outcomeText)); time \(times.line([50]))"
            let refusals = outcomes.keys.sorted().compactMap { outcome in
                mine.first { $0.outcome == outcome }?.detail.map { "  \(outcome): \($0)" }
            }
            return [line] + refusals
        }
    }
}
