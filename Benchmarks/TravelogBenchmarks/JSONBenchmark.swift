// The JSON pull parser over a Google Takeout Records.json-like file of about 200 MB.
import Foundation
import TravelogFormats
#if canImport(Glibc)
import Glibc
#endif

enum JSONBenchmark {
    static let targetBytes = 200_000_000

    static func run(_ context: BenchmarkContext) throws {
        let url = try BenchmarkInputs.googleRecords(in: context.workDirectory, targetBytes: targetBytes).url
        let bytes = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
        let megabytes = Double(bytes) / 1_048_576
        print("input: \(String(format: "%.1f", megabytes)) MiB, read in 1 MiB blocks; best of 3 passes")

        let skip = try best(of: 3) {
            var parser = try JSONParser(contentsOfFile: url.path)
            try parser.skipValue()
            return 0
        }
        print(String(format: "validate only (skipValue): %6.0f MiB/s  %.2f s", megabytes / skip.seconds, skip.seconds))

        for makesStrings in [false, true] {
            let extract = try best(of: 3) { try extractLocations(path: url.path, makingTimestampStrings: makesStrings) }
            print(String(format: "latitudeE7/longitudeE7/timestamp%@: %6.0f MiB/s  %.2f s  %.2f M records/s  (%d records, %.0f bytes each)",
                         makesStrings ? " as String" : " as bytes", megabytes / extract.seconds, extract.seconds,
                         Double(extract.records) / extract.seconds / 1e6, extract.records, Double(bytes) / Double(max(extract.records, 1))))
        }
        print("peak resident memory (ru_maxrss, whole process): \(peakResidentMegabytes()) MiB")
    }

    /// A reader's loop: the three fields of every location, everything else skipped; the timestamp
    /// either looked at in place or copied into a String (what a reader pays for one allocation).
    static func extractLocations(path: String, makingTimestampStrings: Bool) throws -> Int {
        var parser = try JSONParser(contentsOfFile: path)
        var records = 0
        var checksum: Int64 = 0
        try parser.expect(.objectStart)
        while try parser.nextKey() {
            guard parser.stringEquals("locations") else {
                try parser.skipValue()
                continue
            }
            try parser.expect(.arrayStart)
            while try parser.nextElement() != nil {
                var latitudeE7: Int64 = 0
                var longitudeE7: Int64 = 0
                var timestampBytes = 0
                while try parser.nextKey() {
                    if parser.stringEquals("latitudeE7") {
                        latitudeE7 = try parser.readInt64()
                    } else if parser.stringEquals("longitudeE7") {
                        longitudeE7 = try parser.readInt64()
                    } else if parser.stringEquals("timestamp") {
                        if makingTimestampStrings {
                            timestampBytes = try parser.readString().utf8.count
                        } else {
                            guard try parser.next() == .string else { continue }
                            timestampBytes = parser.withStringBytes { $0.count + Int($0.last ?? 0) }
                        }
                    } else {
                        try parser.skipValue()
                    }
                }
                checksum &+= latitudeE7 &+ longitudeE7 &+ Int64(timestampBytes)
                records += 1
            }
        }
        if checksum == 42 { print("(checksum)") }  // keeps the loop from being optimised away
        return records
    }

    static func best(of runs: Int, _ body: () throws -> Int) throws -> (seconds: Double, records: Int) {
        var best = Double.infinity
        var records = 0
        for _ in 0..<runs {
            let started = ContinuousClock.now
            records = try body()
            best = min(best, seconds(started.duration(to: .now)))
        }
        return (best, records)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func format(_ duration: Duration) -> String { String(format: "%.1f s", seconds(duration)) }

    static func peakResidentMegabytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss / 1024  // kilobytes on Linux
    }
}
