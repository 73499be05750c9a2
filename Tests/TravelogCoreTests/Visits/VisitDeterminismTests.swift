import Foundation
import Testing
import TravelogCore
import TravelogTestSupport

@Suite("Visit detection is deterministic")
struct VisitDeterminismTests {
    /// A day of stays, walks, drives, gaps and outliers, different for every seed.
    static func randomDay(seed: UInt64) -> [Location] {
        var day = SyntheticDay(intervalSeconds: 20, accuracyMeters: 15, seed: seed)
        var random = SplitMix64(seed: seed &+ 1_000)
        for _ in 0..<12 {
            switch random.next() % 5 {
            case 0: day.gap(seconds: Double(random.next() % 7_200))
            case 1: day.fix(offsetEast: 1_500)
            default: break
            }
            day.stay(seconds: Double(60 + random.next() % 3_000))
            let bearing = random.nextUnit() * 2 * .pi, length = 50 + random.nextUnit() * 3_000
            day.move(toEast: day.east + length * sin(bearing), toNorth: day.north + length * cos(bearing),
                     speedMetersPerSecond: [1.3, 4.5, 12][Int(random.next() % 3)])
        }
        return day.locations
    }

    static func events(_ locations: [Location], chunks: [Int]) -> [VisitEvent] {
        var detector = VisitDetector()
        var events: [VisitEvent] = []
        var start = 0
        for size in chunks {
            let end = min(locations.count, start + size)
            events += detector.ingest(contentsOf: locations[start..<end])
            start = end
        }
        for location in locations[start...] { events += detector.ingest(location) }
        return events + detector.finish()
    }

    @Test("feeding a day point by point, in random chunks, or at once gives exactly the same events",
          arguments: UInt64(1)...8)
    func randomChunkings(seed: UInt64) {
        let locations = Self.randomDay(seed: seed)
        let whole = Self.events(locations, chunks: [locations.count])
        #expect(whole.count >= 4, "the day should hold visits")
        #expect(Self.events(locations, chunks: Array(repeating: 1, count: locations.count)) == whole)
        var random = SplitMix64(seed: seed &* 7_919)
        for _ in 0..<20 {
            var chunks: [Int] = []
            var total = 0
            while total < locations.count {
                let size = Int(random.next() % 200)
                chunks.append(size)
                total += size
            }
            #expect(Self.events(locations, chunks: chunks) == whole)
        }
    }

    @Test("equal inputs built separately give == visits", arguments: UInt64(1)...4)
    func equalInputs(seed: UInt64) {
        let original = Self.randomDay(seed: seed)
        // The same values, through the public initialiser again.
        let copy = original.map {
            Location(coordinate: Coordinate(validLatitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude)!,
                     horizontalAccuracyMeters: $0.horizontalAccuracyMeters, speedMetersPerSecond: $0.speedMetersPerSecond,
                     timestamp: Date(timeIntervalSinceReferenceDate: $0.timestamp.timeIntervalSinceReferenceDate))
        }
        let visits = VisitDetector.visits(in: original)
        #expect(!visits.isEmpty)
        #expect(VisitDetector.visits(in: copy) == visits)
        #expect(VisitMerger().merged(VisitDetector.visits(in: copy)) == VisitMerger().merged(visits))
    }
}
