import Foundation
import Glibc

/// `hostile` (issue 25): the expensive requests of the adversarial test, all at once, against a
/// `travelog serve` on loopback while a phone posts OwnTracks fixes at 200/s (`OwnTracksLoad`, open
/// loop). Prints the posts' latency alone and under the attacks (target p99 < 20 ms), the posts that
/// failed, the server's memory (target peak < 500 MB), and what the server answered each attack and
/// how long it took. Whatever the server answers is measured; a refusal (4xx) is a fine answer.
///
/// The attacks, each repeated on its connections until the posts end (`HostileAttacks`):
/// (a) `GET /api/v1/snapshot?size=4096x4096&scale=4&layer=heat` from 3 connections; (b) forward
/// geocoding of 4,000 words; (c) a multipart upload of 800 parts of 1 MB; (d) a ZIP of 2 million
/// entries and a ZIP of 16 entries that all point at one deflated 128 MiB member; (e) an OwnTracks
/// body of 5,000 waypoints (from the posting device itself); (f) merging `[a] + [b] × 150,000`
/// visits; (g) `//api/v1/export?format=csv` and `/api//v1/export?format=csv` with a phone's
/// write-only token. (a)–(d) and (f) use the page's login; the server gets no tile server (a
/// closed loopback port), so snapshots draw on the offline base.
///
/// Bounded: posts unanswered `overrunSeconds` after the last was due are failures, attempts still
/// unanswered `graceSeconds` after the posts' schedule ends are given up, the server is
/// killed if its resident memory passes `killMegabytes` (a machine without swap would otherwise
/// be at risk), and a server that has not stopped 30 s after SIGTERM is killed.
/// `TRAVELOG_BENCH_SECONDS` (default 10) is the length of each measurement, `TRAVELOG_BENCH_RATE`
/// (default 200) the posts per second.
enum HostileBenchmark {
    static var environment: [String: String] { ProcessInfo.processInfo.environment }
    /// `TRAVELOG_BENCH_ZIP_ENTRIES`: entries of the many-entries archive (issue 25: 2 million).
    static var zipEntries: Int { environment["TRAVELOG_BENCH_ZIP_ENTRIES"].flatMap(Int.init) ?? 2_000_000 }
    /// `TRAVELOG_BENCH_HOSTILE_KILL_MB`: the resident memory at which the server is killed.
    static var killMegabytes: Int { environment["TRAVELOG_BENCH_HOSTILE_KILL_MB"].flatMap(Int.init) ?? 4096 }
    /// `TRAVELOG_BENCH_HOSTILE_ATTACKS`: the attacks to send, by letter (default `abcdefg`, all).
    static var selectedLetters: Set<Character> { Set(environment["TRAVELOG_BENCH_HOSTILE_ATTACKS"] ?? "abcdefg") }
    /// How long the posts may run behind their schedule before the rest count as failed.
    static let overrunSeconds = 30.0
    /// How long attempts under way when the posts end may still take.
    static let graceSeconds = 10.0

