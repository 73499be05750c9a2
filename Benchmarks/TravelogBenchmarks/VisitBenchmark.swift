import Foundation
import TravelogCore

/// `visits`: visit detection over 10M generated locations (a fix every 10 s for about three years
/// of days: stays at a handful of places with GPS jitter, walks and drives between them), fed in
/// time order; the figure is locations per second. Target: 10M in under 10 s (trackintel, the
/// Python reference, does about 46k locations/s here).
enum VisitBenchmark {
    static var locationCount: Int {
        ProcessInfo.processInfo.environment["TRAVELOG_BENCH_VISIT_LOCATIONS"].flatMap(Int.init) ?? 10_000_000
    }

    static func run(_ context: BenchmarkContext) throws {
        let start = ContinuousClock.now
        let locations = generated(count: locationCount)
        print(String(format: "generated %d locations in %.2f s (not counted)", locations.count, seconds(since: start)))
        var detector = VisitDetector()
        var departures = 0
        let detection = ContinuousClock.now
        for location in locations {
            for event in detector.ingest(location) {
                if case .departed = event { departures += 1 }
            }
        }
        departures += detector.finish().count
        let elapsed = seconds(since: detection)
        print(String(format: "visit detection: %d locations in %.2f s, %.2f M locations/s, %d visits (target: 10M in < 10 s)",
                     locations.count, elapsed, Double(locations.count) / elapsed / 1e6, departures))
        let merging = ContinuousClock.now
        let merged = VisitMerger().merged(VisitDetector.visits(in: locations.prefix(1_000_000)))
        print(String(format: "detect + merge of the first 1M locations: %.2f s, %d visits", seconds(since: merging), merged.count))
    }

    /// A day: home, a trip to one of five places, a stay, a trip back; 30 m jitter at places.
    static func generated(count: Int) -> [Location] {
        var random = SplitMix64(seed: 2026)
        let places = (0..<6).map { index in
            Coordinate(validLatitude: 52.40 + Double(index) * 0.013, longitude: 13.30 + Double(index % 3) * 0.021)!
        }
        var locations: [Location] = []
        locations.reserveCapacity(count)
        var time = 1_600_000_000.0
        var here = places[0]
        func jitter() -> Double { (Double(random.next() % 2001) - 1000) / 1000 * 0.0003 }
        while locations.count < count {
            let destination = places[Int(random.next() % UInt64(places.count))]
            let stayFixes = 30 + Int(random.next() % 600)
            for _ in 0..<stayFixes where locations.count < count {
                locations.append(Location(coordinate: Coordinate(validLatitude: here.latitude + jitter(), longitude: here.longitude + jitter())!,
                                          horizontalAccuracyMeters: 10 + Double(random.next() % 30), timestamp: Date(timeIntervalSince1970: time)))
                time += 10
            }
            let tripFixes = 20 + Int(random.next() % 100)
            for step in 0..<tripFixes where locations.count < count {
                let t = Double(step) / Double(tripFixes)
                locations.append(Location(coordinate: Coordinate(validLatitude: here.latitude + (destination.latitude - here.latitude) * t,
                                                                 longitude: here.longitude + (destination.longitude - here.longitude) * t)!,
                                          horizontalAccuracyMeters: 8, timestamp: Date(timeIntervalSince1970: time)))
                time += 10
            }
            here = destination
        }
        return locations
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }
}
