import Foundation
import Testing
import TravelogCore

@Suite("Region monitoring: Core Location's semantics")
struct RegionMonitorTests {
    static let home = Coordinate.at(52.52, 13.405)

    static func monitor(_ regions: MonitoredRegion..., configuration: RegionMonitor.Configuration = .init()) throws -> RegionMonitor {
        var monitor = RegionMonitor(configuration: configuration)
        for region in regions { try monitor.register(region) }
        return monitor
    }

    static func homeRegion(notifyOnEntry: Bool = true, notifyOnExit: Bool = true) throws -> MonitoredRegion {
        try .circle("home", center: home, radiusMeters: 150, notifyOnEntry: notifyOnEntry, notifyOnExit: notifyOnExit)
    }

    @Test("a new region is unknown, and an unregistered one has no state")
    func unknownAtFirst() throws {
        let monitor = try Self.monitor(Self.homeRegion())
        #expect(monitor.state(ofRegion: "home") == .unknown)
        #expect(monitor.state(ofRegion: "office") == nil)
    }

    @Test("registering a region the device is already inside produces no event; its state becomes inside")
    func alreadyInside() throws {
        var monitor = try Self.monitor(Self.homeRegion())
        var walk = RegionWalk(center: Self.home)
        walk.stay(atMeters: 20, seconds: 120)
        #expect(monitor.ingest(contentsOf: walk.locations).isEmpty)
        #expect(monitor.state(ofRegion: "home") == .inside)
    }

    @Test("leaving and staying out for 20 s is one exit, timed at the first fix beyond the cushion")
    func exit() throws {
        var monitor = try Self.monitor(Self.homeRegion())
        var walk = RegionWalk(center: Self.home)
        walk.stay(atMeters: 20, seconds: 60)          // 0…55 s inside
        walk.stay(atMeters: 400, seconds: 60)         // 60…115 s outside
        let events = monitor.ingest(contentsOf: walk.locations)
        #expect(events.map(\.kind) == [.exit])
        #expect(events.first?.regionIdentifier == "home")
        #expect(events.first?.crossingTime == RegionWalk.date(60))
        #expect(events.first?.location.timestamp == RegionWalk.date(80))
        #expect(monitor.state(ofRegion: "home") == .outside)
    }

    @Test("entering from outside is an entry after the dwell time")
    func entry() throws {
        var monitor = try Self.monitor(Self.homeRegion())
        var walk = RegionWalk(center: Self.home)
        walk.stay(atMeters: 1_000, seconds: 30)
        walk.stay(atMeters: 30, seconds: 30)
        let events = monitor.ingest(contentsOf: walk.locations)
        #expect(events.map(\.kind) == [.entry])
        #expect(events.first?.crossingTime == RegionWalk.date(30))
        #expect(events.first?.location.timestamp == RegionWalk.date(50))
    }

    @Test("beyond the boundary for less than the dwell time is no crossing", arguments: [5.0, 10, 15])
    func shortExcursion(seconds: Double) throws {
        var monitor = try Self.monitor(Self.homeRegion())
        var walk = RegionWalk(center: Self.home)
        walk.stay(atMeters: 20, seconds: 60)
        walk.stay(atMeters: 400, seconds: seconds)
        walk.stay(atMeters: 20, seconds: 60)
        #expect(monitor.ingest(contentsOf: walk.locations).isEmpty)
        #expect(monitor.state(ofRegion: "home") == .inside)
    }

    @Test("a device wandering along the edge, within the cushion, produces no events")
    func wanderingAlongTheEdge() throws {
        var monitor = try Self.monitor(Self.homeRegion())
        var walk = RegionWalk(center: Self.home, intervalSeconds: 1)
        walk.stay(atMeters: 20, seconds: 30)
        for step in 0..<3_600 {
            // ±20 m around the 150 m boundary, crossing it every few seconds, all round the circle.
            walk.fix(atMeters: 150 + 20 * sin(Double(step) * 0.9), bearingDegrees: Double(step % 360))
        }
        #expect(monitor.ingest(contentsOf: walk.locations).isEmpty)
        #expect(monitor.state(ofRegion: "home") == .inside)
    }

    @Test("a fix within the cushion cancels a pending crossing")
    func cushionCancels() throws {
        var monitor = try Self.monitor(Self.homeRegion())
        var walk = RegionWalk(center: Self.home)
        walk.stay(atMeters: 20, seconds: 30)
        walk.stay(atMeters: 400, seconds: 15)
        walk.fix(atMeters: 160)                         // beyond the boundary, within the cushion
        walk.stay(atMeters: 400, seconds: 15)
        #expect(monitor.ingest(contentsOf: walk.locations).isEmpty)
        walk.stay(atMeters: 400, seconds: 10)
        #expect(monitor.ingest(contentsOf: walk.locations.suffix(2)).map(\.kind) == [.exit])
    }

