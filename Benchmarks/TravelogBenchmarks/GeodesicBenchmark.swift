import Foundation
import TravelogCore

/// `geodesic`: `travelog geodesic inverse|direct` against GeographicLib's GeodSolve on 200 000
/// random problems (fixed seed): wall-clock time of each whole command (best of 3), the largest
/// differences between their outputs, and the in-process rate of `Geodesic`.
enum GeodesicBenchmark {
    static let problemCount = 200_000
    static let repetitions = 3

    static func run(_ context: BenchmarkContext) throws {
        var rng = SplitMix64(seed: 0x7EA7_E106)
        let inverseInput = context.workDirectory.appendingPathComponent("geodesic-inverse-input.txt")
        let directInput = context.workDirectory.appendingPathComponent("geodesic-direct-input.txt")
        // Degrees with 9 decimals (0.1 mm), distances up to 20 000 km either way with 6 (1 µm).
        let inverseProblems = (0..<problemCount).map { _ in
            [rng.decimal(-90, 90, places: 9), rng.decimal(-180, 180, places: 9),
             rng.decimal(-90, 90, places: 9), rng.decimal(-180, 180, places: 9)]
        }
        let directProblems = (0..<problemCount).map { _ in
            [rng.decimal(-90, 90, places: 9), rng.decimal(-180, 180, places: 9),
             rng.decimal(-180, 180, places: 9), rng.decimal(-20_000_000, 20_000_000, places: 6)]
        }
        try write(inverseProblems, to: inverseInput)
        try write(directProblems, to: directInput)
        let inverseValues = inverseProblems.map { $0.map(\.value) }, directValues = directProblems.map { $0.map(\.value) }
        print("\(problemCount) random problems per direction (seed 0x7EA7E106) in \(context.workDirectory.path)")

        let geodSolve = locate("GeodSolve")
        if geodSolve == nil { print("GeodSolve not found on PATH (Debian package geographiclib-tools): timing travelog only") }
        for (name, input, geodSolveArguments) in [("inverse", inverseInput, ["-i", "-p", "9"]), ("direct", directInput, ["-p", "9"])] {
            let oursOutput = context.workDirectory.appendingPathComponent("geodesic-\(name)-travelog.txt")
            let oursSeconds = try bestTime { try execute(context.travelogExecutable, ["geodesic", name], input, oursOutput) }
            print("\(name): travelog geodesic \(name)   \(format(oursSeconds, 3)) s (best of \(repetitions))")
            guard let geodSolve else { continue }
            let theirOutput = context.workDirectory.appendingPathComponent("geodesic-\(name)-geodsolve.txt")
            let theirSeconds = try bestTime { try execute(geodSolve, geodSolveArguments, input, theirOutput) }
            print("\(name): GeodSolve \(geodSolveArguments.joined(separator: " "))   \(format(theirSeconds, 3)) s"
                  + "   (travelog takes \(format(100 * oursSeconds / theirSeconds, 0)) % of GeodSolve's time)")
            try compare(name, oursOutput, theirOutput)
        }
        inProcessRates(inverseValues, directValues)
    }

    /// Prints the largest differences between two output files of three numbers per line.
    static func compare(_ name: String, _ ours: URL, _ theirs: URL) throws {
        let a = try lines(ours), b = try lines(theirs)
        guard a.count == b.count else {
            print("\(name): outputs differ in length: \(a.count) and \(b.count) lines")
            return
        }
        var identical = 0, maxima = [0.0, 0.0, 0.0], unreadable = 0
        for (x, y) in zip(a, b) {
            if x == y { identical += 1; continue }
            let u = x.split(separator: " ").compactMap { Double($0) }, v = y.split(separator: " ").compactMap { Double($0) }
            guard u.count == 3, v.count == 3 else { unreadable += 1; continue }
            for k in 0..<3 {
                let isLength = name == "inverse" && k == 2, isLatitude = name == "direct" && k == 0
                let d = isLength || isLatitude ? abs(u[k] - v[k]) : angleDifference(u[k], v[k])
                maxima[k] = max(maxima[k], d)
            }
        }
        print("\(name): \(identical) of \(a.count) lines identical to GeodSolve's" + (unreadable > 0 ? ", \(unreadable) unreadable" : ""))
        if name == "inverse" {
            print("inverse: max |Δs12| = \(format(maxima[2], 12)) m   max |Δazi1| = \(sci(maxima[0]))°   max |Δazi2| = \(sci(maxima[1]))°")
        } else {
            print("direct: max |Δlat2| = \(sci(maxima[0]))°   max |Δlon2| = \(sci(maxima[1]))°   max |Δazi2| = \(sci(maxima[2]))°"
                  + "   (1e-14° is 1.1 nm)")
        }
    }

