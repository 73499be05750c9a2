import Foundation

/// `retention`: a server holding N old fixes (a generated GPX track of 2020, imported with the CLI;
/// 1M by default, `TRAVELOG_BENCH_RETENTION_FIXES=10000000` for the 10M) deletes them
/// (`POST /api/v1/account/retention/run`: the batches the daily run deletes in, in the server's
/// process) while OwnTracks phones post at 200 req/s. Prints ingest p50/p99 during the deletion
/// (the target: p99 < 20 ms) and the deletion rate.
enum RetentionBenchmark {
    static var fixes: Int {
        ProcessInfo.processInfo.environment["TRAVELOG_BENCH_RETENTION_FIXES"].flatMap(Int.init) ?? 1_000_000
    }

    static let rate = 200.0
    /// The load runs in slices of this many seconds until the deletion has ended.
    static let sliceSeconds = 5.0

    static func run(_ context: BenchmarkContext) async throws {
        let (server, token) = try ServerProcess.prepare(context, name: "retention")
        let gpx = try BenchmarkInputs.gpx(in: context.workDirectory, points: fixes)
        var started = Date()
        try server.command(["import", "--user", ServerProcess.userName, "--device", "old-phone", gpx.path])
        print("  imported \(fixes) fixes of 2020 in \(Figures.seconds(Date().timeIntervalSince(started))) (not counted)")
        // The period ends 30 days before the first OwnTracks post (March 2024): every old fix goes, no new one.
        let days = Int((Date().timeIntervalSince1970 - Double(ServerPayloads.startEpochSeconds)) / 86_400) + 30
        try server.command(["retention", "set", "\(days)d", "--user", ServerProcess.userName])
        try server.start()
        defer { server.stop() }

        let deletion = DeletionThread(port: server.port, authorization: ServerProcess.basic(ServerProcess.userName, ServerProcess.password))
        var latencies: [Double] = [], requests = 0, failures: [String] = []
        var firstIndex = 0, slice = 0
        started = Date()
        deletion.start(afterSeconds: 1)
        // Warm-up second first (not counted); then slices until the deletion has answered.
        repeat {
            let load = OwnTracksLoad(rate: rate, seconds: sliceSeconds, connections: 4, warmUpSeconds: slice == 0 ? 1 : 0)
            let result = await load.run(port: server.port, authorization: ServerProcess.basic(ServerProcess.userName, token),
                                        firstIndex: firstIndex)
            firstIndex += result.requests + result.warmUpRequests
            latencies += result.latency.sortedMilliseconds
            requests += result.requests
            failures += result.failures
            slice += 1
        } while !deletion.isDone
        let elapsed = Date().timeIntervalSince(started)
        let latency = LatencySummary(nanoseconds: latencies.map { UInt64($0 * 1e6) })
        guard let answer = deletion.answer else { throw RetentionBenchmarkFailure.noAnswer(deletion.failure ?? "?") }
        print("  deleted \(answer.deletedFixes) fixes in \(Figures.seconds(answer.seconds)) "
              + "(\(Figures.rate(Double(answer.deletedFixes) / answer.seconds)) fixes/s, in the server's batches of 100, "
              + "each followed by a pause of three times its time, and a checkpoint beside the writer)")
        print("  OwnTracks meanwhile: \(requests) posts at \(Int(rate))/s over 4 connections in \(Figures.seconds(elapsed)); "
              + "latency from due time: \(latency.line([50, 90, 99, 99.9])) (target p99 < 20 ms)")
        ServerIngestBenchmarks.report(failures)
    }

    /// The deletion's request, on a thread of its own (the connection blocks until the run ends).
    final class DeletionThread: @unchecked Sendable {
        struct Answer {
            var deletedFixes: Int
            var seconds: Double
        }

        private let lock = NSLock()
        private let port: Int
        private let authorization: (String, String)
        private var finished = false
        private(set) var answer: Answer?
        private(set) var failure: String?

        init(port: Int, authorization: (String, String)) {
            self.port = port
            self.authorization = authorization
        }

        var isDone: Bool { lock.lock(); defer { lock.unlock() }; return finished }

        func start(afterSeconds delay: Double) {
            let thread = Thread { [self] in
                Thread.sleep(forTimeInterval: delay)
                let started = Date()
                var answer: Answer?, failure: String?
                do {
                    let connection = try HTTPConnection(port: port)
                    connection.setTimeout(seconds: 3_600)
                    let response = try connection.send("POST", "/api/v1/account/retention/run", headers: [authorization])
                    let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
                    if response.status == 200, let deleted = object?["deletedFixes"] as? Int {
                        answer = Answer(deletedFixes: deleted, seconds: Date().timeIntervalSince(started))
                    } else {
                        failure = "HTTP \(response.status): \(response.text.prefix(200))"
                    }
                } catch {
                    failure = "\(error)"
                }
                lock.lock()
                self.answer = answer
                self.failure = failure
                finished = true
                lock.unlock()
            }
            thread.start()
        }
    }
}

enum RetentionBenchmarkFailure: Error, CustomStringConvertible {
    case noAnswer(String)

    var description: String {
        switch self {
        case .noAnswer(let reason): "the retention run did not answer: \(reason)"
        }
    }
}
