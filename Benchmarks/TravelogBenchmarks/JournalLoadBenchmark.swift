import Foundation

/// `server-journal-5m`: Overland batches of 1,000 points sent to a release `travelog serve` on an
/// empty database and on one holding a long history (5M locations and about 30k visits, imported
/// with `travelog import`, journal included, before the server starts). Prints, for each, the
/// request latency of batches paced at a steady rate (the journal runs behind each one), and the
/// time from a batch's acknowledgement until its visits are in the journal (`GET /api/v1/visits`
/// for the batch's hour answers once the journal has caught up). Issue 10's target: the same p99
/// on both, and visits within 1 s.
enum JournalLoadBenchmark {
    static var environment: [String: String] { ProcessInfo.processInfo.environment }
    /// Locations of the stored history (`TRAVELOG_BENCH_HISTORY_LOCATIONS`).
    static var historyLocations: Int { environment["TRAVELOG_BENCH_HISTORY_LOCATIONS"].flatMap(Int.init) ?? 5_000_000 }
    /// Batches sent at a steady pace for the latency figures (`TRAVELOG_BENCH_PACED_BATCHES`).
    static var pacedBatches: Int { environment["TRAVELOG_BENCH_PACED_BATCHES"].flatMap(Int.init) ?? 200 }
    /// Seconds between the starts of two paced batches.
    static let pacingSeconds = 0.25
    /// Batches each followed by a read of their visits.
    static let visibilityBatches = 20
    static let batchPoints = ServerIngestBenchmarks.overlandBatchPoints

    static func run(_ context: BenchmarkContext) async throws {
        let history = try BenchmarkHistory.csv(in: context.workDirectory, locations: historyLocations,
                                               endingAt: ServerPayloads.startEpochSeconds)
        let batches = (0..<(pacedBatches + visibilityBatches)).map { ServerPayloads.overlandBatch(index: $0, points: batchPoints) }
        print("  \(batches.count) batches of \(batchPoints) points; \(pacedBatches) paced one per "
              + "\(Int(pacingSeconds * 1000)) ms from one connection, then \(visibilityBatches) each followed by a read of its visits")
        try await measure(context, name: "server-journal-empty", history: nil, batches: batches)
        try await measure(context, name: "server-journal-history", history: history, batches: batches)
    }

    static func measure(_ context: BenchmarkContext, name: String, history: URL?, batches: [[UInt8]]) async throws {
        let (server, token) = try ServerProcess.prepare(context, name: name)
        var label = "empty database"
        if let history {
            let started = BlockingThreads.nowNanoseconds()
            try server.command(["import", "--user", ServerProcess.userName, "--device", ServerProcess.deviceName, history.path])
            label = "history of \(historyLocations) locations"
            print("  \(label) imported (journal included) in \(Figures.seconds(ServerIngestBenchmarks.seconds(since: started)))")
        }
        try server.start()
        defer { server.stop() }
        let connection = try HTTPConnection(port: server.port)
        if history != nil {
            let visits = try visitCount(connection, token: token, from: nil, to: nil)
            print("  stored: \(try server.storedLocationCount(token: token)) locations, \(visits) visits")
        }
        var latencies: [UInt64] = [], failures: [String] = []
        let start = BlockingThreads.nowNanoseconds()
        for (index, body) in batches.prefix(pacedBatches).enumerated() {
            let due = start + UInt64(Double(index) * pacingSeconds * 1e9)
            let now = BlockingThreads.nowNanoseconds()
            if due > now { usleep(UInt32((due - now) / 1000)) }
            let sent = BlockingThreads.nowNanoseconds()
            let response = try post(body, connection, token: token)
            latencies.append(BlockingThreads.nowNanoseconds() - sent)
            if response.status != 200 { failures.append("HTTP \(response.status): \(response.text.prefix(200))") }
        }
        var visible: [UInt64] = []
        for index in pacedBatches..<batches.count {
            let response = try post(batches[index], connection, token: token)
            let acknowledged = BlockingThreads.nowNanoseconds()
            if response.status != 200 { failures.append("HTTP \(response.status): \(response.text.prefix(200))") }
            // The batch covers 1,000 s from its index's second on (ServerPayloads.overlandBatch).
            let first = ServerPayloads.startEpochSeconds + Int64(index * batchPoints)
            let visits = try visitCount(connection, token: token, from: first, to: first + Int64(batchPoints))
            visible.append(BlockingThreads.nowNanoseconds() - acknowledged)
            if visits == 0 { failures.append("batch \(index): no visit in the journal after its acknowledgement") }
        }
        print("  \(label): batch latency (\(latencies.count) paced): \(LatencySummary(nanoseconds: latencies).line([50, 90, 99]))")
        print("  \(label): acknowledgement to its visits in the journal (\(visible.count)): "
              + LatencySummary(nanoseconds: visible).line([50, 90]))
        print("  \(label): server peak memory \(server.memory().peakBytes / 1_048_576) MB")
        ServerIngestBenchmarks.report(failures)
    }

    static func post(_ body: [UInt8], _ connection: HTTPConnection, token: String) throws -> HTTPConnection.Response {
        try connection.send("POST", "/api/v1/overland", headers: [
            ServerProcess.bearer(token), ("Content-Type", "application/json"),
        ], body: body)
    }

    /// Visits the journal lists between two epoch seconds (all when `nil`), once it has caught up.
    static func visitCount(_ connection: HTTPConnection, token: String, from: Int64?, to: Int64?) throws -> Int {
        var path = "/api/v1/visits"
        if let from, let to {
            path += "?from=\(iso(from))&to=\(iso(to))"
        }
        let response = try connection.send("GET", path, headers: [ServerProcess.bearer(token)])
        guard response.status == 200, let entries = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [Any]
        else { return -1 }
        return entries.count
    }

    static func iso(_ epochSeconds: Int64) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(epochSeconds)))
    }
}