    /// Solutions per second of `Geodesic.wgs84` on the same problems, without any I/O.
    static func inProcessRates(_ inverse: [[Double]], _ direct: [[Double]]) {
        var checksum = 0.0
        let inverseSeconds = bestTimeQuietly {
            for p in inverse {
                checksum += Geodesic.wgs84.inverse(latitude1: p[0], longitude1: p[1], latitude2: p[2], longitude2: p[3]).distanceMeters
            }
        }
        let directSeconds = bestTimeQuietly {
            for p in direct {
                checksum += Geodesic.wgs84.direct(latitude: p[0], longitude: p[1], azimuthDegrees: p[2], distanceMeters: p[3]).latitude
            }
        }
        print("in-process: \(format(Double(inverse.count) / inverseSeconds / 1e6, 2)) M inverse solutions/s"
              + " (\(format(inverseSeconds / Double(inverse.count) * 1e9, 0)) ns each), "
              + "\(format(Double(direct.count) / directSeconds / 1e6, 2)) M direct solutions/s   [checksum \(format(checksum, 0))]")
    }

    // MARK: - Helpers

    static func write(_ problems: [[FixedDecimal]], to url: URL) throws {
        var text = ""
        text.reserveCapacity(problems.count * 64)
        for p in problems { text += p.map(\.text).joined(separator: " ") + "\n" }
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    static func lines(_ url: URL) throws -> [Substring] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { $0 }
    }

    static func locate(_ tool: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(tool) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    static func execute(_ executable: URL, _ arguments: [String], _ input: URL, _ output: URL) throws {
        guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: output.path])
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: input)
        process.standardOutput = try FileHandle(forWritingTo: output)
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            print("\(executable.lastPathComponent) \(arguments.joined(separator: " ")) exited with status \(process.terminationStatus)")
        }
    }

    static func bestTime(_ body: () throws -> Void) throws -> Double {
        var best = Double.infinity
        for _ in 0..<repetitions {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return best
    }

    static func bestTimeQuietly(_ body: () -> Void) -> Double {
        (try? bestTime(body)) ?? .nan
    }

    static func angleDifference(_ a: Double, _ b: Double) -> Double {
        let d = abs(a - b).truncatingRemainder(dividingBy: 360)
        return min(d, 360 - d)
    }

    static func format(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
    static func sci(_ value: Double) -> String { String(format: "%.1e", value) }
}

extension SplitMix64 {
    /// A uniformly random decimal in [low, high] with `places` fractional digits.
    mutating func decimal(_ low: Double, _ high: Double, places: Int) -> FixedDecimal {
        let scale = (0..<places).reduce(Int64(1)) { r, _ in r * 10 }
        let units = Int64.random(in: Int64(low) * scale...Int64(high) * scale, using: &self)
        return FixedDecimal(units: units, places: places)
    }
}

/// A decimal number `units × 10^-places`, written without an exponent (GeodSolve would read the
/// "e" of 1e-05 as a hemisphere).
struct FixedDecimal {
    var units: Int64
    var places: Int

    var value: Double { Double(units) / (0..<places).reduce(1.0) { r, _ in r * 10 } }

    var text: String {
        let digits = String(units.magnitude)
        let padded = String(repeating: "0", count: max(0, places + 1 - digits.count)) + digits
        let split = padded.index(padded.endIndex, offsetBy: -places)
        return (units < 0 ? "-" : "") + padded[..<split] + "." + padded[split...]
    }
}
