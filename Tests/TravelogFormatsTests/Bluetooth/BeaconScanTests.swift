import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogTestSupport

@Suite("a scan's beacons and beacon regions, told as btmon's stream arrives")
struct BeaconScanTests {
    static func regions() throws -> [BeaconRegion] {
        [try BeaconRegion(identifier: "desk", proximityUUID: BeaconScanCapture.uuid, major: 100, minor: 3),
         try BeaconRegion(identifier: "shop", proximityUUID: BeaconScanCapture.uuid, major: 100),
         try BeaconRegion(identifier: "visitor", proximityUUID: BeaconScanCapture.other)]
    }

    static func events(_ pieces: [ArraySlice<UInt8>]) throws -> [BeaconScan.Event] {
        var scan = try BeaconScan(regions: regions())
        var events: [BeaconScan.Event] = []
        for piece in pieces { events += try scan.append(piece) }
        try scan.finish()
        return events
    }

    /// An event as (what, region or beacon "major.minor", seconds after 1970, whether it is about a beacon).
    static func summary(_ event: BeaconScan.Event) -> (String, String, Double, Bool) {
        switch event {
        case .region(let crossing):
            ("\(crossing.kind)", crossing.regionIdentifier, crossing.time.timeIntervalSince1970, false)
        case let .determined(region, state, time): ("\(state)", region, time.timeIntervalSince1970, false)
        case let .ranged(beacon, time):
            ("\(beacon.proximity)", "\(beacon.identity.major).\(beacon.identity.minor)", time.timeIntervalSince1970, true)
        case let .lost(beacon, time): ("lost", "\(beacon.major).\(beacon.minor)", time.timeIntervalSince1970, true)
        }
    }

    @Test("the regions: already inside the shop and at the desk, the visitor's beacon comes and goes, the desk is left 30 s after its beacon's last advertisement and entered again")
    func regionEvents() throws {
        let events = try Self.events([try BeaconScanCapture.bytes()[...]]).map(Self.summary).filter { !$0.3 }
        let expected: [(String, String, Double)] = [
            ("inside", "shop", 1_000.01), ("inside", "desk", 1_000.4), ("outside", "visitor", 1_030.01), ("entry", "visitor", 1_030.5),
            ("exit", "desk", 1_019.4 + 30), ("entry", "desk", 1_060.4), ("exit", "visitor", 1_039.5 + 30),
        ]
        #expect(events.map { "\($0.0) \($0.1)" } == expected.map { "\($0.0) \($0.1)" })
        // The capture's times are whole 100 µs; a Date keeps them to well under a microsecond.
        #expect(zip(events, expected).allSatisfy { abs($0.2 - $1.2) < 1e-6 }, "\(events)")
    }

    @Test("ranging tells each beacon when first heard, with its proximity, and when lost; the beacon held close twice")
    func rangingEvents() throws {
        let events = try Self.events([try BeaconScanCapture.bytes()[...]]).map(Self.summary).filter(\.3)
        let desk = events.filter { $0.1 == "100.3" }.map(\.0)
        #expect(desk == ["immediate", "lost", "immediate"])
        #expect(events.filter { $0.1 == "100.2" }.map(\.0) == ["near"])
        #expect(events.filter { $0.1 == "100.1" }.map(\.0) == ["far"])
        #expect(events.filter { $0.1 == "1.1" }.map(\.0) == ["far", "lost"], "the visitor's beacon, 8 m away for 10 s")
        let lost = try #require(events.first { $0.0 == "lost" && $0.1 == "100.3" })
        // Ranging looks once a second; the ranger forgets a beacon after 10 s of silence.
        #expect(lost.2 >= 1_019.4 + 10 && lost.2 < 1_019.4 + 11)
    }

    @Test("fed in random pieces the scan tells the same events as fed the whole capture", arguments: [UInt64(11), 12, 13, 14])
    func chunking(seed: UInt64) throws {
        let bytes = try BeaconScanCapture.bytes()
        let whole = try Self.events([bytes[...]])
        let pieces = try Self.events(BeaconScanCapture.chunks(bytes, seed: seed, largest: seed == 11 ? 3 : 700))
        #expect(pieces == whole)
    }

    @Test("regions beyond the monitor's limit are refused")
    func limit() throws {
        let regions = try (0..<3).map { try BeaconRegion(identifier: "r\($0)", proximityUUID: BeaconScanCapture.uuid, major: UInt16($0)) }
        #expect(throws: BeaconRegionError.regionLimitReached(identifier: "r2", limit: 2)) {
            _ = try BeaconScan(regions: regions, monitor: BeaconRegionMonitor(maximumRegionCount: 2))
        }
    }
}
