import Foundation
import Testing
import TravelogCore
import TravelogTestSupport

@Suite("Beacon-region monitoring")
struct BeaconRegionMonitorTests {
    static let uuid = BeaconRangerTests.uuid
    static func at(_ seconds: Double) -> Date { BeaconRangerTests.start.addingTimeInterval(seconds) }
    static func sighting(minor: UInt16 = 1, at seconds: Double, major: UInt16 = 7) -> BeaconSighting {
        BeaconRangerTests.sighting(minor: minor, rssi: -70, at: seconds, major: major)
    }

    static func monitor(_ regions: BeaconRegion...) throws -> BeaconRegionMonitor {
        var monitor = BeaconRegionMonitor()
        for region in regions { try monitor.register(region) }
        return monitor
    }

    @Test("a region's beacons heard right after registration: inside, without an entry")
    func alreadyInside() throws {
        var monitor = try Self.monitor(BeaconRegion(identifier: "office", proximityUUID: Self.uuid))
        #expect(monitor.state(ofRegion: "office") == .unknown)
        #expect(monitor.ingest(contentsOf: (0..<10).map { Self.sighting(at: Double($0)) }).isEmpty)
        #expect(monitor.state(ofRegion: "office") == .inside)
    }

    @Test("silence after registration makes the region outside; the next sighting is an entry; 30 s of silence an exit")
    func entryAndExit() throws {
        var monitor = try Self.monitor(BeaconRegion(identifier: "office", proximityUUID: Self.uuid))
        #expect(monitor.advance(to: Self.at(0)).isEmpty)
        #expect(monitor.advance(to: Self.at(30)).isEmpty)
        #expect(monitor.state(ofRegion: "office") == .outside)
        let entries = monitor.ingest(contentsOf: (40..<60).map { Self.sighting(at: Double($0)) })
        #expect(entries.map(\.kind) == [.entry])
        #expect(entries.first?.regionIdentifier == "office" && entries.first?.time == Self.at(40))
        #expect(entries.first?.beacon == Self.sighting(at: 40).identity)
        #expect(monitor.advance(to: Self.at(88)).isEmpty, "29 s after the last sighting")
        let exits = monitor.advance(to: Self.at(200))
        #expect(exits.map(\.kind) == [.exit])
        #expect(exits.first?.time == Self.at(89), "timed at the last sighting plus 30 s, not when noticed")
        #expect(monitor.state(ofRegion: "office") == .outside)
    }

    @Test("a region with a major and minor sees only that beacon; another region sees the others")
    func constraints() throws {
        var monitor = try Self.monitor(BeaconRegion(identifier: "desk", proximityUUID: Self.uuid, major: 7, minor: 2),
                                       BeaconRegion(identifier: "floor", proximityUUID: Self.uuid, major: 7))
        _ = monitor.advance(to: Self.at(0))
        _ = monitor.advance(to: Self.at(31))
        let events = monitor.ingest(Self.sighting(minor: 1, at: 32))
        #expect(events.map(\.regionIdentifier) == ["floor"])
        #expect(monitor.ingest(Self.sighting(minor: 2, at: 33)).map(\.regionIdentifier) == ["desk"])
        #expect(monitor.ingest(Self.sighting(minor: 3, at: 34, major: 8)).isEmpty)
    }

    @Test("a minor without a major is refused, as are an empty identifier and a region over the limit")
    func refusals() throws {
        #expect(throws: BeaconRegionError.minorWithoutMajor(minor: 3)) { try BeaconRegion(identifier: "x", proximityUUID: Self.uuid, minor: 3) }
        #expect(throws: BeaconRegionError.emptyIdentifier) { try BeaconRegion(identifier: "", proximityUUID: Self.uuid) }
        var monitor = BeaconRegionMonitor(maximumRegionCount: 2)
        try monitor.register(BeaconRegion(identifier: "a", proximityUUID: Self.uuid))
        try monitor.register(BeaconRegion(identifier: "b", proximityUUID: Self.uuid))
        #expect(throws: BeaconRegionError.regionLimitReached(identifier: "c", limit: 2)) {
            try monitor.register(BeaconRegion(identifier: "c", proximityUUID: Self.uuid))
        }
        try monitor.register(BeaconRegion(identifier: "a", proximityUUID: Self.uuid, major: 1))
        #expect(monitor.monitoredRegions.map(\.major) == [1, nil])
    }

    @Test("sightings fed one by one, in chunks or at once give the same events", arguments: UInt64(1)...4)
    func chunking(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var time = 0.0
        var sightings: [BeaconSighting] = []
        for _ in 0..<400 {
            time += random.nextUnit() < 0.05 ? 20 + random.nextUnit() * 60 : random.nextUnit() * 3
            sightings.append(Self.sighting(minor: UInt16(random.next() % 3), at: time, major: UInt16(7 + random.next() % 2)))
        }
        func run(_ chunks: [ArraySlice<BeaconSighting>]) throws -> [BeaconRegionEvent] {
            var monitor = try Self.monitor(BeaconRegion(identifier: "uuid", proximityUUID: Self.uuid),
                                           BeaconRegion(identifier: "7", proximityUUID: Self.uuid, major: 7),
                                           BeaconRegion(identifier: "8.2", proximityUUID: Self.uuid, major: 8, minor: 2))
            return chunks.flatMap { monitor.ingest(contentsOf: $0) } + monitor.advance(to: Self.at(time + 100))
        }
        let whole = try run([sightings[...]])
        #expect(whole.filter { $0.kind == .exit }.count >= 3)
        #expect(try run(sightings.map { [$0][...] }) == whole)
        var chunks: [ArraySlice<BeaconSighting>] = []
        var start = 0
        while start < sightings.count {
            let end = min(sightings.count, start + Int(random.next() % 50))
            chunks.append(sightings[start..<end])
            start = end
        }
        #expect(try run(chunks) == whole)
    }
}
