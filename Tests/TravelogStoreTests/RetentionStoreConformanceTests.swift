import Foundation
import Testing
import TravelogCore
import TravelogStore

/// The contract of `RetentionStore`: every backend passes every test here.
@Suite("RetentionStore conformance")
struct RetentionStoreConformanceTests {
    static let t0 = LocationStoreConformanceTests.t0
    static let day = 86_400.0

    static func visit(_ device: DeviceID, arrivalDays: Double, departureDays: Double?) -> JournalVisit {
        JournalVisit(deviceID: device, source: .detected, arrival: t0.addingTimeInterval(arrivalDays * day),
                     departure: departureDays.map { t0.addingTimeInterval($0 * day) },
                     center: Coordinate(validLatitude: 52.5, longitude: 13.4)!, radiusMeters: 50, locationCount: 4)
    }

    @Test("a user's own setting: none, a period with its journal choice, off, and none again; an unknown user is refused",
          arguments: StoreFactory.all)
    func settings(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let ada = try await store.addUser(named: "ada"), bob = try await store.addUser(named: "bob")
        #expect(try await store.retentionSetting(userID: ada.id) == nil)
        try await store.setRetentionSetting(try RetentionSetting(days: 365, journal: .delete), userID: ada.id, at: Self.t0)
        try await store.setRetentionSetting(.off, userID: bob.id, at: Self.t0)
        #expect(try await store.retentionSetting(userID: ada.id) == (try RetentionSetting(days: 365, journal: .delete)))
        #expect(try await store.retentionSetting(userID: bob.id) == .off)
        try await store.setRetentionSetting(try RetentionSetting(days: 30), userID: ada.id, at: Self.t0)
        #expect(try await store.retentionSetting(userID: ada.id) == (try RetentionSetting(days: 30, journal: .keep)))
        try await store.setRetentionSetting(nil, userID: ada.id, at: Self.t0)
        #expect(try await store.retentionSetting(userID: ada.id) == nil)
        #expect(try await store.retentionSetting(userID: bob.id) == .off)
        let nobody = UserID(rawValue: 999_999)
        await #expect(throws: StoreError.unknownUser(nobody)) { try await store.setRetentionSetting(.off, userID: nobody, at: Self.t0) }
        await #expect(throws: StoreError.unknownUser(nobody)) { try await store.setRetentionSetting(nil, userID: nobody, at: Self.t0) }
    }

