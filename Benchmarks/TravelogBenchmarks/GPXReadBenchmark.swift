// `gpx-read`: a generated GPX 1.1 file of 1M track points read through `GPXReader`.
import Foundation
import TravelogCore
import TravelogFormats

enum GPXReadBenchmark {
    static let pointCount = 1_000_000
    static let passes = 3

    static func run(_ context: BenchmarkContext) throws {
        let url = try BenchmarkInputs.gpx(in: context.workDirectory, points: pointCount)
        let sizeBytes = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
        print("pass: every record of the file through GPXReader (lat, lon, ele, time into a Location)")
        print("input: \(url.path), \(pointCount) track points, \(Figures.megabytes(Double(sizeBytes)))")
        let residentBefore = XMLBenchmark.peakResidentMebibytes()
        var bestSeconds = Double.infinity, bestCPU = Double.infinity
        for pass in 1...passes {
            let start = ContinuousClock.now
            let cpuStart = XMLBenchmark.cpuSeconds()
            var reader = try GPXReader(source: try FileByteSource(path: url.path))
            var points = 0, timed = 0, other = 0
            var checksum = 0.0
            while let record = try reader.next() {
                guard case .point(let point) = record else {
                    other += 1
                    continue
                }
                points += 1
                if let location = point.position.location {
                    timed += 1
                    checksum += location.coordinate.latitude + location.timestamp.timeIntervalSince1970 * 1e-9
                }
            }
            let seconds = (ContinuousClock.now - start) / .seconds(1)
            let cpu = XMLBenchmark.cpuSeconds() - cpuStart
            bestSeconds = min(bestSeconds, seconds)
            bestCPU = min(bestCPU, cpu)
            guard timed == pointCount, other == 0 else {
                print("error: read \(timed) timed points of \(points), \(other) other records; expected \(pointCount) timed")
                return
            }
            print(String(format: "pass %d: %.3f s (CPU %.3f s), %.0f MB/s, %.2f M points/s (checksum %.6f)",
                         pass, seconds, cpu, Double(sizeBytes) / seconds / 1e6, Double(points) / seconds / 1e6, checksum))
        }
        print(String(format: "best wall clock: %.0f MB/s, %.2f M points/s",
                     Double(sizeBytes) / bestSeconds / 1e6, Double(pointCount) / bestSeconds / 1e6))
        print(String(format: "best CPU time (fairer on a shared machine): %.0f MB/s, %.2f M points/s",
                     Double(sizeBytes) / bestCPU / 1e6, Double(pointCount) / bestCPU / 1e6))
        print("peak RSS: \(XMLBenchmark.peakResidentMebibytes()) MiB (\(residentBefore) MiB before reading)")
    }
}
