import Foundation
import Testing
@testable import TravelogCore
import TravelogTestSupport

@Suite("Polygon regions, holes and the 180th meridian")
struct PolygonRegionTests {
    /// A park of about 700 m × 560 m in Berlin with a pond (a hole) of about 140 m × 110 m in it.
    static let park = try! Polygon(
        exteriorRing: [.at(52.510, 13.400), .at(52.510, 13.410), .at(52.515, 13.410), .at(52.515, 13.400)],
        interiorRings: [[.at(52.5120, 13.4040), .at(52.5120, 13.4060), .at(52.5130, 13.4060), .at(52.5130, 13.4040)]])

    static func fixes(_ coordinates: [Coordinate], everySeconds interval: Double = 5, from start: Double = 0) -> [Location] {
        coordinates.enumerated().map { index, coordinate in
            Location(coordinate: coordinate, horizontalAccuracyMeters: 5, timestamp: RegionWalk.date(start + Double(index) * interval))
        }
    }

    @Test("walking from outside the park into it, onto the pond and out again: entry, exit, entry, exit")
    func throughTheHole() throws {
        var monitor = RegionMonitor()
        try monitor.register(MonitoredRegion(identifier: "park", shape: .polygon(Self.park)))
        let outside = Coordinate.at(52.505, 13.405), lawn = Coordinate.at(52.511, 13.405), pond = Coordinate.at(52.5125, 13.405)
        let path = Array(repeating: outside, count: 6) + Array(repeating: lawn, count: 6) + Array(repeating: pond, count: 6)
            + Array(repeating: lawn, count: 6) + Array(repeating: outside, count: 6)
        let events = monitor.ingest(contentsOf: Self.fixes(path))
        #expect(events.map(\.kind) == [.entry, .exit, .entry, .exit])
        #expect(events.map(\.crossingTime) == [30, 60, 90, 120].map(RegionWalk.date))
    }

    @Test("the side of a polygon agrees with Polygon.contains away from its edges", arguments: UInt64(1)...4)
    func agreesWithContains(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let region = try MonitoredRegion(identifier: "park", shape: .polygon(Self.park))
        let geometry = RegionGeometry(region, equivalentRadiusMeters: region.equivalentRadiusMeters, configuration: .init())
        var checked = 0
        for _ in 0..<2_000 {
            let coordinate = Coordinate.at(52.505 + random.nextUnit() * 0.015, 13.395 + random.nextUnit() * 0.02)
            switch geometry.side(of: RegionFix(coordinate)) {
            case .inside: #expect(Self.park.contains(coordinate)); checked += 1
            case .outside: #expect(!Self.park.contains(coordinate)); checked += 1
            case .withinCushion: break
            }
        }
        #expect(checked > 1_500)
    }

    @Test("a polygon across the 180th meridian, given as one ring, is monitored on both sides of it")
    func antimeridianPolygon() throws {
        // Taveuni, Fiji, which the 180th meridian crosses: about 4.4 km × 4.4 km.
        let ring: [Coordinate] = [.at(-16.80, 179.98), .at(-16.80, -179.98), .at(-16.76, -179.98), .at(-16.76, 179.98)]
        var monitor = RegionMonitor()
        try monitor.register(MonitoredRegion(identifier: "taveuni", shape: .polygon(Polygon(exteriorRing: ring))))
        let west = Coordinate.at(-16.78, 179.995), east = Coordinate.at(-16.78, -179.995), away = Coordinate.at(-16.78, -179.9)
        let path = Array(repeating: away, count: 6) + Array(repeating: east, count: 6) + Array(repeating: west, count: 6)
            + Array(repeating: away, count: 6)
        #expect(monitor.ingest(contentsOf: Self.fixes(path)).map(\.kind) == [.entry, .exit])
    }

    @Test("a circle on the 180th meridian holds places on both sides of it")
    func antimeridianCircle() throws {
        var monitor = RegionMonitor()
        try monitor.register(.circle("dateline", center: .at(-17, 180), radiusMeters: 1_000))
        let west = Coordinate.at(-17, 179.997), east = Coordinate.at(-17, -179.997), away = Coordinate.at(-17, 179.9)
        let path = Array(repeating: away, count: 6) + Array(repeating: east, count: 6) + Array(repeating: west, count: 6)
            + Array(repeating: away, count: 6)
        #expect(monitor.ingest(contentsOf: Self.fixes(path)).map(\.kind) == [.entry, .exit])
    }
}
