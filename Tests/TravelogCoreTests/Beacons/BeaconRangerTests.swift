import Foundation
import Testing
import TravelogCore

@Suite("Beacon ranging")
struct BeaconRangerTests {
    static let uuid = UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
    static let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    static func sighting(minor: UInt16, rssi: Int, at seconds: Double, power: Int8 = -59, major: UInt16 = 7) -> BeaconSighting {
        BeaconSighting(advertisement: IBeaconAdvertisement(identity: BeaconIdentity(proximityUUID: uuid, major: major, minor: minor),
                                                           measuredPowerDBm: power),
                       rssiDBm: rssi, timestamp: start.addingTimeInterval(seconds))
    }

    @Test("distance follows the log-distance model: measured power at 1 m, 10n dB per decade",
          arguments: [(-59, 1.0), (-79, 10.0), (-39, 0.1), (-65, 1.9952623149688795)])
    func distance(rssi: Int, meters: Double) {
        let ranger = BeaconRanger()
        // 10^((−59 − rssi) / 20), computed with Python.
        #expect(abs(ranger.estimatedDistanceMeters(meanRSSIDBm: Double(rssi), measuredPowerDBm: -59) - meters) < 1e-12)
    }

    @Test("proximity: immediate below 0.5 m, near below 3 m, far beyond",
          arguments: [(0.2, BeaconProximity.immediate), (0.5, .near), (2.9, .near), (3, .far), (40, .far)])
    func proximity(meters: Double, expected: BeaconProximity) {
        #expect(BeaconRanger().proximity(distanceMeters: meters) == expected)
    }

    @Test("beacons come nearest first, each from the mean RSSI of its window")
    func sortedByDistance() {
        var ranger = BeaconRanger()
        for second in 0..<10 {
            let t = Double(second)
            ranger.ingest(Self.sighting(minor: 1, rssi: second % 2 == 0 ? -75 : -85, at: t))         // mean -80: 11.2 m
            ranger.ingest(Self.sighting(minor: 2, rssi: -60, at: t + 0.3))                           // 1.1 m
            ranger.ingest(Self.sighting(minor: 3, rssi: -45, at: t + 0.6, power: -59))               // 0.2 m
        }
        let ranged = ranger.rangedBeacons(at: Self.start.addingTimeInterval(9.7))
        #expect(ranged.map(\.identity.minor) == [3, 2, 1])
        #expect(ranged.map(\.proximity) == [.immediate, .near, .far])
        #expect(ranged[2].meanRSSIDBm == -80)
        #expect(ranged[2].sampleCount == 10)
    }

    @Test("the window smooths: only samples of the last 20 s count")
    func window() {
        var ranger = BeaconRanger()
        for second in 0..<60 { ranger.ingest(Self.sighting(minor: 1, rssi: second < 30 ? -90 : -60, at: Double(second))) }
        let ranged = ranger.rangedBeacons(at: Self.start.addingTimeInterval(59.5))
        #expect(ranged.first?.meanRSSIDBm == -60)
        #expect(ranged.first?.sampleCount == 20)
    }

    @Test("a beacon not heard for a second is unknown, and after 10 s it is gone")
    func lostBeacon() {
        var ranger = BeaconRanger()
        ranger.ingest(Self.sighting(minor: 1, rssi: -70, at: 0))
        ranger.ingest(Self.sighting(minor: 2, rssi: -90, at: 5))
        let later = ranger.rangedBeacons(at: Self.start.addingTimeInterval(5.5))
        #expect(later.map(\.identity.minor) == [2, 1], "the unknown one comes last")
        #expect(later.map(\.proximity) == [.far, .unknown])
        #expect(later[1].estimatedDistanceMeters == nil && later[1].meanRSSIDBm == nil)
        #expect(ranger.rangedBeacons(at: Self.start.addingTimeInterval(10)).map(\.identity.minor) == [2])
    }

    @Test("ranging can be limited to a region's beacons")
    func satisfying() throws {
        var ranger = BeaconRanger()
        ranger.ingest(Self.sighting(minor: 1, rssi: -70, at: 0, major: 7))
        ranger.ingest(Self.sighting(minor: 1, rssi: -70, at: 0, major: 8))
        let region = try BeaconRegion(identifier: "store 8", proximityUUID: Self.uuid, major: 8)
        #expect(ranger.rangedBeacons(at: Self.start, satisfying: region).map(\.identity.major) == [8])
    }
}
