// The JSON pull parser over a Google Takeout Records.json-like file of about 200 MB.
import Foundation
import TravelogFormats
#if canImport(Glibc)
import Glibc
#endif

enum JSONBenchmark {
    static let targetBytes = 200 << 20
    static let seed: UInt64 = 2013

    static func run(_ context: BenchmarkContext) throws {
        let url = context.workDirectory.appendingPathComponent("records-200MB-seed\(seed)-v2.json")
        if !FileManager.default.fileExists(atPath: url.path) {
            let started = ContinuousClock.now
            var generator = RecordsGenerator(seed: seed)
            let count = try generator.write(to: url, targetBytes: targetBytes)
            print("generated \(url.lastPathComponent): \(count) records in \(format(started.duration(to: .now)))")
        }
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

/// Writes a Records.json shaped like Google Takeout's, from a fixed seed, in 1 MiB pieces.
struct RecordsGenerator {
    var random: UInt64

    init(seed: UInt64) { random = seed }

    /// SplitMix64.
    mutating func next() -> UInt64 {
        random &+= 0x9E37_79B9_7F4A_7C15
        var z = random
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// Writes records until the file holds about `targetBytes`; returns how many.
    mutating func write(to url: URL, targetBytes: Int) throws -> Int {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var out: [UInt8] = []
        out.reserveCapacity(1 << 21)
        var written = 0
        append("{\n  \"locations\": [", to: &out)
        var latitudeE7 = 525_121_303
        var longitudeE7 = 134_309_551
        var milliseconds = 1_365_986_286_860  // 2013-04-15
        let sources = ["WIFI", "GPS", "CELL", "UNKNOWN"]
        let activities = ["STILL", "ON_FOOT", "WALKING", "IN_VEHICLE", "ON_BICYCLE", "TILTING", "UNKNOWN"]
        var count = 0
        while written + out.count < targetBytes {
            latitudeE7 += below(2001) - 1000
            longitudeE7 += below(2001) - 1000
            milliseconds += 10_000 + below(110_000)
            append(count == 0 ? "{" : ", {", to: &out)
            field("latitudeE7", latitudeE7, &out)
            field("longitudeE7", longitudeE7, &out)
            field("accuracy", 3 + below(60), &out)
            if below(2) == 0 {
                field("altitude", below(400), &out)
                field("verticalAccuracy", 1 + below(20), &out)
            }
            if below(10) == 0 {
                append("\n    \"activity\": [{\n      \"activity\": [", to: &out)
                for index in 0..<(1 + below(2)) {
                    append(index == 0 ? "{" : ", {", to: &out)
                    append("\n        \"type\": \"\(activities[below(activities.count)])\",\n        \"confidence\": ", to: &out)
                    number(below(101), &out)
                    append("\n      }", to: &out)
                }
                append("],\n      \"timestamp\": \"", to: &out)
                isoTimestamp(milliseconds - below(5000), &out)
                append("\"\n    }],", to: &out)
            }
            append("\n    \"source\": \"\(sources[below(sources.count)])\",", to: &out)
            field("deviceTag", 335_552_189, &out)
            append("\n    \"platformType\": \"ANDROID\",\n    \"timestamp\": \"", to: &out)
            isoTimestamp(milliseconds, &out)
            append("\"\n  }", to: &out)
            count += 1
            if out.count >= 1 << 20 {
                try handle.write(contentsOf: out)
                written += out.count
                out.removeAll(keepingCapacity: true)
            }
        }
        append("]\n}\n", to: &out)
        try handle.write(contentsOf: out)
        return count
    }

    func append(_ text: String, to out: inout [UInt8]) { out.append(contentsOf: text.utf8) }

    func field(_ name: String, _ value: Int, _ out: inout [UInt8]) {
        append("\n    \"\(name)\": ", to: &out)
        number(value, &out)
        out.append(UInt8(ascii: ","))
    }

    func number(_ value: Int, _ out: inout [UInt8]) { out.append(contentsOf: String(value).utf8) }

    /// `YYYY-MM-DDTHH:MM:SS.sssZ` from Unix milliseconds (days to civil date: H. Hinnant's algorithm).
    func isoTimestamp(_ milliseconds: Int, _ out: inout [UInt8]) {
        let days = milliseconds / 86_400_000
        let inDay = milliseconds % 86_400_000
        let z = days + 719_468
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int) { out.append(UInt8(48 + value / 10)); out.append(UInt8(48 + value % 10)) }
        number(year, &out)
        out.append(UInt8(ascii: "-")); two(month)
        out.append(UInt8(ascii: "-")); two(day)
        out.append(UInt8(ascii: "T")); two(inDay / 3_600_000)
        out.append(UInt8(ascii: ":")); two(inDay / 60_000 % 60)
        out.append(UInt8(ascii: ":")); two(inDay / 1000 % 60)
        out.append(UInt8(ascii: "."))
        let fraction = inDay % 1000
        out.append(UInt8(48 + fraction / 100)); two(fraction % 100)
        out.append(UInt8(ascii: "Z"))
    }
}
