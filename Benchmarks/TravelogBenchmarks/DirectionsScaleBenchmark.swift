import Foundation
import TravelogCore
import TravelogRouting

/// `directions-scale`: a country's road network on this machine. A generated extract of
/// about `$TRAVELOG_BENCH_ROAD_NODES` nodes (default 5,000,000; ``RoadNetworkExtract``: neighbourhoods
/// of residential streets, primaries, motorways) is added with `travelog osm add` in a process of its own, its wall time and
/// peak memory measured (targets: < 10 min, < 4 GB); then 200 routes in each mode between random
/// points in opposite corners of the network (across it), through
/// `RoadNetwork.route` (snapping, search, steps), each the fastest of ``rounds``: latency percentiles (target < 5 ms).
enum DirectionsScaleBenchmark {
    static func run(_ context: BenchmarkContext) async throws {
        let nodes = Int(ProcessInfo.processInfo.environment["TRAVELOG_BENCH_ROAD_NODES"] ?? "") ?? 5_000_000
        let network = RoadNetworkExtract(nodes: nodes)
        let extract = context.workDirectory.appendingPathComponent("roads-\(network.squares)x\(network.squares).osm.pbf").path
        if !FileManager.default.fileExists(atPath: extract) {
            let start = Date()
            let count = try network.write(to: extract)
            print(String(format: "generated %@: %d nodes, %.0f × %.0f km, in %.1f s", (extract as NSString).lastPathComponent, count,
                         Double(network.width) * 0.025, Double(network.width) * 0.025, Date().timeIntervalSince(start)))
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: extract)[.size] as? Int) ?? 0
        let folder = context.workDirectory.appendingPathComponent("osm-scale").path
        let graphPath = RoadNetwork.filePath(folder: folder, name: (extract as NSString).lastPathComponent.replacingOccurrences(of: ".osm.pbf", with: ""))
        // TRAVELOG_BENCH_REUSE_ROAD_GRAPH=1: the routes only, over the graph the last run built (when its file is there).
        if ProcessInfo.processInfo.environment["TRAVELOG_BENCH_REUSE_ROAD_GRAPH"] == "1", FileManager.default.fileExists(atPath: graphPath) {
            print("travelog osm add: skipped, reusing \(graphPath) (TRAVELOG_BENCH_REUSE_ROAD_GRAPH=1)")
            try routes(graphPath: graphPath)
            return
        }
        try? FileManager.default.removeItem(atPath: folder)

        let process = Process()
        process.executableURL = context.travelogExecutable
        process.arguments = ["osm", "add", "--osm-dir", folder, extract]
        let output = Pipe()
        process.standardOutput = output
        let start = Date()
        try process.run()
        let memory = MemoryWatch(processIdentifier: process.processIdentifier, killBytes: 16 << 30)
        let watching = Task.detached { await BlockingThreads.run(1) { _ in memory.run() } }
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(start)
        memory.stop()
        await watching.value
        let graphLine = printed.split(separator: "\n").first { $0.hasPrefix("Road graph") }.map(String.init) ?? "(no road graph line)"
        print(String(format: "travelog osm add (%.0f MB): %.1f s in all, peak resident %.0f MB (targets < 600 s, < 4096 MB)%@",
                     Double(bytes) / 1e6, seconds, Double(memory.figures.peakBytes) / 1_048_576,
                     process.terminationStatus == 0 ? "" : "; FAILED with status \(process.terminationStatus)"))
        print("  " + graphLine)
        guard process.terminationStatus == 0 else { return }
        try routes(graphPath: graphPath)
    }

    /// The rounds each route is timed in.
    static let rounds = 5

    /// 200 routes across the network in each mode, timed.
    static func routes(graphPath: String) throws {
        let opening = DispatchTime.now().uptimeNanoseconds
        let graph = try RoadGraph(contentsOfFile: graphPath)
        print(String(format: "  opened (mapped, checked, its snapping grid built) in %.2f s",
                     Double(DispatchTime.now().uptimeNanoseconds - opening) / 1e9))
        let roads = RoadNetwork(graphs: [graph])
        let latitudeSpan = graph.maximumLatitude - graph.minimumLatitude, longitudeSpan = graph.maximumLongitude - graph.minimumLongitude
        for mode in DirectionsMode.allCases {
            var random = SplitMix64(seed: 5)
            var kilometres: [Double] = []
            var failed = 0
            var pairs: [(Coordinate, Coordinate)] = []
            for index in 0..<200 {
                // One end in the south-west tenth of the square, the other in the north-east tenth (and the other way round).
                func point(_ far: Bool) -> Coordinate {
                    let u = random.nextUnit() * 0.1, v = random.nextUnit() * 0.1
                    return Coordinate(validLatitude: graph.minimumLatitude + (far ? 0.9 + u : u) * latitudeSpan,
                                      longitude: graph.minimumLongitude + (far ? 0.9 + v : v) * longitudeSpan)!
                }
                pairs.append((point(index % 2 == 0), point(index % 2 == 1)))
            }
            // Each route is timed in `rounds` rounds and its fastest kept: this machine's neighbours move single runs by ±25 %.
            var nanoseconds = [UInt64](repeating: .max, count: pairs.count)
            for round in 0..<rounds {
                for (index, (from, to)) in pairs.enumerated() {
                    let begin = DispatchTime.now().uptimeNanoseconds
                    do {
                        let route = try roads.route(from: from, to: to, mode: mode)
                        if round == 0 { kilometres.append(route.distanceMeters / 1000) }
                    } catch { if round == 0 { failed += 1 } }
                    nanoseconds[index] = min(nanoseconds[index], DispatchTime.now().uptimeNanoseconds - begin)
                }
            }
            let median = kilometres.sorted().dropFirst(kilometres.count / 2).first ?? 0
            print(String(format: "  %@: 200 routes across (median %.0f km, each the fastest of %d)  %@  no route: %d", mode.rawValue, median, rounds,
                         LatencySummary(nanoseconds: nanoseconds).line([50, 95, 99]), failed))
        }
    }
}
