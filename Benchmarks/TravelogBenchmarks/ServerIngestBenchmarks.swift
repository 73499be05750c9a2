import Foundation

/// `server-overland` and `server-owntracks`: a release `travelog serve` on a fresh database (SQLite,
/// or PostgreSQL with `--db postgres://…`),
/// driven over loopback keep-alive connections from this process (see `ServerProcess`).
enum ServerIngestBenchmarks {
    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    // MARK: Overland

    /// Points per Overland batch (the app's largest setting).
    static let overlandBatchPoints = 1_000
    /// Batches generated up front; the run stops when they are used up or after `overlandSeconds`.
    static var overlandBatches: Int { environment["TRAVELOG_BENCH_OVERLAND_BATCHES"].flatMap(Int.init) ?? 400 }
    static var overlandSeconds: Double { environment["TRAVELOG_BENCH_SECONDS"].flatMap(Double.init) ?? 10 }
    static var overlandConnections: Int { environment["TRAVELOG_BENCH_CONNECTIONS"].flatMap(Int.init) ?? 3 }

    /// Sustained Overland batches of 1,000 points (~600 bytes each) from a few connections; prints
    /// stored locations per second (counted by the server afterwards) and request latencies.
    /// Target: ≥ 50,000 locations/s.
    static func overland(_ context: BenchmarkContext) async throws {
        let (server, token) = try ServerProcess.prepare(context, name: "server-overland")
        let generationStart = BlockingThreads.nowNanoseconds()
        let batches = (0..<overlandBatches).map { ServerPayloads.overlandBatch(index: $0, points: overlandBatchPoints) }
        let totalBytes = batches.reduce(0) { $0 + $1.count }
        print("  generated \(batches.count) batches of \(overlandBatchPoints) points, "
              + "\(totalBytes / (batches.count * overlandBatchPoints)) bytes/point, in "
              + "\(Figures.seconds(seconds(since: generationStart))) (not counted)")
        try server.start()
        defer { server.stop() }
        let port = server.port

        let connections = overlandConnections
        let queue = BatchQueue(batches: batches)
        let latencies = LockedList<UInt64>()
        let failures = LockedList<String>()
        let start = BlockingThreads.nowNanoseconds()
        let deadline = start + UInt64(overlandSeconds * 1e9)
        let end = LockedList<UInt64>()
        await BlockingThreads.run(connections) { _ in
            var mine: [UInt64] = []
            do {
                let connection = try HTTPConnection(port: port)
                while BlockingThreads.nowNanoseconds() < deadline, let body = queue.next() {
                    let sent = BlockingThreads.nowNanoseconds()
                    let response = try connection.send("POST", "/api/v1/overland", headers: [
                        ServerProcess.bearer(token), ("Content-Type", "application/json"),
                    ], body: body)
                    mine.append(BlockingThreads.nowNanoseconds() - sent)
                    if response.status != 200 || response.text != #"{"result":"ok"}"# {
                        failures.append(contentsOf: ["HTTP \(response.status): \(response.text.prefix(200))"])
                    }
                }
            } catch {
                failures.append(contentsOf: ["\(error)"])
            }
            latencies.append(contentsOf: mine)
            end.append(contentsOf: [BlockingThreads.nowNanoseconds()])
        }
        let elapsed = Double((end.all.max() ?? start) - start) / 1e9
        let sentBatches = queue.taken
        let stored = try server.storedLocationCount(token: token)
        let summary = LatencySummary(nanoseconds: latencies.all)
        print("  \(connections) connections, \(sentBatches) batches (\(sentBatches * overlandBatchPoints) points, "
              + "\(Figures.megabytes(Double(sentBatches * totalBytes / batches.count)))) in \(Figures.seconds(elapsed))")
        print("  stored \(stored) locations (server count): \(Figures.rate(Double(stored) / elapsed)) locations/s, "
              + "\(Figures.megabytes(Double(sentBatches * totalBytes / batches.count) / elapsed))/s of request bodies")
        print("  request latency: \(summary.line([50, 90, 99]))")
        report(failures.all)
    }

    // MARK: OwnTracks

    static var owntracksRate: Double { environment["TRAVELOG_BENCH_RATE"].flatMap(Double.init) ?? 200 }
    static var owntracksSeconds: Double { environment["TRAVELOG_BENCH_SECONDS"].flatMap(Double.init) ?? 15 }
    static var owntracksConnections: Int { environment["TRAVELOG_BENCH_CONNECTIONS"].flatMap(Int.init) ?? 4 }
    static let owntracksWarmUpSeconds = 1.0

    /// Single-location OwnTracks posts at a fixed rate from a few keep-alive connections
    /// (`OwnTracksLoad`: open loop, latency from each request's due time). Target: p99 < 20 ms.
    static func owntracks(_ context: BenchmarkContext) async throws {
        let (server, token) = try ServerProcess.prepare(context, name: "server-owntracks")
        try server.start()
        defer { server.stop() }
        let load = OwnTracksLoad(rate: owntracksRate, seconds: owntracksSeconds, connections: owntracksConnections,
                                 warmUpSeconds: owntracksWarmUpSeconds)
        let result = await load.run(port: server.port, authorization: ServerProcess.basic(ServerProcess.userName, token))
        let stored = try server.storedLocationCount(token: token)
        print("  \(result.requests) requests (\(result.warmUpRequests) warm-up, not counted) at \(Int(load.rate))/s over "
              + "\(load.connections) keep-alive connections in \(Figures.seconds(result.elapsedSeconds)); server stored \(stored)")
        print("  latency from due time: \(result.latency.line([50, 90, 99, 99.9]))")
        print("  send lateness (a connection still busy at the due time): \(result.lateness.line([50, 99]))")
        report(result.failures)
    }

    // MARK: Shared

    static func seconds(since start: UInt64) -> Double {
        Double(BlockingThreads.nowNanoseconds() - start) / 1e9
    }

    static func report(_ failures: [String]) {
        guard !failures.isEmpty else { return }
        print("  FAILED requests: \(failures.count); first: \(failures[0])")
    }

    /// Hands each batch to one connection.
    final class BatchQueue: @unchecked Sendable {
        private let lock = NSLock()
        private let batches: [[UInt8]]
        private var nextIndex = 0

        init(batches: [[UInt8]]) { self.batches = batches }

        func next() -> [UInt8]? {
            lock.lock()
            defer { lock.unlock() }
            guard nextIndex < batches.count else { return nil }
            nextIndex += 1
            return batches[nextIndex - 1]
        }

        var taken: Int { lock.lock(); defer { lock.unlock() }; return nextIndex }
    }
}
