import Foundation
import TravelogCore
import TravelogRender

/// History tiles and snapshots (TravelogRender): path tiles per second at zoom 14 beside Mapnik
/// (Debian's python3-mapnik, AGG, a 3 px line, the same tiles; `scripts/bench-mapnik.py`), p95 tile
/// times for path and heat at zooms 2–18 over a large history (wall clock, and the thread's CPU
/// time, which load inflates less), and a 1200×800 snapshot of a 1M-point year. Inputs are
/// generated with a fixed seed.
enum RenderBenchmarks {
    /// Fixes in the large history (`TRAVELOG_BENCH_TILE_POINTS` overrides; the target is 10M).
    static var largeHistoryCount: Int {
        ProcessInfo.processInfo.environment["TRAVELOG_BENCH_TILE_POINTS"].flatMap(Int.init) ?? 10_000_000
    }

    /// A track of `count` fixes a second apart: walks, rides and drives around `center` (a random
    /// walk whose speed and heading change every few minutes), pausing at stays.
    static func track(count: Int, center: Coordinate, radiusDegrees: Double, seed: UInt64,
                      start: Date = Date(timeIntervalSince1970: 1_700_000_000), secondsApart: Double = 1) -> [Location] {
        var random = SplitMix64(seed: seed)
        var latitude = center.latitude, longitude = center.longitude
        var heading = 0.0, speedDegrees = 0.0
        var locations: [Location] = []
        locations.reserveCapacity(count)
        for index in 0..<count {
            if index % 300 == 0 {
                heading = random.nextUnit() * 2 * .pi
                speedDegrees = [0, 0.00001, 0.00005, 0.0002][Int(random.next() % 4)] * secondsApart
            }
            heading += random.gaussian() * 0.05
            latitude += speedDegrees * cos(heading)
            longitude += speedDegrees * sin(heading) / cos(latitude * .pi / 180)
            // Stay within the area: turn back towards the centre at its edge.
            if abs(latitude - center.latitude) > radiusDegrees || abs(longitude - center.longitude) > radiusDegrees {
                heading = atan2(center.longitude - longitude, center.latitude - latitude)
            }
            let noise = random.gaussian() * 0.00003
            locations.append(Location(coordinate: Coordinate(validLatitude: latitude + noise, longitude: longitude - noise)!,
                                      timestamp: start.addingTimeInterval(Double(index) * secondsApart)))
        }
        return locations
    }

    static func index(_ locations: [Location]) -> (HistoryTileIndex, Double) {
        var index = HistoryTileIndex()
        let seconds = measure { for location in locations { index.append(location, deviceIndex: 0) } }
        return (index, seconds)
    }

