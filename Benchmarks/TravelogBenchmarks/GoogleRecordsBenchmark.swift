// GoogleRecordsReader over a generated Records.json of about 200 MB: the path a 1 GB Takeout takes.
import Foundation
import TravelogCore
import TravelogFormats

enum GoogleRecordsBenchmark {
    static let targetBytes = 200_000_000

    static func run(_ context: BenchmarkContext) throws {
        let input = try BenchmarkInputs.googleRecords(in: context.workDirectory, targetBytes: targetBytes)
        let bytes = try FileManager.default.attributesOfItem(atPath: input.url.path)[.size] as? Int ?? 0
        let megabytes = Double(bytes) / 1_048_576
        print("input: \(String(format: "%.1f", megabytes)) MiB, \(input.locations) locations; best of 3 passes")

        var best = Double.infinity
        var tally = Tally()
        for _ in 0..<3 {
            let started = ContinuousClock.now
            tally = try read(path: input.url.path)
            best = min(best, JSONBenchmark.seconds(started.duration(to: .now)))
        }
        guard tally.points == input.locations, tally.rejected == 0 else {
            print("MISMATCH: \(tally.points) points and \(tally.rejected) rejections for \(input.locations) locations")
            return
        }
        print(String(format: "GoogleRecordsReader: %6.0f MiB/s  %.2f s  %.2f M records/s  (%d points)",
                     megabytes / best, best, Double(tally.points) / best / 1e6, tally.points))
        print(String(format: "at this rate a 1 GB Records.json takes %.1f s", 1e9 / (Double(bytes) / best)))
        print("peak resident memory (ru_maxrss, whole process): \(JSONBenchmark.peakResidentMegabytes()) MiB")
    }

    struct Tally {
        var points = 0
        var rejected = 0
        var checksum = 0.0
    }

    /// Reads every record through the reader as the importer does (an existential `LocationFileReader`).
    static func read(path: String) throws -> Tally {
        var reader: any LocationFileReader = try GoogleRecordsReader(contentsOfFile: path)
        var tally = Tally()
        while let record = try reader.next() {
            switch record {
            case .point(let point):
                tally.points += 1
                if let location = point.position.location {
                    tally.checksum += location.coordinate.latitude + location.timestamp.timeIntervalSince1970 * 1e-9
                }
            case .rejected: tally.rejected += 1
            case .visit: break
            }
        }
        if tally.checksum == 42 { print("(checksum)") }  // keeps the loop from being optimised away
        return tally
    }
}
