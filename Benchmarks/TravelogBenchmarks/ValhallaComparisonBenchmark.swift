import Foundation
import TravelogCore
import TravelogRouting

/// `directions-valhalla`: directions side by side with Valhalla (PyPI's pyvalhalla wheel, unpacked
/// by `make valhalla`) on the Helsinki extract, less the ways it cuts at its edge
/// (`CompleteWaysExtract`). Each engine builds its data from the same `.pbf` (timed), then answers
/// the same 1,000 random pairs per mode through its HTTP API, one request at a time over one
/// kept-alive connection: Travelog's `GET /api/v1/directions` and Valhalla's `POST /route` (`auto`,
/// `pedestrian` with `shortest`, `bicycle`). Prints the latency percentiles of each, Travelog's p50
/// as a fraction of Valhalla's (the issue asks ≤ 1/5), the walking distances' relative differences
/// at the median and the 95th percentile (asked: ≤ 2 % and ≤ 10 %), and the pairs Valhalla routes
/// that Travelog refuses (asked: none), with the first few named. The distances are compared over
/// every pair between road nodes, then over those where Valhalla starts and ends at the nodes asked
/// (within the 5 m it may move an end to a node of its own; it snaps a node of a way it leaves out,
/// such as `highway=trail`, to another road, sometimes a tunnel beneath), then over those of these
/// whose routes in neither engine run along or across a highway mapped as an area (`AreaSegments`:
/// Travelog walks round and across squares, Valhalla does not have them): the same points on the
/// same network.
enum ValhallaComparisonBenchmark {
    enum Engine { case travelog, valhalla }

    static let pairsPerMode = 1_000
    static var valhallaFolder: String { OSMBenchmarks.helsinki.replacingOccurrences(of: "Helsinki.osm.pbf", with: "valhalla") }

