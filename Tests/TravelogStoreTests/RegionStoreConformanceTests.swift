import Foundation
import Testing
import TravelogCore
import TravelogStore

/// The contract of `RegionStore`: every backend passes every test here.
@Suite("RegionStore conformance")
struct RegionStoreConformanceTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static let berlin = Coordinate(validLatitude: 52.52, longitude: 13.405)!

    /// A store with ada (device "phone") that also keeps regions (every backend does).
    static func prepared(_ factory: StoreFactory) async throws -> (any TravelogStore & RegionStore, User, Device) {
        let (store, ada, phone) = try await LocationStoreConformanceTests.prepared(factory)
        let regions = try #require(store as? any TravelogStore & RegionStore, "\(factory.name) keeps no regions")
        return (regions, ada, phone)
    }

    static func home(radiusMeters: Double = 150, name: String = "Home") throws -> RegionDefinition {
        try RegionDefinition(name: name, shape: .circle(Circle(center: berlin, radiusMeters: radiusMeters)))
    }

    static func transition(_ device: Device, _ region: StoredRegion, _ kind: RegionEvent.Kind, minutes: Double,
                           source: RegionTransition.Source = .detected) -> RegionTransition {
        RegionTransition(deviceID: device.id, regionID: region.id, kind: kind, occurredAt: t0.addingTimeInterval(minutes * 60),
                         coordinate: berlin, horizontalAccuracyMeters: 12, source: source)
    }

    @Test("a circle and a polygon with a beacon come back as they were stored", arguments: StoreFactory.all)
    func roundTrip(factory: StoreFactory) async throws {
        let (store, ada, _) = try await Self.prepared(factory)
        let home = try await store.addRegion(try Self.home(), userID: ada.id, at: Self.t0)
        let ring = [(52.50, 13.30), (52.50, 13.32), (52.52, 13.32), (52.52, 13.30)].map { Coordinate(validLatitude: $0.0, longitude: $0.1)! }
        let beacon = try RegionBeacon(proximityUUID: UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!, major: 1, minor: 2)
        let school = try RegionDefinition(name: "School", shape: .polygon(Polygon(exteriorRing: ring)), notifyOnEntry: true,
                                          notifyOnExit: false, beacon: beacon)
        let stored = try await store.addRegion(school, userID: ada.id, at: Self.t0)
        #expect(try await store.regions(userID: ada.id).map(\.definition) == [try Self.home(), school])
        #expect(try await store.region(id: stored.id, userID: ada.id)?.definition == school)
        #expect(try await store.region(id: home.id, userID: ada.id)?.createdAt == Self.t0)
    }

    @Test("a name is unique per user, and another user's region is unknown", arguments: StoreFactory.all)
    func scoping(factory: StoreFactory) async throws {
        let (store, ada, _) = try await Self.prepared(factory)
        let bob = try await store.addUser(named: "bob")
        let home = try await store.addRegion(try Self.home(), userID: ada.id, at: Self.t0)
        await #expect(throws: StoreError.regionExists(name: "Home")) {
            _ = try await store.addRegion(try Self.home(radiusMeters: 300), userID: ada.id, at: Self.t0)
        }
        _ = try await store.addRegion(try Self.home(), userID: bob.id, at: Self.t0)
        #expect(try await store.region(id: home.id, userID: bob.id) == nil)
        #expect(try await store.removeRegion(id: home.id, userID: bob.id) == false)
        await #expect(throws: StoreError.unknownRegion(home.id)) {
            _ = try await store.updateRegion(id: home.id, userID: bob.id, try Self.home(radiusMeters: 99), at: Self.t0)
        }
        #expect(try await store.regions(userID: ada.id).count == 1)
        let work = try await store.addRegion(try Self.home(name: "Work"), userID: ada.id, at: Self.t0)
        await #expect(throws: StoreError.regionExists(name: "Home")) {
            _ = try await store.updateRegion(id: work.id, userID: ada.id, try Self.home(), at: Self.t0)
        }
        await #expect(throws: StoreError.unknownUser(UserID(rawValue: 9_999))) {
            _ = try await store.addRegion(try Self.home(name: "Ghost"), userID: UserID(rawValue: 9_999), at: Self.t0)
        }
    }

    @Test("a transition is stored once per key, and a re-evaluated stretch replaces only detected ones", arguments: StoreFactory.all)
    func transitionsOnce(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await Self.prepared(factory)
        let home = try await store.addRegion(try Self.home(), userID: ada.id, at: Self.t0)
        let leave = Self.transition(phone, home, .exit, minutes: 10)
        let reported = Self.transition(phone, home, .exit, minutes: 11, source: .reported)
        #expect(try await store.recordTransitions([leave, reported], deviceID: phone.id, replacingDetected: nil,
                                                  checkpoint: nil).map(\.transition) == [leave, reported])
        #expect(try await store.recordTransitions([leave], deviceID: phone.id, replacingDetected: nil, checkpoint: nil).isEmpty)
        // Evaluated again from minute 5: the exit is found again (not new), an entry is new.
        let back = Self.transition(phone, home, .entry, minutes: 30)
        let again = try await store.recordTransitions([leave, back], deviceID: phone.id,
                                                      replacingDetected: Self.t0.addingTimeInterval(300)..<Self.t0.addingTimeInterval(7200), checkpoint: nil)
        #expect(again.map(\.transition) == [back])
        let all = try await store.transitions(userID: ada.id, regionID: nil, from: nil, to: nil)
        #expect(all.map(\.transition) == [leave, reported, back])
        #expect(all.first?.transition.coordinate == Self.berlin)
        #expect(all.first?.transition.horizontalAccuracyMeters == 12)
        // A re-evaluation that no longer finds the entry removes it; the reported one stays.
        _ = try await store.recordTransitions([leave], deviceID: phone.id, replacingDetected: Self.t0..<Self.t0.addingTimeInterval(7200), checkpoint: nil)
        #expect(try await store.transitions(userID: ada.id, regionID: home.id, from: nil, to: nil).map(\.transition) == [leave, reported])
        let window = try await store.transitions(userID: ada.id, regionID: nil, from: Self.t0.addingTimeInterval(600.5),
                                                 to: Self.t0.addingTimeInterval(3600))
        #expect(window.map(\.transition) == [reported])
        let bob = try await store.addUser(named: "bob")
        #expect(try await store.transitions(userID: bob.id, regionID: nil, from: nil, to: nil).isEmpty)
        #expect(try await store.removeRegion(id: home.id, userID: ada.id))
        #expect(try await store.transitions(userID: ada.id, regionID: nil, from: nil, to: nil).isEmpty)
        await #expect(throws: StoreError.unknownDevice(DeviceID(rawValue: 9_999))) {
            _ = try await store.recordTransitions([], deviceID: DeviceID(rawValue: 9_999), replacingDetected: nil, checkpoint: nil)
        }
    }

    @Test("a checkpoint comes back; changing a region's area forgets its state, renaming it does not", arguments: StoreFactory.all)
    func checkpoints(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await Self.prepared(factory)
        #expect(try await store.regionCheckpoint(deviceID: phone.id) == nil)
        let home = try await store.addRegion(try Self.home(), userID: ada.id, at: Self.t0)
        let work = try await store.addRegion(try Self.home(name: "Work"), userID: ada.id, at: Self.t0)
        let pending = Self.t0.addingTimeInterval(5)
        let checkpoint = RegionCheckpoint(deviceID: phone.id, evaluatedThrough: Self.t0.addingTimeInterval(10), regions: [
            home.id: .init(state: .inside, pendingCrossingTime: pending),
            work.id: .init(state: .outside, pendingCrossingTime: nil),
            RegionID(rawValue: 9_999): .init(state: .inside, pendingCrossingTime: nil),
        ])
        _ = try await store.recordTransitions([], deviceID: phone.id, replacingDetected: nil, checkpoint: checkpoint)
        var expected = checkpoint
        expected.regions[RegionID(rawValue: 9_999)] = nil
        #expect(try await store.regionCheckpoint(deviceID: phone.id) == expected)
        _ = try await store.updateRegion(id: work.id, userID: ada.id, try Self.home(name: "Office"), at: Self.t0)
        #expect(try await store.regionCheckpoint(deviceID: phone.id) == expected)
        _ = try await store.updateRegion(id: home.id, userID: ada.id, try Self.home(radiusMeters: 400), at: Self.t0)
        expected.regions[home.id] = nil
        #expect(try await store.regionCheckpoint(deviceID: phone.id) == expected)
        #expect(try await store.removeRegion(id: work.id, userID: ada.id))
        #expect(try await store.regionCheckpoint(deviceID: phone.id)?.regions.isEmpty == true)
    }

    @Test("a discarded import takes the detected transitions of its stretch with it, and a checkpoint standing in it; others stay",
          arguments: StoreFactory.all)
    func discardedImport(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await Self.prepared(factory)
        let home = try await store.addRegion(try Self.home(), userID: ada.id, at: Self.t0)
        func fix(minutes: Double) -> Location {
            LocationStoreConformanceTests.fix(52.52, 13.405, secondsAfter: Self.t0.timeIntervalSince(LocationStoreConformanceTests.t0) + minutes * 60)
        }
        func importing(minutes: Range<Int>) async throws -> ImportID {
            let id = try await store.beginImport(deviceID: phone.id, provenance: ImportProvenance(fileName: "broken.gpx", contentSHA256: nil, format: "gpx"))
            _ = try await store.insert(minutes.map { StoredLocation(deviceID: phone.id, location: fix(minutes: Double($0)), source: .fileImport, importID: id) })
            return id
        }
        let before = Self.transition(phone, home, .exit, minutes: -30)   // from the phone, before the import
        let id = try await importing(minutes: 0..<60)
        let decided = [Self.transition(phone, home, .entry, minutes: 10), Self.transition(phone, home, .exit, minutes: 59)]
        let reported = Self.transition(phone, home, .entry, minutes: 20, source: .reported)
        let checkpoint = RegionCheckpoint(deviceID: phone.id, evaluatedThrough: Self.t0.addingTimeInterval(59 * 60),
                                          regions: [home.id: .init(state: .outside, pendingCrossingTime: nil)])
        _ = try await store.recordTransitions([before] + decided + [reported], deviceID: phone.id, replacingDetected: nil, checkpoint: checkpoint)
        try await store.discardImport(id)
        #expect(try await store.transitions(userID: ada.id, regionID: nil, from: nil, to: nil).map(\.transition) == [before, reported])
        #expect(try await store.regionCheckpoint(deviceID: phone.id) == nil, "the monitor's state came from the discarded fixes")
        // The same transitions may be detected again later (their keys are free).
        #expect(try await store.recordTransitions(decided, deviceID: phone.id, replacingDetected: nil, checkpoint: nil).count == 2)

        // History older than the device's newest fix: the checkpoint stands after it and stays.
        let later = RegionCheckpoint(deviceID: phone.id, evaluatedThrough: Self.t0.addingTimeInterval(600 * 60),
                                     regions: [home.id: .init(state: .inside, pendingCrossingTime: nil)])
        let old = try await importing(minutes: 100..<110)
        let oldExit = Self.transition(phone, home, .exit, minutes: 105)
        _ = try await store.recordTransitions([oldExit], deviceID: phone.id, replacingDetected: nil, checkpoint: later)
        try await store.discardImport(old)
        #expect(try await store.regionCheckpoint(deviceID: phone.id) == later)
        #expect(try await store.transitions(userID: ada.id, regionID: nil, from: nil, to: nil).map(\.transition) == [before, decided[0], reported, decided[1]])
    }

    @Test("a deleted finished import takes the detected transitions of its stretch with it", arguments: StoreFactory.all)
    func deletedImport(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await Self.prepared(factory)
        let home = try await store.addRegion(try Self.home(), userID: ada.id, at: Self.t0)
        let offset = Self.t0.timeIntervalSince(LocationStoreConformanceTests.t0)
        let fixes = (0..<60).map { LocationStoreConformanceTests.fix(52.52, 13.405, secondsAfter: offset + Double($0) * 60) }
        let record = try await LocationStoreConformanceTests.imported(
            [fixes], into: store, device: phone, provenance: ImportProvenance(fileName: "day.gpx", contentSHA256: nil, format: "gpx"),
            tally: ImportTally(rejected: 0))
        let decided = [Self.transition(phone, home, .entry, minutes: 10), Self.transition(phone, home, .exit, minutes: 59)]
        let reported = Self.transition(phone, home, .entry, minutes: 20, source: .reported)
        let checkpoint = RegionCheckpoint(deviceID: phone.id, evaluatedThrough: Self.t0.addingTimeInterval(59 * 60),
                                          regions: [home.id: .init(state: .outside, pendingCrossingTime: nil)])
        _ = try await store.recordTransitions(decided + [reported], deviceID: phone.id, replacingDetected: nil, checkpoint: checkpoint)
        #expect(try await store.deleteImport(record.id, userID: ada.id) != nil)
        #expect(try await store.transitions(userID: ada.id, regionID: nil, from: nil, to: nil).map(\.transition) == [reported])
        #expect(try await store.regionCheckpoint(deviceID: phone.id) == nil)
    }

    @Test("the regions offered to a device are remembered per device", arguments: StoreFactory.all)
    func offered(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await Self.prepared(factory)
        let tablet = try await store.addDevice(named: "tablet", userID: ada.id)
        #expect(try await store.offeredRegionsFingerprint(deviceID: phone.id) == nil)
        try await store.setOfferedRegionsFingerprint("abc", deviceID: phone.id)
        try await store.setOfferedRegionsFingerprint("def", deviceID: phone.id)
        #expect(try await store.offeredRegionsFingerprint(deviceID: phone.id) == "def")
        #expect(try await store.offeredRegionsFingerprint(deviceID: tablet.id) == nil)
        // Offering before any fix leaves the monitor without a checkpoint.
        #expect(try await store.regionCheckpoint(deviceID: phone.id) == nil)
    }

    @Test("a region too small, too large or not a number, or without a name, cannot be defined",
          arguments: [0, -5, Double.nan, 9.99, 400_001, 1e300])
    func hostileRadius(radiusMeters: Double) throws {
        #expect(throws: (any Error).self) { _ = try Self.home(radiusMeters: radiusMeters) }
        #expect(throws: RegionDefinitionError.invalidName("  ")) { _ = try Self.home(name: "  ") }
    }
}