    static func run(_ context: BenchmarkContext) async throws {
        let (server, token) = try ServerProcess.prepare(context, name: "hostile")
        let writeToken = try server.addDevice("tracker", scope: "write")
        let generationStart = BlockingThreads.nowNanoseconds()
        let manyEntries = try HostileInputs.manyEntriesArchive(in: context.workDirectory, entries: zipEntries)
        let overlapping = try HostileInputs.overlappingArchive(in: context.workDirectory, entries: 16, memberBytes: 128 << 20)
        print("  archives ready in \(Figures.seconds(ServerIngestBenchmarks.seconds(since: generationStart))): "
              + "\(manyEntries.lastPathComponent) (\(Figures.megabytes(fileBytes(manyEntries)))), "
              + "\(overlapping.lastPathComponent) (\(Figures.megabytes(fileBytes(overlapping))))")
        try server.start(arguments: ["--tiles", "http://127.0.0.1:9/{z}/{x}/{y}.png"])
        defer { server.stop(killAfterSeconds: 30) }
        let login = try server.logIn()
        let visits = try seedVisits(server, login: login)
        let phone = ServerProcess.basic(ServerProcess.userName, token)
        // `TRAVELOG_BENCH_RATE` lowers the rate for a debug build, which cannot keep up with 200/s.
        let load = OwnTracksLoad(rate: ServerIngestBenchmarks.owntracksRate, seconds: HardeningBenchmarks.seconds, connections: 4,
                                 overrunSeconds: overrunSeconds)

        let alone = await load.run(port: server.port, authorization: phone)
        print("  alone: \(alone.latency.count) posts at \(Int(load.rate))/s, latency \(alone.latency.line([50, 99]))")
        let idle = server.memory()

        let abandonAt = BlockingThreads.nowNanoseconds() + UInt64((load.warmUpSeconds + load.seconds + 2 + graceSeconds) * 1e9)
        let attacks = HostileAttacks(port: server.port, attacks: attacks(login: login, phone: phone, writeToken: writeToken,
                                                                         visits: visits, manyEntries: manyEntries,
                                                                         overlapping: overlapping, until: abandonAt),
                                     abandonAtNanoseconds: abandonAt)
        guard let pid = server.processIdentifier else { return print("  the server is not running") }
        let memory = MemoryWatch(processIdentifier: pid, killBytes: killMegabytes << 20)
        let watching = Task.detached { await BlockingThreads.run(1) { _ in memory.run() } }
        let attacking = Task.detached { await attacks.run() }
        try await Task.sleep(nanoseconds: 1_000_000_000)
        let attacked = await load.run(port: server.port, authorization: phone, firstIndex: 1_000_000)
        attacks.stop()
        await attacking.value
        let after = server.memory()
        memory.stop()
        await watching.value
        let ending = server.ending
        let stopped = server.stop(killAfterSeconds: 30)

        print("  under attack: \(attacked.latency.count) posts at \(Int(load.rate))/s, latency \(attacked.latency.line([50, 99])) "
              + "(target p99 < 20 ms)")
        print("  posts failed: \(alone.failures.count) of \(alone.requests) alone, \(attacked.failures.count) of "
              + "\(attacked.requests) under attack" + kinds(of: attacked.failures))
        let peak = memory.figures
        print("  server memory: \(Figures.megabytes(Double(idle.residentBytes))) before the attacks, peak "
              + "\(Figures.megabytes(Double(max(peak.peakBytes, after.peakBytes)))) (VmHWM; target < 500 MB), "
              + "\(Figures.megabytes(Double(after.residentBytes))) when the attacks had ended"
              + (peak.killed ? "; KILLED when its memory passed \(killMegabytes) MB" : ""))
        for line in attacks.report() { print("  " + line) }
        if let ending, !peak.killed { print("  the server ENDED during the attacks: \(ending); its log: \(server.logPath)") }
        print("  the server stopped \(Figures.seconds(stopped.seconds)) after SIGTERM" + (stopped.killed ? " (killed after 30 s)" : ""))
    }