    @Test("the last run replaces the one before, per user", arguments: StoreFactory.all)
    func runs(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let ada = try await store.addUser(named: "ada"), bob = try await store.addUser(named: "bob")
        #expect(try await store.lastRetentionRun(userID: ada.id) == nil)
        let first = RetentionRun(ranAt: Self.t0, cutoff: Self.t0.addingTimeInterval(-Self.day), deletedFixes: 12, deletedVisits: 1)
        let second = RetentionRun(ranAt: Self.t0.addingTimeInterval(Self.day), cutoff: Self.t0, deletedFixes: 3, deletedVisits: 0)
        try await store.recordRetentionRun(first, userID: ada.id)
        try await store.recordRetentionRun(second, userID: ada.id)
        #expect(try await store.lastRetentionRun(userID: ada.id) == second)
        #expect(try await store.lastRetentionRun(userID: bob.id) == nil)
        await #expect(throws: StoreError.unknownUser(UserID(rawValue: 999_999))) {
            try await store.recordRetentionRun(first, userID: UserID(rawValue: 999_999))
        }
    }

    @Test("fixes before a date per device (count, first, last; devices with none left out), the user's only", arguments: StoreFactory.all)
    func summaries(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let ada = try await store.addUser(named: "ada"), bob = try await store.addUser(named: "bob")
        let phone = try await store.addDevice(named: "phone", userID: ada.id), watch = try await store.addDevice(named: "watch", userID: ada.id)
        let pixel = try await store.addDevice(named: "pixel", userID: bob.id)
        let fixes = (0..<10).map { StoredLocation(deviceID: phone.id, location: LocationStoreConformanceTests.fix(52.5, 13.4, secondsAfter: Double($0) * Self.day), source: .overland) }
            + [StoredLocation(deviceID: watch.id, location: LocationStoreConformanceTests.fix(52.6, 13.4, secondsAfter: 20 * Self.day), source: .overland),
               StoredLocation(deviceID: pixel.id, location: LocationStoreConformanceTests.fix(52.7, 13.4, secondsAfter: 0), source: .overland)]
        _ = try await store.insert(fixes)
        let before = Self.t0.addingTimeInterval(4 * Self.day)
        let found = try await store.locationSummaries(userID: ada.id, before: before)
        #expect(found.map(\.device.id) == [phone.id])
        #expect(found.first?.locationCount == 4)
        #expect(found.first?.firstTimestamp == Self.t0 && found.first?.lastTimestamp == Self.t0.addingTimeInterval(3 * Self.day))
        #expect(try await store.locationSummaries(userID: ada.id, before: Self.t0).isEmpty)
        #expect(try await store.locationSummaries(userID: ada.id, before: Self.t0.addingTimeInterval(30 * Self.day)).map(\.locationCount) == [10, 1])
    }

    @Test("visits that ended before a date are counted and deleted (hidden ones too) with their trips' road matches; one going on, a later one and another user's stay",
          arguments: StoreFactory.all)
    func visits(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let ada = try await store.addUser(named: "ada"), bob = try await store.addUser(named: "bob")
        let phone = try await store.addDevice(named: "phone", userID: ada.id), pixel = try await store.addDevice(named: "pixel", userID: bob.id)
        _ = try await store.replaceVisits(deviceID: phone.id, source: .detected, from: Self.t0, to: nil, with: [
            Self.visit(phone.id, arrivalDays: 0, departureDays: 0.5), Self.visit(phone.id, arrivalDays: 1, departureDays: 1.5),
            Self.visit(phone.id, arrivalDays: 2, departureDays: 3), Self.visit(phone.id, arrivalDays: 5, departureDays: nil),
        ])
        _ = try await store.replaceVisits(deviceID: pixel.id, source: .detected, from: Self.t0, to: nil, with: [
            Self.visit(pixel.id, arrivalDays: 0, departureDays: 0.5),
        ])
        let stored = try await store.visits(userID: ada.id, deviceIDs: nil, from: nil, to: nil, includeHidden: true)
        let second = try #require(stored.first { $0.visit.arrival == Self.t0.addingTimeInterval(Self.day) })
        _ = try await store.editVisit(id: second.id, VisitEdit(hidden: true))
        // Day 2.5: the first two ended before; the third ends on day 3; the fourth goes on.
        let cutoff = Self.t0.addingTimeInterval(2.5 * Self.day)
        // The road matches of the trips between: one ended before the cutoff, one after it.
        let matches = try #require(store as? any TripMatchStore)
        for (key, start, end) in [("old", 0.5, 1.0), ("new", 3.0, 5.0)] {
            try await matches.storeTripMatch(TripMatchRecord(key: key, userID: ada.id, deviceID: phone.id, start: Self.t0.addingTimeInterval(start * Self.day),
                                                           end: Self.t0.addingTimeInterval(end * Self.day), matchedDistanceMeters: 100,
                                                           roads: ["Main Street"], line: [[[13.4, 52.5], [13.41, 52.5]]], unmatchedReason: nil))
        }
        #expect(try await store.visitCount(userID: ada.id, endedBefore: cutoff) == 2)
        #expect(try await store.deleteVisits(userID: ada.id, endedBefore: cutoff) == 2)
        #expect(try await matches.tripMatches(keys: ["old", "new"]).keys.sorted() == ["new"])
        let left = try await store.visits(userID: ada.id, deviceIDs: nil, from: nil, to: nil, includeHidden: true)
        #expect(left.map(\.visit.arrival) == [Self.t0.addingTimeInterval(2 * Self.day), Self.t0.addingTimeInterval(5 * Self.day)])
        #expect(try await store.visitCount(userID: ada.id, endedBefore: cutoff) == 0)
        #expect(try await store.visits(userID: bob.id, deviceIDs: nil, from: nil, to: nil, includeHidden: true).count == 1)
    }

    @Test("periods: days, weeks and years (no leading zero, spaces around); off; default; 'm' and others refused with the reason")
    func periods() throws {
        #expect(try RetentionSetting.days(from: "365d") == 365)
        #expect(try RetentionSetting.days(from: " 52W ") == 364)
        #expect(try RetentionSetting.days(from: "2y") == 730)
        #expect(try RetentionSetting.days(from: "off") == nil)
        #expect(throws: RetentionPeriodError.ambiguousUnit("18m")) { try RetentionSetting.days(from: "18m") }
        #expect(throws: RetentionPeriodError.unreadable("365")) { try RetentionSetting.days(from: "365") }
        #expect(throws: RetentionPeriodError.unreadable("-3d")) { try RetentionSetting.days(from: "-3d") }
        #expect(throws: RetentionPeriodError.unreadable("0365d")) { try RetentionSetting.days(from: "0365d") }
        #expect(throws: RetentionPeriodError.unreadable("\t30d")) { try RetentionSetting.days(from: "\t30d") }
        #expect(RetentionSetting.isServerDefault(" Default ") && !RetentionSetting.isServerDefault("off"))
        #expect(throws: RetentionPeriodError.unreadable("")) { try RetentionSetting.days(from: "") }
        #expect(throws: RetentionPeriodError.outOfRange("0d")) { try RetentionSetting.days(from: "0d") }
        #expect(throws: RetentionPeriodError.outOfRange("101y")) { try RetentionSetting.days(from: "101y") }
        #expect(throws: RetentionPeriodError.outOfRange("99999999999999999999d")) { try RetentionSetting.days(from: "99999999999999999999d") }
        #expect(try RetentionSetting(days: 30).cutoff(now: Self.t0) == Self.t0.addingTimeInterval(-30 * Self.day))
        #expect(RetentionSetting.off.cutoff(now: Self.t0) == nil && RetentionSetting.off.periodText == "off")
    }
}