    static func run(_ context: BenchmarkContext) throws {
        let original = OSMBenchmarks.helsinki
        let bin = valhallaFolder + "/valhalla/bin"
        guard FileManager.default.fileExists(atPath: original) else {
            print("\(original) is absent: run `make osm-sample` (make bench does) to compare with Valhalla")
            return
        }
        guard FileManager.default.isExecutableFile(atPath: bin + "/valhalla_service") else {
            print("\(bin)/valhalla_service is absent: run `make valhalla` (PyPI's pyvalhalla wheel) to compare with Valhalla")
            return
        }
        let work = context.workDirectory.appendingPathComponent("valhalla").path
        try? FileManager.default.removeItem(atPath: work)
        try FileManager.default.createDirectory(atPath: work + "/tiles", withIntermediateDirectories: true)
        let (extract, waysCut) = try CompleteWaysExtract.write(from: original, into: work)
        print("the extract without its \(waysCut) ways cut at its edge (Valhalla leaves such a way out whole, Travelog keeps "
              + "the part inside), the same file for both engines")

        // Valhalla's configuration from its own generator, on a port of our choosing, then its tiles.
        let port = 18_000 + Int(getpid() % 1_000)
        let config = work + "/valhalla.json"
        let generated = try CommandOutput.of(command: "python3", [valhallaFolder + "/valhalla/valhalla_build_config.py",
                                                               "--mjolnir-tile-dir", work + "/tiles",
                                                               "--mjolnir-tile-extract", work + "/tiles.tar",
                                                               "--mjolnir-timezone", work + "/tz.sqlite",
                                                               "--mjolnir-admin", work + "/admins.sqlite",
                                                               "--service-limits-pedestrian-max-distance", "1000000",
                                                               "--httpd-service-listen", "tcp://127.0.0.1:\(port)"])
        try generated.write(toFile: config, atomically: true, encoding: .utf8)
        let tilesStarted = Date()
        _ = try CommandOutput.of(URL(fileURLWithPath: bin + "/valhalla_build_tiles"), ["-c", config, extract])
        let valhallaBuild = Date().timeIntervalSince(tilesStarted)

        // Travelog's places and road graph, as a person adds them.
        let (server, token) = try ServerProcess.prepare(context, name: "valhalla")
        let osmFolder = work + "/osm"
        let addStarted = Date()
        _ = try server.command(["osm", "add", "--osm-dir", osmFolder, "--no-describe", extract])
        let travelogBuild = Date().timeIntervalSince(addStarted)
        let graph = try RoadGraph(contentsOfFile: RoadNetwork.filePath(folder: osmFolder, name: "Helsinki"))
        print(String(format: "data from the extract: Valhalla's tiles %.2f s (valhalla_build_tiles); Travelog's osm add %.2f s "
                     + "(places, road graph and its three hierarchies)", valhallaBuild, travelogBuild))

        let valhalla = Process()
        valhalla.executableURL = URL(fileURLWithPath: bin + "/valhalla_service")
        valhalla.arguments = [config, "1"]
        valhalla.standardOutput = FileHandle.nullDevice
        valhalla.standardError = FileHandle.nullDevice
        try valhalla.run()
        defer { valhalla.terminate(); valhalla.waitUntilExit() }
        try server.start(arguments: ["--osm-dir", osmFolder])
        defer { server.stop() }
        var valhallaConnection: HTTPConnection?
        for _ in 0..<200 where valhallaConnection == nil {
            valhallaConnection = try? HTTPConnection(port: port)
            if valhallaConnection == nil { usleep(50_000) }
        }
        guard let valhallaConnection else { print("valhalla_service did not listen on \(port) within 10 s"); return }
        let travelogConnection = try HTTPConnection(port: server.port)

        // Half the pairs join two points of the road network (its nodes: where a person asks
        // directions between addresses, so that both engines snap to the same road and the
        // distances compare), half two points anywhere in the box (the sea included: refusals).
        var random = SplitMix64(seed: 0x5A11A)
        func roadPoint() -> Coordinate { graph.coordinate(ofNode: Int32(random.next() % UInt64(graph.nodeCount))) }
        func boxPoint() -> Coordinate {
            Coordinate(validLatitude: graph.minimumLatitude + random.nextUnit() * (graph.maximumLatitude - graph.minimumLatitude),
                       longitude: graph.minimumLongitude + random.nextUnit() * (graph.maximumLongitude - graph.minimumLongitude))!
        }
        let areas = try AreaSegments(extract: extract)
        let pairs = (0..<pairsPerMode).map { index in index.isMultiple(of: 2) ? (roadPoint(), roadPoint(), true) : (boxPoint(), boxPoint(), false) }
        print("\(pairsPerMode) random pairs per mode (half between two road nodes, half anywhere in the extract's bounding box), "
              + "one kept-alive connection to each engine:")
        // TRAVELOG_BENCH_VALHALLA_PAIRS=FILE writes each pair of road nodes both engines routed as a JSON
        // line (both distances and lines, whether Valhalla kept the ends, whether a route runs along an area).
        let pairsFile = ProcessInfo.processInfo.environment["TRAVELOG_BENCH_VALHALLA_PAIRS"].flatMap { path -> FileHandle? in
            FileManager.default.createFile(atPath: path, contents: nil)
            return FileHandle(forWritingAtPath: path)
        }
        defer { try? pairsFile?.close() }
        for (mode, costing) in [(DirectionsMode.driving, "auto"), (.walking, "pedestrian"), (.cycling, "bicycle")] {
            var travelogTimes: [UInt64] = [], valhallaTimes: [UInt64] = []
            var differences: [Double] = [], differencesOnSameNetwork: [Double] = [], differencesFromSameEnds: [Double] = []
            var bothRouted = 0, onlyValhalla: [String] = [], onlyTravelog = 0
            // Each engine answers the mode's pairs in a block of its own, as a server that does
            // nothing else would; then the pairs again, alternating request by request, where each
            // engine finds the caches as the other left them (the figure before 2026-12-01).
            func ask(_ engine: Engine, _ from: Coordinate, _ to: Coordinate) throws -> (nanoseconds: UInt64, distance: Double?, body: [UInt8]) {
                let fromText = String(format: "%.7f,%.7f", from.latitude, from.longitude), toText = String(format: "%.7f,%.7f", to.latitude, to.longitude)
                let start = DispatchTime.now().uptimeNanoseconds
                switch engine {
                case .travelog:
                    let ours = try travelogConnection.send("GET", "/api/v1/directions?from=\(fromText)&to=\(toText)&mode=\(mode.rawValue)",
                                                           headers: [ServerProcess.bearer(token)])
                    let elapsed = DispatchTime.now().uptimeNanoseconds - start
                    let distance = ours.status == 200 ? (try? JSONSerialization.jsonObject(with: Data(ours.body)) as? [String: Any])?["distance"] as? Double : nil
                    return (elapsed, distance, ours.body)
                case .valhalla:
                    let options = mode == .walking ? #","costing_options":{"pedestrian":{"shortest":true}}"# : ""
                    let body = #"{"locations":[{"lat":\#(fromText.split(separator: ",")[0]),"lon":\#(fromText.split(separator: ",")[1])},{"lat":\#(toText.split(separator: ",")[0]),"lon":\#(toText.split(separator: ",")[1])}],"costing":"\#(costing)"\#(options),"units":"kilometers"}"#
                    let theirs = try valhallaConnection.send("POST", "/route", headers: [("Content-Type", "application/json")], body: Array(body.utf8))
                    let elapsed = DispatchTime.now().uptimeNanoseconds - start
                    let kilometres = theirs.status == 200
                        ? (((try? JSONSerialization.jsonObject(with: Data(theirs.body)) as? [String: Any])?["trip"] as? [String: Any])?["summary"] as? [String: Any])?["length"] as? Double
                        : nil
                    return (elapsed, kilometres.map { $0 * 1_000 }, theirs.body)
                }
            }
            var ourAnswers: [(nanoseconds: UInt64, distance: Double?, body: [UInt8])] = []
            for (from, to, _) in pairs { ourAnswers.append(try ask(.travelog, from, to)) }
            var theirAnswers: [(nanoseconds: UInt64, distance: Double?, body: [UInt8])] = []
            for (from, to, _) in pairs { theirAnswers.append(try ask(.valhalla, from, to)) }
            travelogTimes = ourAnswers.map(\.nanoseconds)
            valhallaTimes = theirAnswers.map(\.nanoseconds)
            var alternatingOurs: [UInt64] = [], alternatingTheirs: [UInt64] = []
            for (from, to, _) in pairs {
                alternatingOurs.append(try ask(.travelog, from, to).nanoseconds)
                alternatingTheirs.append(try ask(.valhalla, from, to).nanoseconds)
            }
            for ((ourAnswer, theirAnswer), (from, to, onRoads)) in zip(zip(ourAnswers, theirAnswers), pairs) {
                switch (ourAnswer.distance, theirAnswer.distance) {
                case (let ours?, let theirMeters?):
                    bothRouted += 1
                    if onRoads, theirMeters > 50 {
                        let difference = abs(ours - theirMeters) / theirMeters
                        differences.append(difference)
                        let theirLine = AreaSegments.valhallaLine(theirAnswer.body)
                        // Valhalla moves an end to a node of its graph within 5 m (loki's node_snap_tolerance).
                        let sameEnds = theirLine.first.map { Coordinate(validLatitude: $0.latitude, longitude: $0.longitude)?.distanceMeters(to: from) ?? .infinity } ?? .infinity <= 5
                            && theirLine.last.map { Coordinate(validLatitude: $0.latitude, longitude: $0.longitude)?.distanceMeters(to: to) ?? .infinity } ?? .infinity <= 5
                        let ourLine = AreaSegments.travelogLine(ourAnswer.body)
                        let alongAnArea = areas.touches(ourLine) || areas.touches(theirLine)
                        if sameEnds && !alongAnArea { differencesOnSameNetwork.append(difference) }
                        if sameEnds { differencesFromSameEnds.append(difference) }
                        if let pairsFile {
                            let record: [String: Any] = [
                                "mode": mode.rawValue, "from": [from.latitude, from.longitude], "to": [to.latitude, to.longitude],
                                "travelog": ours, "valhalla": theirMeters, "sameEnds": sameEnds, "alongAnArea": alongAnArea,
                                "travelogLine": ourLine.map { [$0.latitude, $0.longitude] },
                                "valhallaLine": theirLine.map { [$0.latitude, $0.longitude] },
                            ]
                            if let line = try? JSONSerialization.data(withJSONObject: record) { pairsFile.write(line + Data("\n".utf8)) }
                        }
                    }
                case (nil, _?):
                    onlyValhalla.append(String(format: "%.7f,%.7f → %.7f,%.7f: ", from.latitude, from.longitude, to.latitude, to.longitude)
                                        + String(decoding: ourAnswer.body.prefix(160), as: UTF8.self))
                case (_?, nil): onlyTravelog += 1
                case (nil, nil): break
                }
            }
            let alternating = LatencySummary(nanoseconds: alternatingOurs).percentile(0.5) / LatencySummary(nanoseconds: alternatingTheirs).percentile(0.5)
            let ourSummary = LatencySummary(nanoseconds: travelogTimes), theirSummary = LatencySummary(nanoseconds: valhallaTimes)
            print("  \(mode.rawValue) (Valhalla: \(costing)\(mode == .walking ? ", shortest" : "")):")
            print("    Travelog " + ourSummary.line([50, 95, 99]))
            print("    Valhalla " + theirSummary.line([50, 95, 99]))
            print(String(format: "    Travelog's p50 is %.2f of Valhalla's (asked: at most 0.20); with the requests alternating between the engines %.2f",
                         ourSummary.percentile(0.5) / theirSummary.percentile(0.5), alternating))
            func share(_ values: [Double], _ fraction: Double) -> Double {
                let sorted = values.sorted()
                return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int((fraction * Double(sorted.count)).rounded(.up)) - 1)] * 100
            }
            print(String(format: "    both routed %d; between road nodes (%d over 50 m) the distance differs by %.2f %% at the median, %.2f %% at p95%@",
                         bothRouted, differences.count, share(differences, 0.5), share(differences, 0.95),
                         mode == .walking ? " (asked: ≤ 2 % and ≤ 10 %)" : ""))
            print(String(format: "    of those, the %d that Valhalla starts and ends at the nodes asked (within its snap tolerance, 5 m): %.2f %% at the median, %.2f %% at p95",
                         differencesFromSameEnds.count, share(differencesFromSameEnds, 0.5), share(differencesFromSameEnds, 0.95)))
            print(String(format: "    of those, the %d that Valhalla starts and ends at the nodes asked and whose routes in neither "
                         + "engine run along a highway mapped as an area (area=yes, which Valhalla leaves out): %.2f %% at the median, %.2f %% at p95",
                         differencesOnSameNetwork.count, share(differencesOnSameNetwork, 0.5), share(differencesOnSameNetwork, 0.95)))
            print("    routed by Valhalla and refused by Travelog: \(onlyValhalla.count) (asked: none); routed only by Travelog: \(onlyTravelog)")
            for example in onlyValhalla.prefix(3) { print("      \(example)") }
        }
    }
}
