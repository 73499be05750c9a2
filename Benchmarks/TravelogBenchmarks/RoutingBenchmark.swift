import Foundation
import TravelogCore
import TravelogRouting

/// `routing`: the road graph of the Helsinki extract (`make osm-sample`) built with its three
/// contraction hierarchies (best of three), then 1,000 routes between random points of its
/// bounding box in each mode through `RoadNetwork.route` (snapping, search, steps): latency
/// percentiles, and how many pairs had no route.
enum RoutingBenchmark {
    static func run(_ context: BenchmarkContext) throws {
        let extract = OSMBenchmarks.helsinki
        guard FileManager.default.fileExists(atPath: extract) else {
            print("\(extract) is absent: run `make osm-sample` (make bench does) to measure routing")
            return
        }
        let output = context.workDirectory.appendingPathComponent("Helsinki.tlroute").path
        var graph: RoadGraph?
        let seconds = try GeodesicBenchmark.bestTime { graph = try RoadGraph.build(extractPath: extract, outputPath: output) }
        guard let graph else { return }
        let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        print(String(format: "Helsinki road graph: %d nodes, %d segments, 3 hierarchies built in %.2f s (best of 3); file %.1f MB",
                     graph.nodeCount, graph.segmentCount, seconds, Double(size) / 1e6))
        let network = RoadNetwork(graphs: [graph])
        for mode in DirectionsMode.allCases {
            var random = SplitMix64(seed: 29)
            var nanoseconds: [UInt64] = []
            var failed = 0
            for _ in 0..<1_000 {
                func point() -> Coordinate {
                    Coordinate(validLatitude: graph.minimumLatitude + random.nextUnit() * (graph.maximumLatitude - graph.minimumLatitude),
                               longitude: graph.minimumLongitude + random.nextUnit() * (graph.maximumLongitude - graph.minimumLongitude))!
                }
                let from = point(), to = point()
                let start = DispatchTime.now().uptimeNanoseconds
                do { _ = try network.route(from: from, to: to, mode: mode) } catch { failed += 1 }
                nanoseconds.append(DispatchTime.now().uptimeNanoseconds - start)
            }
            print("\(mode.rawValue): 1000 routes  \(LatencySummary(nanoseconds: nanoseconds).line([50, 95, 99]))  no route: \(failed)")
        }
    }
}
