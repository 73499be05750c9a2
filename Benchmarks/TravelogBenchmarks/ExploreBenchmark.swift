import Foundation
import TravelogCore
import TravelogGeocoding
import TravelogJournal
import TravelogOSM
import TravelogRender

/// Where I have been (issue 33): a history of ten cities, Helsinki first (a fix every 10 s,
/// `TRAVELOG_BENCH_EXPLORE_POINTS` fixes, 10M by default), in a ``HistoryTileIndex`` as the server
/// builds it, with its ``ExploredCells``. Prints the build, the cells and area, the first view of the
/// world (every fog tile of zooms 0–2 drawn and encoded, one core), p95 fog tiles per zoom, a day of
/// fixes at 1/s added (the update's cost), and Helsinki's street coverage from the OSM extract (the
/// city figures' costly part: every street line, the gazetteer's nearest place of each, 12.5 m steps).
/// Goals: the world < 1 s, a city < 2 s, a day < 50 ms (release).
enum ExploreBenchmark {
    static var count: Int {
        ProcessInfo.processInfo.environment["TRAVELOG_BENCH_EXPLORE_POINTS"].flatMap(Int.init) ?? 10_000_000
    }

    static func run(_ context: BenchmarkContext) throws {
        let cities = [(60.17, 24.94), (52.52, 13.40), (48.86, 2.35), (40.71, -74.0), (35.68, 139.69), (51.51, -0.13),
                      (-33.87, 151.21), (19.43, -99.13), (55.75, 37.62), (1.35, 103.82)]
        var index = HistoryTileIndex()
        // The same fixes in explored cells alone, to tell the day's update of the cells from the index's.
        var cellsAlone = ExploredCells()
        var samples: [Coordinate] = []
        var buildSeconds = 0.0
        let perCity = max(1, count / cities.count)
        var end = Date(timeIntervalSince1970: 1_500_000_000)
        for (number, city) in cities.enumerated() {
            let start = Date(timeIntervalSince1970: 1_500_000_000 + Double(number * perCity) * 10)
            let part = RenderBenchmarks.track(count: perCity, center: Coordinate(validLatitude: city.0, longitude: city.1)!,
                                              radiusDegrees: 0.1, seed: UInt64(300 + number), start: start, secondsApart: 10)
            buildSeconds += RenderBenchmarks.measure { for location in part { index.append(location, deviceIndex: 0) } }
            for location in part {
                cellsAlone.append(latitude: location.coordinate.latitude, longitude: location.coordinate.longitude,
                                  seconds: location.timestamp.timeIntervalSince1970, device: 0)
            }
            samples.append(contentsOf: stride(from: 0, to: part.count, by: max(1, part.count / 30)).map { part[$0].coordinate })
            end = part.last?.timestamp ?? end
        }
        // No copy of the cells is kept alive here: one would make the day's update below pay for
        // copying every bucket it touches (copy on write), which the server's index never does.
        print(String(format: "history: %d fixes (10 cities, a fix every 10 s); index with explored cells built in %.1f s",
                     index.fixCount, buildSeconds))
        print(String(format: "explored: %d cells of %.0f m, %.1f km²", index.explored.count, ExploredCells.cellSizeMeters,
                     index.explored.areaSquareKilometers))

        // The first view of the world: every tile of zooms 0, 1 and 2 (21 tiles; a 1400×900 page shows zoom 2).
        var worldTiles: [Tile] = []
        for zoom in 0...2 { for x in 0..<(1 << zoom) { for y in 0..<(1 << zoom) { worldTiles.append(try Tile(zoom: zoom, x: x, y: y)) } } }
        var bytes = 0
        let worldSeconds = try RenderBenchmarks.measure {
            for tile in worldTiles {
                bytes += try ExploredTileRenderer().drawTile(tile, explored: index.explored.exploredRects(in: tile)).pngData().count
            }
        }
        print(String(format: "the world's first view: %d fog tiles of zooms 0-2 in %.0f ms (%.1f KB a tile, one core)",
                     worldTiles.count, worldSeconds * 1000, Double(bytes) / Double(worldTiles.count) / 1024))
        for zoom in [4, 8, 12, 13, 16, 18] {
            let tiles = Array(Set(samples.map { Tile(containing: $0, zoom: zoom) }))
            var times: [Double] = []
            for tile in tiles {
                times.append(try RenderBenchmarks.measure {
                    _ = try ExploredTileRenderer().drawTile(tile, explored: index.explored.exploredRects(in: tile)).pngData()
                })
            }
            times.sort()
            print(String(format: "fog tiles z%d: p50 %.1f ms, p95 %.1f ms (%d tiles)", zoom, times[times.count / 2] * 1000,
                         times[min(times.count - 1, times.count * 95 / 100)] * 1000, tiles.count))
        }

        // A day of fixes at 1/s in Helsinki, added as the server adds a landed batch.
        let day = RenderBenchmarks.track(count: 86_400, center: Coordinate(validLatitude: 60.2, longitude: 24.9)!, radiusDegrees: 0.1,
                                         seed: 99, start: end.addingTimeInterval(60))
        let before = index.explored.count
        let daySeconds = RenderBenchmarks.measure { for location in day { index.append(location, deviceIndex: 0) } }
        let cellsSeconds = RenderBenchmarks.measure {
            for location in day {
                cellsAlone.append(latitude: location.coordinate.latitude, longitude: location.coordinate.longitude,
                                  seconds: location.timestamp.timeIntervalSince1970, device: 0)
            }
        }
        print(String(format: "the same day in the explored cells alone: %.1f ms", cellsSeconds * 1000))
        print(String(format: "a day of 86,400 fixes added: %.1f ms (index and explored cells together), %d new cells",
                     daySeconds * 1000, index.explored.count - before))

        // Helsinki's streets covered (the city figures' costly part).
        let gazetteerPath = ".build-data/\(Gazetteer.defaultFileName)"
        guard FileManager.default.fileExists(atPath: OSMBenchmarks.helsinki), FileManager.default.fileExists(atPath: gazetteerPath) else {
            return print("\(OSMBenchmarks.helsinki) or \(gazetteerPath) is absent (make osm-sample gazetteer): no city figures")
        }
        let folder = context.workDirectory.appendingPathComponent("explore-osm").path
        try? FileManager.default.removeItem(atPath: folder)
        _ = try OSMExtractFolder(path: folder).add(extractPath: OSMBenchmarks.helsinki)
        let streets = OSMReverseGeocoder(places: try OSMExtractFolder(path: folder).open())
        let geocoder = ReverseGeocoder(gazetteer: try Gazetteer(contentsOfFile: gazetteerPath))
        let helsinki = Coordinate(validLatitude: 60.16952, longitude: 24.93545)!
        guard let city = geocoder.nearest(to: helsinki)?.placeIndex else { return }
        let cells = index.explored
        var coverage: OSMReverseGeocoder.StreetCoverage?
        let citySeconds = RenderBenchmarks.measure {
            coverage = streets.coverage(isCovered: { cells.isExplored(near: $0.latitude, longitude: $0.longitude, withinMeters: 25) }) { middle in
                abs(middle.latitude - helsinki.latitude) < 0.5 && abs(middle.longitude - helsinki.longitude) < 1
                    && geocoder.nearest(to: middle)?.placeIndex == city
            }
        }
        if let coverage {
            print(String(format: "Helsinki's streets: %.1f of %.1f km covered (%d lines) in %.0f ms", coverage.coveredMeters / 1000,
                         coverage.lengthMeters / 1000, coverage.lines, citySeconds * 1000))
        }
        // The whole answer of `/api/v1/explore?city=Helsinki`: every cell's country and city, the streets,
        // and the outlines the extract holds whole (the sample holds none: that pass is then skipped).
        var figures: ExploreFigures?
        let figuresSeconds = try RenderBenchmarks.measure {
            figures = try ExploreFigures.compute(cells: cells, whereabouts: nil, geocoder: geocoder, streets: streets, city: "Helsinki")
        }
        print(String(format: "the city figures (ExploreFigures.compute, city Helsinki, %d cells, %d countries, %d outlines): %.0f ms",
                     cells.count, figures?.countries.count ?? 0, streets.boundaries().count, figuresSeconds * 1000))
    }
}
