import Foundation

/// `server-large-body`: how much a release `travelog serve` grows while it takes a 64 MB Overland
/// body, then three at once (bodies are read as they arrive, never collected whole). Targets:
/// growth < 100 MB for one, < 300 MB for three. Reads the server's VmRSS before and VmHWM (peak)
/// after from /proc.
enum LargeBodyBenchmark {
    static let bodyBytes = 64_000_000

    static func run(_ context: BenchmarkContext) async throws {
        let (server, token) = try ServerProcess.prepare(context, name: "server-large-body")
        // 585 bytes a point: 64 MB is about 109,000 points; bodies that differ (times in 2024), so all are stored.
        let points = bodyBytes / 590
        let bodies = (1...3).map { ServerPayloads.overlandBatch(index: $0, points: points) }
        try server.start()
        defer { server.stop() }
        let port = server.port
        let idle = server.memory().residentBytes
        let failures = LockedList<String>()
        @Sendable func send(_ body: [UInt8]) {
            do {
                let response = try HTTPConnection(port: port).send("POST", "/api/v1/overland", headers: [
                    ServerProcess.bearer(token), ("Content-Type", "application/json"),
                ], body: body)
                if response.status != 200 { failures.append(contentsOf: ["HTTP \(response.status): \(response.text.prefix(200))"]) }
            } catch {
                failures.append(contentsOf: ["\(error)"])
            }
        }
        let started = Date()
        send(bodies[0])
        let one = server.memory().peakBytes
        print("  one body of \(Figures.megabytes(Double(bodies[0].count))) (\(points) points) in "
              + "\(Figures.seconds(Date().timeIntervalSince(started))): server peak \(Figures.megabytes(Double(one))), "
              + "growth \(Figures.megabytes(Double(one - idle))) over idle \(Figures.megabytes(Double(idle))) (target < 100 MB)")
        let together = Date()
        await BlockingThreads.run(3) { index in send(bodies[index]) }
        let three = server.memory().peakBytes
        print("  three at once in \(Figures.seconds(Date().timeIntervalSince(together))): server peak "
              + "\(Figures.megabytes(Double(three))), growth \(Figures.megabytes(Double(three - idle))) (target < 300 MB)")
        let stored = try server.storedLocationCount(token: token)
        print("  stored \(stored) locations (expected \(points * 3))")
        for failure in failures.all { print("  FAILED: \(failure)") }
    }
}
