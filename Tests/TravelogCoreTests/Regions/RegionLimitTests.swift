import Foundation
import Testing
import TravelogCore

@Suite("Region monitoring refuses what it cannot watch, with a clear error")
struct RegionLimitTests {
    static let center = Coordinate.at(48.8566, 2.3522)

    @Test("a radius outside the limits is refused", arguments: [0.0, 5, 400_001, 1_000_000])
    func radiusOutOfRange(radius: Double) throws {
        var monitor = RegionMonitor()
        let region = try MonitoredRegion.circle("r", center: Self.center, radiusMeters: radius)
        #expect(throws: RegionMonitoringError.radiusOutOfRange(identifier: "r", radiusMeters: radius, allowedMeters: 10...400_000)) {
            try monitor.register(region)
        }
        #expect(monitor.monitoredRegions.isEmpty)
    }

    @Test("a polygon is measured by the radius of the circle of its area")
    func polygonSize() throws {
        // About 4 m × 4 m: the circle of that area has a radius of about 2.3 m.
        let tiny = try Polygon(exteriorRing: [.at(0, 0), .at(0, 0.00004), .at(0.00004, 0.00004), .at(0.00004, 0)])
        let region = try MonitoredRegion(identifier: "tiny", shape: .polygon(tiny))
        #expect(abs(region.equivalentRadiusMeters - 2.5) < 0.3)  // (4.45 m × 4.42 m / π)^½ = 2.50 m
        var monitor = RegionMonitor()
        #expect(throws: RegionMonitoringError.self) { try monitor.register(region) }
    }

    @Test("the per-device limit refuses one region more, with the limit in the error; replacing is allowed")
    func regionLimit() throws {
        var monitor = RegionMonitor()
        for index in 0..<20 {
            try monitor.register(.circle("r\(index)", center: Self.center, radiusMeters: 100 + Double(index)))
        }
        let extra = try MonitoredRegion.circle("one too many", center: Self.center, radiusMeters: 100)
        #expect(throws: RegionMonitoringError.regionLimitReached(identifier: "one too many", limit: 20)) {
            try monitor.register(extra)
        }
        try monitor.register(.circle("r3", center: Self.center, radiusMeters: 300))
        #expect(monitor.monitoredRegions.count == 20)
        #expect(monitor.monitoredRegions[3] == (try .circle("r3", center: Self.center, radiusMeters: 300)))
        monitor.unregister(identifier: "r0")
        try monitor.register(extra)
        #expect(monitor.monitoredRegions.count == 20)
    }

    @Test("a region needs an identifier")
    func emptyIdentifier() {
        #expect(throws: RegionMonitoringError.emptyIdentifier) {
            try MonitoredRegion.circle("", center: Self.center, radiusMeters: 100)
        }
    }

    @Test("errors read as sentences")
    func descriptions() {
        #expect(RegionMonitoringError.regionLimitReached(identifier: "gym", limit: 20).description
                == "region \"gym\": already monitoring 20 regions, the limit; remove one first")
        #expect(RegionMonitoringError.radiusOutOfRange(identifier: "x", radiusMeters: 5, allowedMeters: 10...400_000).description
                == "region \"x\": radius 5.0 m is outside 10.0...400000.0 m")
    }
}
