import Foundation
import Testing
import TravelogCore
import TravelogStore

/// The contract of `DeviceStore`: every backend passes every test here.
@Suite("DeviceStore conformance")
struct DeviceStoreConformanceTests {
    static let t0 = LocationStoreConformanceTests.t0
    static let berlin = CoordinateBox(south: 52, west: 13, north: 53, east: 14)

    static func fix(_ seconds: Double, latitude: Double = 52.5) -> Location {
        LocationStoreConformanceTests.fix(latitude, 13.4, secondsAfter: seconds)
    }

    @Test("a device is renamed; a name another device has, or an invalid one, is refused", arguments: StoreFactory.all)
    func rename(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await LocationStoreConformanceTests.prepared(factory)
        let watch = try await store.addDevice(named: "watch", userID: ada.id)
        let renamed = try await store.renameDevice(id: phone.id, to: "pixel")
        #expect(renamed.name == "pixel")
        #expect(renamed.id == phone.id)
        #expect(try await store.device(named: "pixel", userID: ada.id)?.id == phone.id)
        #expect(try await store.device(named: "phone", userID: ada.id) == nil)
        await #expect(throws: StoreError.deviceExists(name: "watch")) { try await store.renameDevice(id: phone.id, to: "watch") }
        await #expect(throws: StoreError.self) { try await store.renameDevice(id: phone.id, to: "") }
        await #expect(throws: StoreError.unknownDevice(DeviceID(rawValue: 9_999))) {
            try await store.renameDevice(id: DeviceID(rawValue: 9_999), to: "x")
        }
        #expect(try await store.renameDevice(id: watch.id, to: "watch").name == "watch", "its own name again is fine")
    }

    @Test("retiring keeps the history and the name, and the token stops working", arguments: StoreFactory.all)
    func retire(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await LocationStoreConformanceTests.prepared(factory)
        let digest = SecretDigest(rawValue: String(repeating: "c", count: 64))
        try await store.setTokenDigest(digest, deviceID: phone.id)
        _ = try await store.insert([StoredLocation(deviceID: phone.id, location: Self.fix(0), source: .overland)])
        try await store.setSilentAfter(seconds: 3600, deviceID: phone.id)
        try await store.retireDevice(id: phone.id, at: Self.t0)
        try await store.retireDevice(id: phone.id, at: Self.t0.addingTimeInterval(60))
        #expect(try await store.device(tokenDigest: digest) == nil)
        #expect(try await store.device(named: "phone", userID: ada.id)?.id == phone.id)
        #expect(try await store.locations(LocationQuery(userID: ada.id)).count == 1)
        let state = try #require(try await store.deviceStates(userID: ada.id)[phone.id])
        #expect(state.retiredAt == Self.t0, "retiring again keeps the first time")
        #expect(state.silentAfterSeconds == nil, "a retired device is not watched")
        #expect(try await store.watchedDevices().isEmpty)
        await #expect(throws: StoreError.unknownDevice(DeviceID(rawValue: 9_999))) {
            try await store.retireDevice(id: DeviceID(rawValue: 9_999), at: Self.t0)
        }
    }

    @Test("deleting a device takes its whole history, and only its", arguments: StoreFactory.all)
    func delete(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await LocationStoreConformanceTests.prepared(factory)
        let watch = try await store.addDevice(named: "watch", userID: ada.id)
        let digest = SecretDigest(rawValue: String(repeating: "d", count: 64))
        try await store.setTokenDigest(digest, deviceID: phone.id)
        let phoneFixes = (0..<5).map { StoredLocation(deviceID: phone.id, location: Self.fix(Double($0) * 60), source: .overland) }
        _ = try await store.insert(phoneFixes)
        _ = try await store.insert([StoredLocation(deviceID: watch.id, location: Self.fix(30), source: .overland)])
        let running = try await store.beginImport(deviceID: phone.id, provenance: ImportProvenance(fileName: "a.gpx", contentSHA256: nil, format: "gpx"))
        _ = try await store.insert([StoredLocation(deviceID: phone.id, location: Self.fix(3600), source: .fileImport, importID: running)])
        _ = try await store.finishImport(running, summary: InsertSummary(inserted: 1), tally: ImportTally(rejected: 0, contentSHA256: nil))
        _ = try await store.replaceVisits(deviceID: phone.id, source: .detected, from: Self.t0, to: nil,
                                          with: [JournalStoreConformanceTests.visit(phone, arrivalMinute: 0, departureMinute: 30)])
        _ = try await store.replaceVisits(deviceID: watch.id, source: .detected, from: Self.t0, to: nil,
                                          with: [JournalStoreConformanceTests.visit(watch, arrivalMinute: 0, departureMinute: 30)])
        _ = try await store.quarantine([QuarantineStoreConformanceTests.item(ada.id, "p", device: phone.id),
                                        QuarantineStoreConformanceTests.item(ada.id, "w", device: watch.id)])
        try await store.recordReport(DeviceReport(receivedAt: Self.t0, batteryPercent: 50), deviceID: phone.id)

        try await store.deleteDevice(id: phone.id)

        #expect(try await store.device(id: phone.id) == nil)
        #expect(try await store.device(tokenDigest: digest) == nil)
        #expect(try await store.devices(userID: ada.id).map(\.name) == ["watch"])
        let left = try await store.locations(LocationQuery(userID: ada.id))
        #expect(left.map(\.deviceID) == [watch.id])
        #expect(try await store.locations(LocationQuery(userID: ada.id, area: Self.berlin)).map(\.deviceID) == [watch.id],
                "the map-area boxes no longer count the device's fixes")
        #expect(try await store.deviceSummaries(userID: ada.id).map(\.locationCount) == [1])
        #expect(try await store.imports(userID: ada.id).isEmpty)
        #expect(try await store.visits(userID: ada.id, deviceIDs: nil, from: nil, to: nil, includeHidden: true).map(\.visit.deviceID) == [watch.id])
        #expect(try await store.rejectedItems(userID: ada.id, limit: 10).map(\.deviceID) == [watch.id])
        #expect(try await store.deviceStates(userID: ada.id)[phone.id] == nil)

        // The same fixes under a new device of the same name are new, not duplicates.
        let again = try await store.addDevice(named: "phone", userID: ada.id)
        let summary = try await store.insert(phoneFixes.map { StoredLocation(deviceID: again.id, location: $0.location, source: .overland) })
        #expect(summary.inserted == 5)
        #expect(try await store.locations(LocationQuery(userID: ada.id, deviceIDs: [again.id], area: Self.berlin)).count == 5)
        await #expect(throws: StoreError.unknownDevice(phone.id)) { try await store.deleteDevice(id: phone.id) }
    }

    @Test("a report replaces the last one but keeps what it does not say; an older one changes nothing", arguments: StoreFactory.all)
    func reports(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await LocationStoreConformanceTests.prepared(factory)
        #expect(try await store.deviceStates(userID: ada.id).isEmpty)
        try await store.recordReport(DeviceReport(receivedAt: Self.t0, latestFix: Self.fix(-10), batteryPercent: 54, isCharging: true,
                                                  userAgent: "Overland/2.4 " + String(repeating: "x", count: 300)), deviceID: phone.id)
        var report = try #require(try await store.deviceStates(userID: ada.id)[phone.id]?.lastReport)
        #expect(report.receivedAt == Self.t0)
        #expect(report.batteryPercent == 54)
        #expect(report.isCharging == true)
        #expect(report.userAgent?.count == DeviceReport.maximumUserAgentLength)
        #expect(report.latestFix?.timestamp == Self.t0.addingTimeInterval(-10))
        #expect(report.latestFix?.coordinate.latitude == 52.5)
        #expect(report.latestFix?.horizontalAccuracyMeters == 8)

        try await store.recordReport(DeviceReport(receivedAt: Self.t0.addingTimeInterval(60), latestFix: Self.fix(50, latitude: 52.6)),
                                     deviceID: phone.id)
        report = try #require(try await store.deviceStates(userID: ada.id)[phone.id]?.lastReport)
        #expect(report.receivedAt == Self.t0.addingTimeInterval(60))
        #expect(report.latestFix?.coordinate.latitude == 52.6)
        #expect(report.batteryPercent == 54, "kept: the new report said nothing of the battery")
        #expect(report.userAgent?.hasPrefix("Overland/2.4") == true)

        // A late retry of old fixes is heard (the time moves) but does not move the device back.
        try await store.recordReport(DeviceReport(receivedAt: Self.t0.addingTimeInterval(120), latestFix: Self.fix(0, latitude: 52.4),
                                                  batteryPercent: 40), deviceID: phone.id)
        report = try #require(try await store.deviceStates(userID: ada.id)[phone.id]?.lastReport)
        #expect(report.receivedAt == Self.t0.addingTimeInterval(120))
        #expect(report.latestFix?.coordinate.latitude == 52.6)
        #expect(report.batteryPercent == 40)

        try await store.recordReport(DeviceReport(receivedAt: Self.t0, batteryPercent: 99), deviceID: phone.id)
        #expect(try await store.deviceStates(userID: ada.id)[phone.id]?.lastReport?.batteryPercent == 40, "an older report changes nothing")
        await #expect(throws: StoreError.unknownDevice(DeviceID(rawValue: 9_999))) {
            try await store.recordReport(DeviceReport(receivedAt: Self.t0), deviceID: DeviceID(rawValue: 9_999))
        }
        let bob = try await store.addUser(named: "bob")
        #expect(try await store.deviceStates(userID: bob.id).isEmpty, "states are per user")
    }

    @Test("an OwnTracks phone's status (tid, conn, Wi-Fi, mode, regions) is kept whole, cut to size; a late retry's does not replace it",
          arguments: StoreFactory.all)
    func phoneStatus(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await LocationStoreConformanceTests.prepared(factory)
        let home = PhoneStatus(trackerID: "ph", connection: .wifi, wifiName: "Kotiverkko \"5G\" ✓", wifiAccessPoint: "aa:bb:cc:dd:ee:ff",
                               monitoringMode: .significant, regions: ["home", "garden"] + (0..<40).map { "r\($0)" })
        try await store.recordReport(DeviceReport(receivedAt: Self.t0, latestFix: Self.fix(-10), phoneStatus: home), deviceID: phone.id)
        var report = try #require(try await store.deviceStates(userID: ada.id)[phone.id]?.lastReport)
        #expect(report.phoneStatus == home)
        #expect(report.phoneStatus?.regions.count == PhoneStatus.maximumRegionCount)
        #expect(report.phoneStatus?.wifiName == "Kotiverkko \"5G\" ✓")

        // A battery-only report keeps the status; a newer fix's status replaces it (no regions: in none).
        try await store.recordReport(DeviceReport(receivedAt: Self.t0.addingTimeInterval(30), batteryPercent: 50), deviceID: phone.id)
        #expect(try await store.deviceStates(userID: ada.id)[phone.id]?.lastReport?.phoneStatus == home)
        let away = PhoneStatus(trackerID: "ph", connection: .mobile, monitoringMode: .move)
        try await store.recordReport(DeviceReport(receivedAt: Self.t0.addingTimeInterval(60), latestFix: Self.fix(50), phoneStatus: away),
                                     deviceID: phone.id)
        report = try #require(try await store.deviceStates(userID: ada.id)[phone.id]?.lastReport)
        #expect(report.phoneStatus == away)
        #expect(report.phoneStatus?.summary == "mobile data · move mode")
        // A queue's late retry of an older fix: heard, but the phone is not put back home.
        try await store.recordReport(DeviceReport(receivedAt: Self.t0.addingTimeInterval(90), latestFix: Self.fix(0), phoneStatus: home),
                                     deviceID: phone.id)
        #expect(try await store.deviceStates(userID: ada.id)[phone.id]?.lastReport?.phoneStatus == away)
    }

    @Test("silence: a threshold watches a device, a new one forgets the notification", arguments: StoreFactory.all)
    func silence(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await LocationStoreConformanceTests.prepared(factory)
        let watch = try await store.addDevice(named: "watch", userID: ada.id)
        #expect(try await store.watchedDevices().isEmpty)
        try await store.setSilentAfter(seconds: 6 * 3600, deviceID: phone.id)
        try await store.recordReport(DeviceReport(receivedAt: Self.t0, batteryPercent: 80), deviceID: watch.id)
        var watched = try await store.watchedDevices()
        #expect(watched.map(\.device.id) == [phone.id])
        #expect(watched.first?.state.silentAfterSeconds == 6 * 3600)
        #expect(watched.first?.state.silenceNotified == false)
        try await store.setSilenceNotified(true, deviceID: phone.id)
        watched = try await store.watchedDevices()
        #expect(watched.first?.state.silenceNotified == true)
        try await store.setSilentAfter(seconds: 3600, deviceID: phone.id)
        #expect(try await store.watchedDevices().first?.state.silenceNotified == false)
        try await store.setSilentAfter(seconds: nil, deviceID: phone.id)
        #expect(try await store.watchedDevices().isEmpty)
        #expect(try await store.deviceStates(userID: ada.id)[watch.id]?.lastReport?.batteryPercent == 80)
        await #expect(throws: StoreError.unknownDevice(DeviceID(rawValue: 9_999))) {
            try await store.setSilentAfter(seconds: 60, deviceID: DeviceID(rawValue: 9_999))
        }
    }
}
