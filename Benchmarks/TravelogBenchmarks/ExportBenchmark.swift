import Foundation
import TravelogCore
import TravelogFormats

/// `export`: 1,000,000 generated locations written to GPX, KML, GeoJSON and CSV files in the work
/// folder through `FileByteSink`, in batches of 10,000 as `travelog export` reads them from the
/// store, with a new segment every hour of points. Prints seconds, MB/s and locations/s for each
/// format. Target: GPX in under 5 s. The files are deleted afterwards.
enum ExportBenchmark {
    static let locationCount = 1_000_000
    static let batchSize = 10_000
    static let pointsPerSegment = 3_600

    static func run(_ context: BenchmarkContext) throws {
        let generationStart = ContinuousClock.now
        let batches = generatedBatches()
        print("generated \(locationCount) locations in \(format(seconds(since: generationStart), decimals: 3)) s (not counted)")
        for fileFormat in FileFormat.writable {
            let url = context.workDirectory.appendingPathComponent("export-1M.\(fileFormat.exportFileExtension ?? "out")")
            let start = ContinuousClock.now
            let sink = try FileByteSink(path: url.path)
            guard let writer = fileFormat.makeWriter(sink: sink, document: ExportDocument(name: "benchmark")) else { continue }
            try writer.startTrack(named: "generated")
            var written = 0
            for batch in batches {
                try writer.write(batch)
                written += batch.count
                if written % pointsPerSegment < batchSize { try writer.startSegment() }
            }
            try writer.finish()
            try sink.close()
            let elapsed = seconds(since: start)
            let megabytes = Double(writer.bytesWritten) / 1_000_000
            print("\(fileFormat.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0))"
                  + " \(writer.locationsWritten) locations  \(format(megabytes, decimals: 1)) MB"
                  + "  \(format(elapsed, decimals: 3)) s  \(format(megabytes / elapsed, decimals: 0)) MB/s"
                  + "  \(format(Double(writer.locationsWritten) / elapsed, decimals: 0)) locations/s")
            try? FileManager.default.removeItem(at: url)
        }
    }

    /// A walk-and-drive day repeated: one fix a second with millisecond jitter, drifting north-east
    /// from Zürich, with altitude, accuracies, speed and course mostly known.
    static func generatedBatches() -> [[Location]] {
        var state: UInt64 = 0x5EED
        func nextUnit() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var batches: [[Location]] = []
        var batch: [Location] = []
        batch.reserveCapacity(batchSize)
        var latitude = 47.3769
        var longitude = 8.5417
        let startSeconds = 1_709_294_400.0
        for index in 0..<locationCount {
            latitude = min(89, latitude + (nextUnit() - 0.45) * 1e-4)
            longitude += (nextUnit() - 0.45) * 1e-4
            guard let coordinate = Coordinate(validLatitude: latitude, longitude: longitude) else { continue }
            batch.append(Location(
                coordinate: coordinate,
                altitudeMeters: index % 10 == 0 ? nil : 400 + nextUnit() * 50,
                horizontalAccuracyMeters: 3 + nextUnit() * 20,
                verticalAccuracyMeters: index % 4 == 0 ? -1 : 2 + nextUnit() * 10,
                speedMetersPerSecond: index % 5 == 0 ? -1 : nextUnit() * 30,
                courseDegrees: index % 5 == 0 ? -1 : nextUnit() * 360,
                timestamp: Date(timeIntervalSince1970: startSeconds + Double(index) + (nextUnit() * 1000).rounded(.down) / 1000)))
            if batch.count == batchSize {
                batches.append(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { batches.append(batch) }
        return batches
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let duration = ContinuousClock.now - start
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func format(_ value: Double, decimals: Int) -> String {
        FixedDecimalFormatter.string(value, decimals: decimals)
    }
}
