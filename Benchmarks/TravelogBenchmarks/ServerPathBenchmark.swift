import Foundation

/// `server-path`: 1,000,000 points (the generated GPX, one fix every 5 s over 58 days) imported
/// with `travelog import`, then `GET /api/v1/path` for the whole range at zoom 12 and 16 from a
/// freshly started server (its first request, "cold", and a repeat, "warm"), and for one day.
/// Prints milliseconds, response bytes and pointCount/rawPointCount. Target: the first drawn path
/// in under 2 s (this is the server's share; the web benchmark measures the browser's).
enum ServerPathBenchmark {
    static var pointCount: Int {
        ProcessInfo.processInfo.environment["TRAVELOG_BENCH_PATH_POINTS"].flatMap(Int.init) ?? 1_000_000
    }

    static func run(_ context: BenchmarkContext) async throws {
        let gpx = try BenchmarkInputs.gpx(in: context.workDirectory, points: pointCount)
        let (server, token) = try ServerProcess.prepare(context, name: "server-path")
        let importStart = BlockingThreads.nowNanoseconds()
        let summary = try server.command(["import", "--user", ServerProcess.userName, "--device", ServerProcess.deviceName,
                                          gpx.path])
        print("  imported \(pointCount) points with travelog import in "
              + "\(Figures.seconds(ServerIngestBenchmarks.seconds(since: importStart))) (not counted): "
              + (summary.split(separator: "\n").first.map(String.init) ?? ""))

        // SyntheticTrack starts at 2020-09-13T12:26:40Z, one fix every 5 s.
        let requests: [(label: String, query: String)] = [
            ("whole range, zoom 12", "zoom=12"),
            ("whole range, zoom 16", "zoom=16"),
            ("one day, zoom 16", "zoom=16&from=2020-09-20&to=2020-09-20"),
        ]
        for request in requests {
            server.stop()
            try server.start()
            let connection = try HTTPConnection(port: server.port)
            for pass in ["cold", "warm"] {
                try measure(connection, "/api/v1/path?" + request.query, token: token,
                            label: "\(request.label), \(pass)")
            }
        }
        // The same request with the password instead of the token: the bcrypt check each time.
        let connection = try HTTPConnection(port: server.port)
        let start = BlockingThreads.nowNanoseconds()
        let response = try connection.send("GET", "/api/v1/path?zoom=16&from=2020-09-20&to=2020-09-20", headers: [
            ServerProcess.basic(ServerProcess.userName, ServerProcess.password),
        ])
        print("  one day, zoom 16, Basic user:password instead of the token: HTTP \(response.status) in "
              + LatencySummary.milliseconds(ServerIngestBenchmarks.seconds(since: start) * 1000))
        server.stop()
    }

    static func measure(_ connection: HTTPConnection, _ path: String, token: String, label: String) throws {
        let start = BlockingThreads.nowNanoseconds()
        let response = try connection.send("GET", path, headers: [ServerProcess.bearer(token)])
        let milliseconds = ServerIngestBenchmarks.seconds(since: start) * 1000
        guard response.status == 200,
              let document = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
              let properties = document["properties"] as? [String: Any] else {
            print("  \(label): FAILED, HTTP \(response.status): \(response.text.prefix(200))")
            return
        }
        let drawn = properties["pointCount"] as? Int ?? -1, raw = properties["rawPointCount"] as? Int ?? -1
        print("  \(label): \(LatencySummary.milliseconds(milliseconds)), \(Figures.megabytes(Double(response.body.count))), "
              + "pointCount \(drawn) of rawPointCount \(raw)")
    }
}
