import Foundation
import TravelogCore
import TravelogSQLite
import TravelogStore

/// How fast the SQLite store takes an import's locations (batches of 10,000, each durable),
/// and how fast it takes them again (all duplicates).
enum StoreBenchmark {
    static let locationCount = 1_000_000

    static func run(_ context: BenchmarkContext) async throws {
        let path = context.workDirectory.appendingPathComponent("store-benchmark.sqlite").path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let store = try SQLiteLocationStore(path: path)
        let user = try await store.addUser(named: "bench")
        let device = try await store.addDevice(named: "phone", userID: user.id)
        let locations = SyntheticTrack.locations(count: locationCount, seed: 7)

        for pass in ["first import", "same file again"] {
            let started = Date()
            let importID = try await store.beginImport(
                deviceID: device.id, provenance: ImportProvenance(fileName: "bench", contentSHA256: nil, format: "bench"))
            var summary = InsertSummary()
            var start = 0
            while start < locations.count {
                let end = min(start + 10_000, locations.count)
                summary = summary + (try await store.insert(locations[start..<end].map {
                    StoredLocation(deviceID: device.id, location: $0, source: .fileImport, importID: importID)
                }))
                start = end
            }
            let record = try await store.finishImport(importID, summary: summary, tally: ImportTally(rejected: 0))
            let seconds = Date().timeIntervalSince(started)
            print("  SQLite import, \(pass): \(locationCount) locations in \(Figures.seconds(seconds)), "
                  + "\(Figures.rate(Double(locationCount) / seconds)) locations/s "
                  + "(inserted \(record.inserted), duplicates \(record.duplicates))")
        }
        let size = try await store.storageSizeBytes() ?? 0
        print("  database size: \(Figures.megabytes(Double(size))) for \(locationCount) locations "
              + "(\(Int(Double(size) / Double(locationCount))) bytes each)")
        let started = Date()
        var read = 0
        let counter = Counter()
        try await store.forEachBatch(LocationQuery(userID: user.id), batchSize: 10_000) { batch in counter.add(batch.count) }
        read = counter.value
        let seconds = Date().timeIntervalSince(started)
        print("  read back \(read) in \(Figures.seconds(seconds)), \(Figures.rate(Double(read) / seconds)) locations/s")
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add(_ value: Int) { lock.lock(); count += value; lock.unlock() }
        var value: Int { lock.lock(); defer { lock.unlock() }; return count }
    }
}

/// A deterministic walk with GPS noise, for benchmarks (not a test oracle).
enum SyntheticTrack {
    static func locations(count: Int, seed: UInt64, start: Date = Date(timeIntervalSince1970: 1_600_000_000)) -> [Location] {
        var random = SplitMix64(seed: seed)
        var latitude = 48.137, longitude = 11.575
        var result: [Location] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            latitude += (random.nextUnit() - 0.5) * 2e-4
            longitude += (random.nextUnit() - 0.5) * 3e-4
            latitude = min(max(latitude, -80), 80)
            guard let coordinate = Coordinate(validLatitude: latitude, longitude: longitude) else { continue }
            result.append(Location(coordinate: coordinate, altitudeMeters: 500 + random.nextUnit() * 50,
                                   horizontalAccuracyMeters: 5 + random.nextUnit() * 20,
                                   speedMetersPerSecond: random.nextUnit() * 3,
                                   courseDegrees: random.nextUnit() * 360,
                                   timestamp: start.addingTimeInterval(Double(index) * 5)))
        }
        return result
    }
}


/// How figures are printed.
enum Figures {
    static func seconds(_ value: Double) -> String { String(format: "%.2f s", value) }
    static func rate(_ value: Double) -> String {
        value >= 1e6 ? String(format: "%.2fM", value / 1e6) : String(format: "%.0fk", value / 1e3)
    }
    static func megabytes(_ bytes: Double) -> String { String(format: "%.1f MB", bytes / 1e6) }
}
