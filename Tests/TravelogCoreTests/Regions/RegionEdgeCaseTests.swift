import Foundation
import Testing
import TravelogCore

@Suite("Region monitoring at the edges: poles, small regions, no dwell, equal times")
struct RegionEdgeCaseTests {
    @Test("a circle around the North Pole is entered and left across it")
    func polarCircle() throws {
        let pole = Coordinate.at(90, 0)
        var monitor = RegionMonitor()
        try monitor.register(.circle("pole", center: .at(89.95, 40), radiusMeters: 20_000))
        var walk = RegionWalk(center: pole, intervalSeconds: 10)
        walk.stay(atMeters: 60_000, seconds: 60, bearingDegrees: 180)
        walk.stay(atMeters: 1_000, seconds: 60, bearingDegrees: 100)       // a kilometre from the pole, elsewhere in longitude
        walk.stay(atMeters: 60_000, seconds: 60, bearingDegrees: 0)        // out on the other side of the world
        #expect(monitor.ingest(contentsOf: walk.locations).map(\.kind) == [.entry, .exit])
    }

    @Test("a small region's cushion is half its radius, so it still has an inside")
    func smallRegion() throws {
        let center = Coordinate.at(35.6762, 139.6503)
        var monitor = RegionMonitor()
        try monitor.register(.circle("desk", center: center, radiusMeters: 20))
        var walk = RegionWalk(center: center, accuracyMeters: 3)
        walk.stay(atMeters: 100, seconds: 30)
        walk.stay(atMeters: 8, seconds: 30)                                 // within 10 m: inside by the 10 m cushion
        walk.stay(atMeters: 25, seconds: 60)                                // 5 m out: within the cushion, nothing
        #expect(monitor.ingest(contentsOf: walk.locations).map(\.kind) == [.entry])
        #expect(monitor.state(ofRegion: "desk") == .inside)
    }

    @Test("without a dwell time a crossing is reported at its first fix beyond the cushion")
    func noDwell() throws {
        let center = Coordinate.at(-33.8688, 151.2093)
        var monitor = RegionMonitor(configuration: .init(dwellSeconds: 0))
        try monitor.register(.circle("quay", center: center, radiusMeters: 200))
        var walk = RegionWalk(center: center)
        walk.stay(atMeters: 0, seconds: 10)
        walk.fix(atMeters: 500)
        let events = monitor.ingest(contentsOf: walk.locations)
        #expect(events.map(\.kind) == [.exit])
        #expect(events.first?.crossingTime == events.first?.location.timestamp)
    }

    @Test("fixes with equal times are all taken; only older ones are dropped")
    func equalTimes() throws {
        let center = Coordinate.at(40.4168, -3.7038)
        var monitor = RegionMonitor()
        try monitor.register(.circle("sol", center: center, radiusMeters: 100))
        let at = { (meters: Double, seconds: Double) in
            Location(coordinate: center.destination(bearingDegrees: 90, distanceMeters: meters), horizontalAccuracyMeters: 5,
                     timestamp: RegionWalk.date(seconds))
        }
        _ = monitor.ingest(contentsOf: [at(0, 0), at(0, 0), at(500, 10), at(500, 10), at(500, 30)])
        #expect(monitor.outOfOrderCount == 0)
        #expect(monitor.state(ofRegion: "sol") == .outside)
        _ = monitor.ingest(at(0, 29))
        #expect(monitor.outOfOrderCount == 1)
    }

    @Test("a fix reporting an accuracy of 0 m is valid; -1 is not", arguments: [0.0, -1])
    func zeroAccuracy(accuracy: Double) throws {
        let center = Coordinate.at(51.5074, -0.1278)
        var monitor = RegionMonitor()
        try monitor.register(.circle("square", center: center, radiusMeters: 100))
        _ = monitor.ingest(Location(coordinate: center, horizontalAccuracyMeters: accuracy, timestamp: RegionWalk.date(0)))
        #expect(monitor.state(ofRegion: "square") == (accuracy == 0 ? .inside : .unknown))
    }
}
