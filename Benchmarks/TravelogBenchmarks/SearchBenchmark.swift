import Foundation
import TravelogCore
import TravelogGeocoding
import TravelogOSM

/// `search`: local search on the Helsinki extract (`make osm-sample`). In this process: the time to
/// build the search index and the latency of `OSMSearchIndex.search`. Then through the HTTP API of
/// a `travelog serve --osm-dir` with the extract: `GET /api/v1/search` on one kept-alive
/// connection, p50/p95/p99 per kind of query (exact names, typos, prefixes, category words,
/// addresses), each query near a point of the extract. The issue asks p95 < 5 ms per query.
enum SearchBenchmark {
    /// Requests per kind of query.
    static let requestsPerKind = 400

    static func run(_ context: BenchmarkContext) throws {
        guard FileManager.default.fileExists(atPath: OSMBenchmarks.helsinki) else {
            print("\(OSMBenchmarks.helsinki) is absent: run `make osm-sample` (make bench does) to measure local search")
            return
        }
        let folder = context.workDirectory.appendingPathComponent("osm-search").path
        try? FileManager.default.removeItem(atPath: folder)
        _ = try OSMExtractFolder(path: folder).add(extractPath: OSMBenchmarks.helsinki)
        let set = try OSMExtractFolder(path: folder).open()
        let reverse = OSMReverseGeocoder(places: set)
        var index: OSMSearchIndex?
        let buildSeconds = try GeocodingBenchmark.best { index = OSMSearchIndex(places: set, streetAddresses: reverse) }
        guard let index, let box = set.files.first?.boundingBox else { return }
        print(String(format: "index of %d places built in %.1f ms (best of %d)", index.count, buildSeconds * 1000, GeocodingBenchmark.runs))

        // Queries from the extract itself: names of its points of interest as they are, with a
        // typo, cut to a prefix; category words; addresses in both orders.
        var rng = SplitMix64(seed: 0x5EA2C4)
        var names: [String] = [], addresses: [String] = []
        set.forEachPlace { file, position in
            let place = set.files[file].place(at: position)
            if place.kind.contains(.pointOfInterest), let name = place.name, name.count >= 5 { names.append(name) }
            if let street = place[tag: "addr:street"], let number = place[tag: "addr:housenumber"] { addresses.append("\(street) \(number)") }
        }
        func pick(_ list: [String]) -> String { list[Int(rng.next() % UInt64(list.count))] }
        func typo(_ name: String) -> String {
            var letters = Array(name)
            let at = 1 + Int(rng.next() % UInt64(max(1, letters.count - 2)))
            letters.swapAt(at, min(at + 1, letters.count - 1))
            return String(letters)
        }
        let categories = ["coffee", "restaurant", "supermarket", "pharmacy", "atm", "hotel", "museum", "bar", "bakery", "parking"]
        let kinds: [(label: String, make: () -> String)] = [
            ("exact name", { pick(names) }),
            ("name with a typo", { typo(pick(names)) }),
            ("prefix of 3 letters", { String(pick(names).prefix(3)) }),
            ("category word", { pick(categories) }),
            ("address", { pick(addresses) }),
            ("number first, city", { let parts = pick(addresses).split(separator: " "); return "\(parts.last ?? "") \(parts.dropLast().joined(separator: " ")), Helsinki" }),
        ]
        func near() -> Coordinate {
            Coordinate(validLatitude: box.minimumLatitude + rng.nextUnit() * (box.maximumLatitude - box.minimumLatitude),
                       longitude: box.minimumLongitude + rng.nextUnit() * (box.maximumLongitude - box.minimumLongitude))!
        }
        let workload = kinds.map { kind in (kind.label, (0..<requestsPerKind).map { _ in (kind.make(), near()) }) }

        print("in this process (OSMSearchIndex.search, limit 10):")
        for (label, queries) in workload {
            var samples: [UInt64] = []
            for (text, point) in queries {
                let start = DispatchTime.now().uptimeNanoseconds
                _ = index.search(text, near: point, limit: 10)
                samples.append(DispatchTime.now().uptimeNanoseconds - start)
            }
            print("  \(label): " + LatencySummary(nanoseconds: samples).line([50, 95, 99]))
        }

        guard FileManager.default.isExecutableFile(atPath: context.travelogExecutable.path) else {
            print("\(context.travelogExecutable.path) is absent: build it (make release) to time GET /api/v1/search")
            return
        }
        let (server, token) = try ServerProcess.prepare(context, name: "search")
        try server.start(arguments: ["--osm-dir", folder])
        defer { server.stop() }
        let connection = try HTTPConnection(port: server.port)
        print("GET /api/v1/search through the HTTP API (one connection, limit 10, the person's own places included):")
        var all: [UInt64] = []
        for (label, queries) in workload {
            var samples: [UInt64] = []
            var failures = 0
            for (offset, (text, point)) in queries.enumerated() {
                var allowed = CharacterSet.alphanumerics
                allowed.insert(charactersIn: "-._~")
                let q = text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
                let path = "/api/v1/search?q=\(q)&near=\(point.latitude),\(point.longitude)&limit=10"
                let start = DispatchTime.now().uptimeNanoseconds
                let response = try connection.send("GET", path, headers: [ServerProcess.bearer(token)])
                let elapsed = DispatchTime.now().uptimeNanoseconds - start
                if response.status != 200 { failures += 1 }
                if offset >= 20 { samples.append(elapsed) }  // the first requests warm the connection and caches
            }
            all += samples
            print("  \(label): " + LatencySummary(nanoseconds: samples).line([50, 95, 99]) + (failures > 0 ? "  (\(failures) not 200)" : ""))
        }
        print("  all: " + LatencySummary(nanoseconds: all).line([50, 95, 99]) + "  (target: p95 < 5 ms)")
        let memory = server.memory()
        print(String(format: "  server resident memory: %.1f MB (peak %.1f MB)", Double(memory.residentBytes) / 1e6, Double(memory.peakBytes) / 1e6))
    }
}
