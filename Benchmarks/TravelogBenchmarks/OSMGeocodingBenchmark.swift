import Foundation
import TravelogCore
import TravelogFormats
import TravelogGeocoding
import TravelogOSM

/// `geocoding-osm`: street-level reverse geocoding with the Helsinki extract (`make osm-sample`)
/// added: in this process over 1M random points of the extract's box (the address, and a visit's
/// point of interest); then `travelog geocode reverse` over 200k lines on standard input (text and
/// `--json`, process start and loading included: the issue asks ≥ 200k coordinates/s); then the
/// resident memory of `travelog serve` with and without the extract (the issue asks < 30 MB more).
enum OSMGeocodingBenchmark {
    static let lookupCount = 1_000_000
    static let commandLineCount = 200_000

    static func run(_ context: BenchmarkContext) throws {
        let gazetteerPath = ".build-data/\(Gazetteer.defaultFileName)"
        for (path, goal) in [(OSMBenchmarks.helsinki, "osm-sample"), (gazetteerPath, "gazetteer")] where !FileManager.default.fileExists(atPath: path) {
            print("\(path) is absent: run `make \(goal)` (make bench does) to measure reverse geocoding with an extract")
            return
        }
        let folder = context.workDirectory.appendingPathComponent("osm-geocoding").path
        try? FileManager.default.removeItem(atPath: folder)
        _ = try OSMExtractFolder(path: folder).add(extractPath: OSMBenchmarks.helsinki)
        let set = try OSMExtractFolder(path: folder).open()
        var geocoder: OSMReverseGeocoder?
        let indexSeconds = try GeocodingBenchmark.best { geocoder = OSMReverseGeocoder(places: set) }
        guard let geocoder, let box = set.files.first?.boundingBox else { return }
        print(String(format: "index of %d places: %.1f ms", geocoder.count, indexSeconds * 1000))
        var rng = SplitMix64(seed: 0x05_0A_D0)
        let queries: [Coordinate] = (0..<lookupCount).map { _ in
            Coordinate(validLatitude: box.minimumLatitude + rng.nextUnit() * (box.maximumLatitude - box.minimumLatitude),
                       longitude: box.minimumLongitude + rng.nextUnit() * (box.maximumLongitude - box.minimumLongitude))!
        }
        var found = 0
        let addressSeconds = try GeocodingBenchmark.best {
            found = 0
            for query in queries where geocoder.address(for: query)?.thoroughfare != nil { found += 1 }
        }
        print(String(format: "address(for:): %.0f k lookups/s (%.1f %% with a street)", Double(lookupCount) / addressSeconds / 1000,
                     Double(found) * 100 / Double(lookupCount)))
        let visitSeconds = try GeocodingBenchmark.best {
            found = 0
            for query in queries where geocoder.pointOfInterest(forVisitAt: query, radiusMeters: 40) != nil { found += 1 }
        }
        print(String(format: "a visit's point of interest (radius 40 m): %.0f k lookups/s (%.1f %% named one)",
                     Double(lookupCount) / visitSeconds / 1000, Double(found) * 100 / Double(lookupCount)))

        guard FileManager.default.isExecutableFile(atPath: context.travelogExecutable.path) else {
            print("\(context.travelogExecutable.path) is absent: build it (make release) to time travelog geocode reverse")
            return
        }
        let input = context.workDirectory.appendingPathComponent("geocode-osm-points.txt")
        let lines = queries.prefix(commandLineCount).map {
            "\(FixedDecimalFormatter.string($0.latitude, decimals: 6)) \(FixedDecimalFormatter.string($0.longitude, decimals: 6))\n"
        }
        try Data(lines.joined().utf8).write(to: input)
        var figures: [String] = []
        for arguments in [["geocode", "reverse"], ["geocode", "reverse", "--json"]] {
            let seconds = try GeocodingBenchmark.best {
                let process = Process()
                process.executableURL = context.travelogExecutable
                process.arguments = arguments + ["--gazetteer", gazetteerPath, "--osm-dir", folder]
                process.standardInput = try FileHandle(forReadingFrom: input)
                process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
                try process.run()
                process.waitUntilExit()
            }
            figures.append(String(format: "%@ %.0f k lines/s", arguments.count == 2 ? "text" : "--json", Double(commandLineCount) / seconds / 1000))
        }
        print("travelog geocode reverse --osm-dir, \(commandLineCount) lines on standard input: \(figures.joined(separator: ", "))")

        var resident: [Int] = []
        for withExtract in [false, true] {
            let (server, _) = try ServerProcess.prepare(context, name: "geocoding-osm-\(withExtract)")
            let empty = context.workDirectory.appendingPathComponent("osm-none").path
            try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
            try server.start(arguments: ["--gazetteer", gazetteerPath, "--osm-dir", withExtract ? folder : empty])
            usleep(1_500_000)  // the journal's start-up work settles
            resident.append(server.memory().residentBytes)
            server.stop()
        }
        print(String(format: "travelog serve resident: %.1f MB without an extract, %.1f MB with Helsinki's (+%.1f MB)",
                     Double(resident[0]) / 1e6, Double(resident[1]) / 1e6, Double(resident[1] - resident[0]) / 1e6))
    }
}
