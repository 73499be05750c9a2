import Foundation
import TravelogCore
import TravelogRouting

/// `map-matching`: 200 noisy traces on the Helsinki extract (`make osm-sample`), each a driving
/// route between random points of its box (1.5 to 12 km) sampled every 5 s at the route's mean
/// speed with 8 m of Gaussian noise in each axis (seeded), matched by `RoadNetwork.match`: the
/// share whose matched length is within 2 % of the route's, the median error, and fixes matched
/// per second (the first match, which builds the mode's turn graph, is timed apart; the fastest of 15 rounds).
/// With `TRAVELOG_BENCH_MATCH_MISSES=FOLDER`, each route matched off by more than 2 % is written there as JSON
/// (`truth`, `fixes`, `pieces`: [longitude, latitude] lines) to look at.
enum MapMatchingBenchmark {
    static let metersPerDegree = WGS84.semiMajorAxisMeters * .pi / 180

    static func run(_ context: BenchmarkContext) throws {
        let extract = OSMBenchmarks.helsinki
        guard FileManager.default.fileExists(atPath: extract) else {
            print("\(extract) is absent: run `make osm-sample` (make bench does) to measure map matching")
            return
        }
        let graph = try RoadGraph.build(extractPath: extract, outputPath: context.workDirectory.appendingPathComponent("Helsinki.tlroute").path)
        let network = RoadNetwork(graphs: [graph])
        var random = SplitMix64(seed: 2009)
        var traces: [(meters: Double, fixes: [Coordinate], line: [Coordinate])] = []
        var attempts = 0
        while traces.count < 200 && attempts < 10_000 {
            attempts += 1
            func point() -> Coordinate {
                Coordinate(validLatitude: graph.minimumLatitude + random.nextUnit() * (graph.maximumLatitude - graph.minimumLatitude),
                           longitude: graph.minimumLongitude + random.nextUnit() * (graph.maximumLongitude - graph.minimumLongitude))!
            }
            guard let route = try? network.route(from: point(), to: point(), mode: .driving),
                  (1_500...12_000).contains(route.distanceMeters), route.expectedTravelTimeSeconds > 0 else { continue }
            let step = 5 * route.distanceMeters / route.expectedTravelTimeSeconds
            traces.append((route.distanceMeters, along(route.polyline, stepMeters: step).map { noisy($0, meters: 8, random: &random) }, route.polyline))
        }
        let warmUp = DispatchTime.now().uptimeNanoseconds
        _ = try? network.match(Array(traces.first?.fixes.prefix(2) ?? []), mode: .driving)
        print(String(format: "driving turn graph for matching built in %.2f s", Double(DispatchTime.now().uptimeNanoseconds - warmUp) / 1e9))
        var errors: [Double] = []
        let fixes = traces.reduce(0) { $0 + $1.fixes.count }
        // Fifteen rounds over the same traces (one takes a fraction of a second, too short to time alone, and
        // five varied by half from run to run here): the fastest round's rate, the errors of the first.
        var rounds: [Double] = []
        for round in 0..<15 {
            let start = DispatchTime.now().uptimeNanoseconds
            for trace in traces {
                let match = try? network.match(trace.fixes, mode: .driving)
                guard round == 0 else { continue }
                errors.append(match.map { abs($0.distanceMeters - trace.meters) / trace.meters } ?? .infinity)
                if let folder = ProcessInfo.processInfo.environment["TRAVELOG_BENCH_MATCH_MISSES"], let match, abs(match.distanceMeters - trace.meters) / trace.meters > 0.02 {
                    print(String(format: "miss: true %.0f m, matched %.0f m, %d pieces, %d of %d fixes dropped", trace.meters, match.distanceMeters,
                                 match.pieces.count, match.droppedFixCount, trace.fixes.count))
                    func json(_ line: [Coordinate]) -> String { "[" + line.map { String(format: "[%.7f,%.7f]", $0.longitude, $0.latitude) }.joined(separator: ",") + "]" }
                    let text = "{\"truth\":\(json(trace.line)),\"fixes\":\(json(trace.fixes)),\"pieces\":[\(match.pieces.map(json).joined(separator: ","))]}"
                    try? text.write(toFile: folder + "/miss-\(errors.count).json", atomically: true, encoding: .utf8)
                }
            }
            rounds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        let seconds = rounds.min() ?? 0
        errors.sort()
        let within = errors.count(where: { $0 <= 0.02 })
        print(String(format: "%d noisy routes (5 s, 8 m), %d fixes: %d within 2 %% (%.1f %%), median error %.2f %%; %.0f fixes/s (%.3f s, fastest of 15 rounds; slowest %.3f s)",
                     traces.count, fixes, within, 100 * Double(within) / Double(max(1, traces.count)),
                     100 * (errors.isEmpty ? 0 : errors[errors.count / 2]), Double(fixes) / seconds, seconds, rounds.max() ?? 0))
    }

    /// Points every `stepMeters` along a line, its ends included.
    static func along(_ line: [Coordinate], stepMeters: Double) -> [Coordinate] {
        guard let first = line.first else { return [] }
        var points = [first]
        var carried = 0.0
        for (a, b) in zip(line, line.dropFirst()) {
            let length = a.distanceMeters(to: b)
            var at = stepMeters - carried
            while at < length {
                let t = at / length
                points.append(Coordinate(validLatitude: a.latitude + t * (b.latitude - a.latitude),
                                         longitude: a.longitude + t * (b.longitude - a.longitude)) ?? a)
                at += stepMeters
            }
            carried = length - (at - stepMeters)
        }
        if let last = line.last, points.last != last { points.append(last) }
        return points
    }

    static func noisy(_ point: Coordinate, meters: Double, random: inout SplitMix64) -> Coordinate {
        func gaussian() -> Double {
            let u = max(Double.ulpOfOne, random.nextUnit()), v = random.nextUnit()
            return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }
        let north = gaussian() * meters, east = gaussian() * meters
        return Coordinate(validLatitude: point.latitude + north / metersPerDegree,
                          longitude: point.longitude + east / (metersPerDegree * cos(point.latitude * .pi / 180))) ?? point
    }
}