    @Test("a fix whose accuracy is worse than the region can resolve changes nothing")
    func inaccurateFixes() throws {
        var monitor = try Self.monitor(Self.homeRegion())
        var walk = RegionWalk(center: Self.home)
        walk.stay(atMeters: 20, seconds: 30)
        for _ in 0..<20 { walk.fix(atMeters: 2_000, accuracyMeters: 1_500) }   // a cell tower's fix, far off
        #expect(monitor.ingest(contentsOf: walk.locations).isEmpty)
        #expect(monitor.state(ofRegion: "home") == .inside)
        // The same fixes make a 5 km region's state, which they can resolve.
        var large = try Self.monitor(.circle("district", center: Self.home, radiusMeters: 5_000))
        _ = large.ingest(contentsOf: walk.locations.suffix(20))
        #expect(large.state(ofRegion: "district") == .inside)
    }

    @Test("a fix with an invalid accuracy is ignored, unless an accuracy is assumed for it")
    func invalidAccuracy() throws {
        var walk = RegionWalk(center: Self.home, accuracyMeters: -1)
        walk.stay(atMeters: 20, seconds: 30)
        walk.stay(atMeters: 400, seconds: 30)
        var strict = try Self.monitor(Self.homeRegion())
        #expect(strict.ingest(contentsOf: walk.locations).isEmpty)
        #expect(strict.state(ofRegion: "home") == .unknown)
        #expect(strict.invalidAccuracyCount == walk.locations.count)
        var lenient = try Self.monitor(Self.homeRegion(), configuration: .init(invalidAccuracyPolicy: .assume(meters: 10)))
        #expect(lenient.ingest(contentsOf: walk.locations).map(\.kind) == [.exit])
    }

    @Test("the notify flags silence a kind of event, not the state", arguments: [false, true])
    func notifyFlags(notify: Bool) throws {
        var monitor = try Self.monitor(Self.homeRegion(notifyOnEntry: notify, notifyOnExit: !notify))
        var walk = RegionWalk(center: Self.home)
        walk.stay(atMeters: 20, seconds: 30)
        walk.stay(atMeters: 400, seconds: 30)
        let exits = monitor.ingest(contentsOf: walk.locations)
        #expect(monitor.state(ofRegion: "home") == .outside)
        walk.stay(atMeters: 20, seconds: 30)
        let entries = monitor.ingest(contentsOf: walk.locations.suffix(6))
        #expect(monitor.state(ofRegion: "home") == .inside)
        #expect(exits.map(\.kind) == (notify ? [] : [.exit]))
        #expect(entries.map(\.kind) == (notify ? [.entry] : []))
    }

    @Test("a fix older than the latest one is ignored and counted")
    func outOfOrder() throws {
        var monitor = try Self.monitor(Self.homeRegion())
        var walk = RegionWalk(center: Self.home)
        walk.stay(atMeters: 20, seconds: 30)
        _ = monitor.ingest(contentsOf: walk.locations)
        let stale = Location(coordinate: Self.home.destination(bearingDegrees: 0, distanceMeters: 5_000),
                             horizontalAccuracyMeters: 5, timestamp: RegionWalk.date(0))
        #expect(monitor.ingest(stale).isEmpty)
        #expect(monitor.outOfOrderCount == 1)
    }

    @Test("events of one fix come in registration order")
    func eventOrder() throws {
        let identifiers = ["zeta", "alpha", "mid"]
        var monitor = RegionMonitor()
        for identifier in identifiers { try monitor.register(.circle(identifier, center: Self.home, radiusMeters: 100)) }
        var walk = RegionWalk(center: Self.home)
        walk.stay(atMeters: 0, seconds: 30)
        walk.stay(atMeters: 1_000, seconds: 30)
        #expect(monitor.ingest(contentsOf: walk.locations).map(\.regionIdentifier) == identifiers)
    }

    @Test("unregistering a region stops its events; registering it again starts over as unknown")
    func reRegistration() throws {
        var monitor = try Self.monitor(Self.homeRegion())
        var walk = RegionWalk(center: Self.home)
        walk.stay(atMeters: 20, seconds: 30)
        _ = monitor.ingest(contentsOf: walk.locations)
        #expect(monitor.unregister(identifier: "home")?.identifier == "home")
        #expect(monitor.unregister(identifier: "home") == nil)
        #expect(monitor.monitoredRegions.isEmpty)
        try monitor.register(Self.homeRegion())
        #expect(monitor.state(ofRegion: "home") == .unknown)
        walk.stay(atMeters: 400, seconds: 60)
        #expect(monitor.ingest(contentsOf: walk.locations.suffix(12)).isEmpty, "the first fix decides the state, silently")
        #expect(monitor.state(ofRegion: "home") == .outside)
    }
}