    /// The CPU time this thread has used (CLOCK_THREAD_CPUTIME_ID): on a shared machine other
    /// processes inflate it much less than wall-clock time.
    static func threadCPUNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    static func measure(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Draws and encodes one tile as the server does.
    static func tilePNG(_ tile: Tile, layer: HistoryLayer, index: HistoryTileIndex) throws -> Int {
        try HistoryTileRenderer(layer: layer).drawTile(tile, index: index, filter: .init()).pngData().count
    }

    // MARK: zoom 14 against Mapnik

    static func pathTilesAgainstMapnik(_ context: BenchmarkContext) async throws {
        let locations = track(count: 500_000, center: Coordinate(validLatitude: 52.52, longitude: 13.40)!,
                              radiusDegrees: 0.15, seed: 14)
        let (index, buildSeconds) = index(locations)
        let tiles = Array(Set(locations.map { Tile(containing: $0.coordinate, zoom: 14) })).sorted { ($0.y, $0.x) < ($1.y, $1.x) }
        print(String(format: "track: %d fixes in %d tiles at zoom 14; index built in %.2f s (%d vertices over all levels)",
                     locations.count, tiles.count, buildSeconds, index.vertexCount))
        var bytes = 0
        _ = try tilePNG(tiles[0], layer: .path, index: index)
        let seconds = try measure { for tile in tiles { bytes += try tilePNG(tile, layer: .path, index: index) } }
        print(String(format: "travelog path tiles z14: %.0f tiles/s (%d tiles in %.2f s, %.1f KB per PNG, one core)",
                     Double(tiles.count) / seconds, tiles.count, seconds, Double(bytes) / Double(tiles.count) / 1024))
        // The tile with the most fixes, to look at.
        let counts = Dictionary(locations.map { (Tile(containing: $0.coordinate, zoom: 14), 1) }, uniquingKeysWith: +)
        if let busiest = counts.max(by: { $0.value < $1.value })?.key {
            let sample = context.workDirectory.appendingPathComponent("render-z14-busiest.png")
            try HistoryTileRenderer(layer: .path).drawTile(busiest, index: index, filter: .init()).pngData().write(to: sample)
            print("the busiest tile, \(busiest) (\(counts[busiest] ?? 0) fixes): \(sample.path)")
        }
        // The same track and tiles for Mapnik.
        let trackFile = context.workDirectory.appendingPathComponent("render-track-500k.csv")
        let tileFile = context.workDirectory.appendingPathComponent("render-tiles-z14.txt")
        var text = "lon,lat\n"
        text.reserveCapacity(locations.count * 24)
        for location in locations { text += "\(location.coordinate.longitude),\(location.coordinate.latitude)\n" }
        try text.write(to: trackFile, atomically: true, encoding: .utf8)
        try tiles.map(\.description).joined(separator: "\n").write(to: tileFile, atomically: true, encoding: .utf8)
        let script = URL(fileURLWithPath: "scripts/bench-mapnik.py")
        guard FileManager.default.fileExists(atPath: script.path) else { return print("mapnik: scripts/bench-mapnik.py not found") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path, "--track", trackFile.path, "--tiles", tileFile.path]
        try process.run()
        process.waitUntilExit()
    }

    // MARK: p95 over a large history

    static func tileLatencies(_ context: BenchmarkContext) throws {
        let count = largeHistoryCount
        // Ten cities of a long history: a fix every 10 s, each city a tenth.
        let cities = [(52.52, 13.40), (48.86, 2.35), (40.71, -74.0), (35.68, 139.69), (51.51, -0.13),
                      (-33.87, 151.21), (19.43, -99.13), (55.75, 37.62), (1.35, 103.82), (-23.55, -46.63)]
        var index = HistoryTileIndex()
        var samples: [Coordinate] = []
        var buildSeconds = 0.0
        let perCity = count / cities.count
        for (number, city) in cities.enumerated() {
            let start = Date(timeIntervalSince1970: 1_500_000_000 + Double(number * perCity) * 10)
            let part = track(count: perCity, center: Coordinate(validLatitude: city.0, longitude: city.1)!, radiusDegrees: 0.3,
                             seed: UInt64(100 + number), start: start, secondsApart: 10)
            buildSeconds += measure { for location in part { index.append(location, deviceIndex: number % 3) } }
            samples.append(contentsOf: stride(from: 0, to: part.count, by: max(1, part.count / 30)).map { part[$0].coordinate })
        }
        print(String(format: "history: %d fixes (10 cities, a fix every 10 s); index built in %.1f s, %d vertices over all levels",
                     index.fixCount, buildSeconds, index.vertexCount))
        for layer in [HistoryLayer.path, .heat] {
            for zoom in 2...18 {
                let tiles = Array(Set(samples.map { Tile(containing: $0, zoom: zoom) }))
                var nanoseconds: [UInt64] = [], cpuNanoseconds: [UInt64] = []
                for tile in tiles {
                    let start = DispatchTime.now().uptimeNanoseconds, cpuStart = threadCPUNanoseconds()
                    _ = try tilePNG(tile, layer: layer, index: index)
                    cpuNanoseconds.append(threadCPUNanoseconds() - cpuStart)
                    nanoseconds.append(DispatchTime.now().uptimeNanoseconds - start)
                }
                let summary = LatencySummary(nanoseconds: nanoseconds), cpu = LatencySummary(nanoseconds: cpuNanoseconds)
                print("\(layer.rawValue) z\(zoom): \(tiles.count) tiles with data  \(summary.line([50, 95]))  | thread CPU \(cpu.line([50, 95]))")
            }
        }
    }

    // MARK: snapshot

    static func snapshot(_ context: BenchmarkContext) throws {
        let year = track(count: 1_000_000, center: Coordinate(validLatitude: 52.52, longitude: 13.40)!, radiusDegrees: 0.5,
                         seed: 2024, secondsApart: 31)
        let (index, buildSeconds) = index(year)
        let outlines = try? WorldOutlines(contentsOf: WorldOutlines.defaultPath)
        for layer in [HistoryLayer.path, .heat] {
            var snapshot: Snapshot?
            let seconds = try measure {
                snapshot = try MapSnapshotter(options: .init(widthPoints: 1200, heightPoints: 800, layer: layer))
                    .snapshot(index: index, filter: .init(), outlines: outlines)
            }
            print(String(format: "snapshot 1200×800 %@ of a 1M-point year: %.0f ms (zoom %d, %.0f KB PNG, base %@; index built in %.2f s)",
                         layer.rawValue, seconds * 1000, snapshot?.zoomLevel ?? -1, Double(snapshot?.pngData.count ?? 0) / 1024,
                         snapshot?.basemap.rawValue ?? "?", buildSeconds))
        }
    }
}
