import Foundation
import Testing
@testable import TravelogCore
import TravelogTestSupport

@Suite("Region monitoring is deterministic and its index finds every region")
struct RegionDeterminismTests {
    /// Regions scattered over a few kilometres around the synthetic day's origin: circles of
    /// 20 m to 2 km and some squares, different for every seed.
    static func regions(seed: UInt64, count: Int) -> [MonitoredRegion] {
        var random = SplitMix64(seed: seed &+ 77)
        return (0..<count).map { index in
            let center = SyntheticDay.coordinate(east: (random.nextUnit() - 0.5) * 8_000, north: (random.nextUnit() - 0.5) * 8_000)
            let radius = 20 * pow(100, random.nextUnit())
            if index % 4 == 3 {
                let corners = [45.0, 135, 225, 315].map { center.destination(bearingDegrees: $0, distanceMeters: radius * 1.4) }
                return try! MonitoredRegion(identifier: "square \(index)", shape: .polygon(Polygon(exteriorRing: corners)),
                                            notifyOnExit: index % 3 != 0)
            }
            return try! MonitoredRegion.circle("circle \(index)", center: center, radiusMeters: radius, notifyOnEntry: index % 5 != 0)
        }
    }

    static func monitor(seed: UInt64, count: Int) -> RegionMonitor {
        var monitor = RegionMonitor(configuration: .init(maximumRegionCount: count))
        for region in regions(seed: seed, count: count) { try! monitor.register(region) }
        return monitor
    }

    static func events(_ locations: [Location], chunks: [Int], seed: UInt64) -> [RegionEvent] {
        var monitor = monitor(seed: seed, count: 60)
        var events: [RegionEvent] = []
        var start = 0
        for size in chunks {
            let end = min(locations.count, start + size)
            events += monitor.ingest(contentsOf: locations[start..<end])
            start = end
        }
        for location in locations[start...] { events += monitor.ingest(location) }
        return events
    }

    @Test("feeding a day fix by fix, in random chunks, or at once gives exactly the same transitions",
          arguments: UInt64(1)...6)
    func randomChunkings(seed: UInt64) {
        let locations = VisitDeterminismTests.randomDay(seed: seed)
        let whole = Self.events(locations, chunks: [locations.count], seed: seed)
        #expect(whole.count >= 4, "the day should cross regions")
        #expect(Self.events(locations, chunks: Array(repeating: 1, count: locations.count), seed: seed) == whole)
        var random = SplitMix64(seed: seed &* 7_919)
        for _ in 0..<10 {
            var chunks: [Int] = []
            var total = 0
            while total < locations.count {
                let size = Int(random.next() % 200)
                chunks.append(size)
                total += size
            }
            #expect(Self.events(locations, chunks: chunks, seed: seed) == whole)
        }
    }

    @Test("the spatial index changes nothing: the same events as testing every region on every fix",
          arguments: UInt64(1)...4)
    func indexAgreesWithBruteForce(seed: UInt64) {
        let configuration = RegionMonitor.Configuration(maximumRegionCount: 300)
        let regions = Self.regions(seed: seed, count: 300)
        var monitor = RegionMonitor(configuration: configuration)
        for region in regions { try! monitor.register(region) }
        var trackers = Array(repeating: RegionTracker(), count: regions.count)
        let geometries = regions.map { RegionGeometry($0, equivalentRadiusMeters: $0.equivalentRadiusMeters, configuration: configuration) }
        var expected: [RegionEvent] = []
        var actual: [RegionEvent] = []
        for location in VisitDeterminismTests.randomDay(seed: seed) {
            actual += monitor.ingest(location)
            let fix = RegionFix(location.coordinate)
            for (index, region) in regions.enumerated() where location.horizontalAccuracyMeters <= geometries[index].resolvableAccuracyMeters {
                guard let crossing = trackers[index].step(geometries[index].side(of: fix), time: location.timestamp, dwellSeconds: 20),
                      crossing.kind == .entry ? region.notifyOnEntry : region.notifyOnExit else { continue }
                expected.append(RegionEvent(kind: crossing.kind, regionIdentifier: region.identifier,
                                            crossingTime: crossing.crossingTime, location: location))
            }
        }
        #expect(expected.count >= 10)
        #expect(actual == expected)
        for (index, region) in regions.enumerated() {
            #expect(monitor.state(ofRegion: region.identifier) == trackers[index].state)
        }
    }
}