    /// The attacks, (a) to (g) of the type's description.
    static func attacks(login: [(String, String)], phone: (String, String), writeToken: String, visits: (Int64, Int64),
                        manyEntries: URL, overlapping: URL, until deadline: UInt64) -> [HostileAttacks.Attack] {
        let query = HostileInputs.forwardGeocodeQuery(words: 4_000)
        let multipart = HostileInputs.MultipartUpload(parts: 800, partBytes: 1_000_000)
        let waypoints = HostileInputs.owntracksWaypoints(count: 5_000)
        let merge = HostileInputs.mergeBody(first: visits.0, repeated: visits.1, times: 150_000)
        let json = [("Content-Type", "application/json")]
        let zip = login + [("Content-Type", "application/zip")]
        let archive = { (name: String, url: URL) in
            HostileAttacks.Attack(name: name, connections: 1) { connection in
                try HostileInputs.sendFile(url, on: connection, "POST", "/api/v1/imports?filename=\(url.lastPathComponent)",
                                           headers: zip, until: deadline)
            }
        }
        let export = { (path: String) in
            HostileAttacks.Attack(name: "(g) GET \(path) with a write token", connections: 1) { connection in
                try connection.send("GET", path, headers: [ServerProcess.bearer(writeToken)])
            }
        }
        let all: [(letter: Character, attack: HostileAttacks.Attack)] = [
            ("a", HostileAttacks.Attack(name: "(a) snapshot 4096x4096 scale 4 heat", connections: 3) { connection in
                try connection.send("GET", "/api/v1/snapshot?size=4096x4096&scale=4&layer=heat", headers: login)
            }),
            ("b", HostileAttacks.Attack(name: "(b) forward geocoding of 4,000 words (\(query.utf8.count / 1000) KB)", connections: 1) { connection in
                try connection.send("GET", "/api/v1/geocode/forward?q=" + query, headers: login)
            }),
            ("c", HostileAttacks.Attack(name: "(c) multipart upload of 800 parts of 1 MB", connections: 1) { connection in
                try connection.send("POST", "/api/v1/imports", headers: login + [("Content-Type", multipart.contentType)],
                                    bodyLength: multipart.length) { write in try multipart.write(until: deadline, write) }
            }),
            ("d", archive("(d) ZIP of \(zipEntries) entries", manyEntries)),
            ("d", archive("(d) ZIP of 16 entries on one 128 MiB member", overlapping)),
            ("e", HostileAttacks.Attack(name: "(e) OwnTracks body of 5,000 waypoints", connections: 1) { connection in
                try connection.send("POST", "/api/v1/owntracks", headers: [phone] + json, body: waypoints)
            }),
            ("f", HostileAttacks.Attack(name: "(f) merge of [\(visits.0)] + [\(visits.1)] x 150,000", connections: 1) { connection in
                try connection.send("POST", "/api/v1/visits/merge", headers: login + json, body: merge)
            }),
            ("g", export("//api/v1/export?format=csv")),
            ("g", export("/api//v1/export?format=csv")),
        ]
        return all.filter { selectedLetters.contains($0.letter) }.map(\.attack)
    }

    /// Imports a day of stays for the posting device and waits (up to 30 s) for its visits.
    /// - Returns: two ids of visits that have ended, to merge; 4 and 6 (the issue's) when fewer came.
    static func seedVisits(_ server: ServerProcess, login: [(String, String)]) throws -> (Int64, Int64) {
        let connection = try HTTPConnection(port: server.port)
        let imported = try connection.send("POST", "/api/v1/imports?device=\(ServerProcess.deviceName)&filename=stays.csv",
                                           headers: login + [("Content-Type", "text/csv")], body: HostileInputs.staysCSV(stays: 8))
        let deadline = Date().addingTimeInterval(30)
        var ended: [Int64] = []
        while Date() < deadline {
            let answer = try connection.send("GET", "/api/v1/visits?from=2023-06-01&to=2023-06-01", headers: login)
            let entries = (try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [[String: Any]] ?? []
            ended = entries.filter { $0["departure"] is String }.compactMap { ($0["id"] as? NSNumber)?.int64Value }
            if ended.count >= 2 { break }
            usleep(500_000)
        }
        print("  seeded: import of a day of 8 stays answered \(imported.status); \(ended.count) visits that ended")
        return ended.count >= 2 ? (ended[0], ended[1]) : (4, 6)
    }

    /// ` (12: recv timed out, 3: …)`: the failures by kind, the most frequent three.
    static func kinds(of failures: [String]) -> String {
        let counts = Dictionary(grouping: failures) { String($0.prefix(120)) }.mapValues(\.count).sorted { $0.value > $1.value }
        return counts.isEmpty ? "" : " (" + counts.prefix(3).map { "\($0.value): \($0.key)" }.joined(separator: "; ") + ")"
    }

    static func fileBytes(_ url: URL) -> Double {
        ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? NSNumber)?.doubleValue ?? 0
    }
}
