import Foundation

/// What an attacker on the internet can do to the phones' ingest (issue 11), against a release
/// `travelog serve`: `server-slow-connections` and `server-login-flood`. Each measures OwnTracks
/// posts at 200/s (`OwnTracksLoad`, open loop) alone, then under attack, and prints both.
enum HardeningBenchmarks {
    static var environment: [String: String] { ProcessInfo.processInfo.environment }
    static var seconds: Double { environment["TRAVELOG_BENCH_SECONDS"].flatMap(Double.init) ?? 10 }
    static var load: OwnTracksLoad { OwnTracksLoad(rate: 200, seconds: seconds, connections: 4) }

    // MARK: Slow connections

    static let slowConnectionCount = 1000

    /// 1000 connections that send a request head at one byte a second (reopened when the server
    /// closes them) while OwnTracks posts go at 200/s. Prints the posts' latency without and with
    /// them and the server's memory (VmRSS, VmHWM). Targets: p99 ≤ 20 ms, memory < 200 MB.
    static func slowConnections(_ context: BenchmarkContext) async throws {
        let (server, token) = try ServerProcess.prepare(context, name: "server-slow-connections")
        try server.start()
        defer { server.stop() }
        let authorization = ServerProcess.basic(ServerProcess.userName, token)
        let idle = server.memory()
        let alone = await load.run(port: server.port, authorization: authorization)
        let afterAlone = server.memory()
        print("  alone: \(alone.latency.count) posts at 200/s, latency \(alone.latency.line([50, 99]))")
        print("  memory idle \(Figures.megabytes(Double(idle.residentBytes))), after the posts "
              + "\(Figures.megabytes(Double(afterAlone.residentBytes)))")

        let slow = SlowClients(port: server.port, count: slowConnectionCount)
        let attack = Task.detached { await BlockingThreads.run(1) { _ in slow.run() } }
        // Let every connection open and send a few bytes before measuring.
        try await Task.sleep(nanoseconds: 3_000_000_000)
        let held = server.memory()
        let attacked = await load.run(port: server.port, authorization: authorization, firstIndex: 1_000_000)
        let during = server.memory()
        slow.stop()
        await attack.value
        let figures = slow.figures
        print("  with \(slowConnectionCount) slow connections: \(attacked.latency.count) posts at 200/s, latency "
              + "\(attacked.latency.line([50, 99])) (target p99 ≤ 20 ms)")
        print("  slow connections: \(figures.opened) opened (reopened when closed), \(figures.closedByServer) closed by the server, "
              + "\(figures.connectFailures) refused, \(figures.bytesSent) bytes sent")
        print("  server memory: \(Figures.megabytes(Double(held.residentBytes))) with them open, "
              + "\(Figures.megabytes(Double(during.residentBytes))) after the posts, peak (VmHWM) "
              + "\(Figures.megabytes(Double(during.peakBytes))) (target < 200 MB)")
        ServerIngestBenchmarks.report(alone.failures + attacked.failures)
    }

    // MARK: Login flood

    static let floodConnections = 32

    /// 32 connections, each from its own loopback address (`LoginFlood`), log in with wrong
    /// passwords for made-up user names as fast as they are answered, while a phone posts with its
    /// token at 200/s. Prints the posts' latency without and with the flood, and what the flood did
    /// during the measurement (attempts, answers, how long each connection kept an attempt
    /// waiting). Target: p99 ≤ 20 ms.
    static func loginFlood(_ context: BenchmarkContext) async throws {
        let (server, token) = try ServerProcess.prepare(context, name: "server-login-flood")
        try server.start()
        defer { server.stop() }
        let authorization = ServerProcess.basic(ServerProcess.userName, token)
        let alone = await load.run(port: server.port, authorization: authorization)
        print("  alone: \(alone.latency.count) posts at 200/s, latency \(alone.latency.line([50, 99]))")

        let flood = LoginFlood(port: server.port, count: floodConnections)
        let flooding = Task.detached { await flood.run() }
        try await Task.sleep(nanoseconds: 1_000_000_000)
        let measuredFrom = BlockingThreads.nowNanoseconds()
        let flooded = await load.run(port: server.port, authorization: authorization, firstIndex: 1_000_000)
        let measuredTo = BlockingThreads.nowNanoseconds()
        flood.stop()
        await flooding.value
        print("  with a login flood from \(floodConnections) connections: \(flooded.latency.count) posts at 200/s, latency "
              + "\(flooded.latency.line([50, 99])) (target p99 ≤ 20 ms)")
        for line in flood.report(fromNanoseconds: measuredFrom, toNanoseconds: measuredTo) { print("  " + line) }
        ServerIngestBenchmarks.report(alone.failures + flooded.failures)
    }
}
