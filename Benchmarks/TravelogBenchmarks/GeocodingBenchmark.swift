import Foundation
import TravelogCore
import TravelogFormats
import TravelogGeocoding

/// `geocoding`: the built GeoNames gazetteer (`make gazetteer`): load time, index time, then
/// reverse geocoding of 1M random land-ish coordinates (a random place moved up to ~30 km;
/// fixed seed), single-threaded, and forward geocoding of a few texts. Then the release
/// `travelog geocode reverse` over 100k of those points on standard input, text and `--json`.
enum GeocodingBenchmark {
    static let lookupCount = 1_000_000
    static let commandLineCount = 100_000
    static let runs = 3

    static func run(_ context: BenchmarkContext) throws {
        let path = ".build-data/\(Gazetteer.defaultFileName)"
        guard FileManager.default.fileExists(atPath: path) else {
            print("\(path) is absent: run `make gazetteer` (make bench does) to measure geocoding")
            return
        }
        var gazetteer: Gazetteer?
        let loadSeconds = try best { gazetteer = try Gazetteer(contentsOfFile: path) }
        guard let gazetteer else { return }
        print(String(format: "load %@: %d places, %.1f ms", path, gazetteer.count, loadSeconds * 1000))
        var reverse: ReverseGeocoder?
        let indexSeconds = try best { reverse = ReverseGeocoder(gazetteer: gazetteer) }
        var forward: ForwardGeocoder?
        let forwardIndexSeconds = try best { forward = ForwardGeocoder(gazetteer: gazetteer) }
        guard let reverse, let forward else { return }
        print(String(format: "index: k-d tree %.1f ms, name index %.1f ms", indexSeconds * 1000, forwardIndexSeconds * 1000))

        var rng = SplitMix64(seed: 0x6E0C_0DE5)
        let queries: [Coordinate] = (0..<lookupCount).map { _ in
            let place = gazetteer.coordinate(at: Int(rng.nextUnit() * Double(gazetteer.count)))
            return place.destination(bearingDegrees: rng.nextUnit() * 360, distanceMeters: rng.nextUnit() * 30_000)
        }
        var checksum = 0.0
        let nearestSeconds = try best {
            checksum = 0
            for query in queries { checksum += reverse.nearest(to: query)?.distanceMeters ?? 0 }
        }
        print(String(format: "reverse, nearest place + geodesic distance: %.0f ms for %d lookups, %.0f k lookups/s (mean distance %.0f m)",
                     nearestSeconds * 1000, lookupCount, Double(lookupCount) / nearestSeconds / 1000, checksum / Double(lookupCount)))
        var names = 0
        let placemarkSeconds = try best {
            names = 0
            for query in queries { names += reverse.placemark(for: query)?.name.utf8.count ?? 0 }
        }
        print(String(format: "reverse, full placemark (strings decoded): %.0f ms, %.0f k lookups/s",
                     placemarkSeconds * 1000, Double(lookupCount) / placemarkSeconds / 1000))

        let texts = ["Cupertino", "Paris, France", "Springfield, IL", "1 Infinite Loop, Cupertino, CA USA", "São Paulo", "New York"]
        let forwardRepetitions = 2000
        var found = 0
        let forwardSeconds = try best {
            found = 0
            for _ in 0..<forwardRepetitions { for text in texts { found += forward.matches(for: text, limit: 5).count } }
        }
        print(String(format: "forward: %.1f µs a text (%d texts × %d)", forwardSeconds / Double(texts.count * forwardRepetitions) * 1e6,
                     texts.count, forwardRepetitions))
        try runCommand(context, gazetteerPath: path, queries: queries.prefix(commandLineCount))
    }

    /// `travelog geocode reverse [--json] < points > /dev/null`: the command's whole cost per line
    /// (reading, lookup, formatting, writing), process start and gazetteer load included.
    static func runCommand(_ context: BenchmarkContext, gazetteerPath: String, queries: ArraySlice<Coordinate>) throws {
        guard FileManager.default.isExecutableFile(atPath: context.travelogExecutable.path) else {
            print("\(context.travelogExecutable.path) is absent: build it (make release) to time travelog geocode reverse")
            return
        }
        let input = context.workDirectory.appendingPathComponent("geocode-points.txt")
        let lines = queries.map { "\(FixedDecimalFormatter.string($0.latitude, decimals: 5)) \(FixedDecimalFormatter.string($0.longitude, decimals: 5))\n" }
        try Data(lines.joined().utf8).write(to: input)
        var figures: [String] = []
        for arguments in [["geocode", "reverse"], ["geocode", "reverse", "--json"]] {
            let seconds = try best {
                let process = Process()
                process.executableURL = context.travelogExecutable
                process.arguments = arguments + ["--gazetteer", gazetteerPath]
                process.standardInput = try FileHandle(forReadingFrom: input)
                process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
                try process.run()
                process.waitUntilExit()
            }
            figures.append("\(arguments.count == 2 ? "text" : "--json") \(String(format: "%.0f", seconds * 1000)) ms")
        }
        print("travelog geocode reverse, \(queries.count) lines on standard input: \(figures.joined(separator: ", "))")
    }

    /// The fastest of `runs` runs, seconds.
    static func best(_ body: () throws -> Void) throws -> Double {
        var fastest = Double.infinity
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            fastest = min(fastest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return fastest
    }
}
