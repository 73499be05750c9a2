import Foundation
import Testing
import TravelogCore
import TravelogStore

@Suite("FigureCacheStore conformance")
struct FigureCacheStoreConformanceTests {
    typealias Locations = LocationStoreConformanceTests

    @Test("fixes are counted per device and UTC day, each insert and deletion moves the counts, another user's are not counted; kept figures are read back by kind and slot, replaced per slot, refused for an unknown user, gone with the user",
          arguments: StoreFactory.all)
    func countsAndFigures(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let kept = try #require(store as? any FigureCacheStore, "\(factory.name) keeps no figures")
        let bob = try await store.addUser(named: "bob"), ada = try await store.addUser(named: "ada")  // bob first: the administrator stays
        let phone = try await store.addDevice(named: "phone", userID: ada.id), watch = try await store.addDevice(named: "watch", userID: ada.id)
        let pixel = try await store.addDevice(named: "pixel", userID: bob.id)
        // Locations.fix counts seconds from 2023-11-14T22:13:20Z; UTC day 19,676 begins 6,400 s later.
        let day = 19_676, midnight = 6_400.0
        let phoneFixes = [-1.0, 0, 60, 86_399.9, 86_400, 3 * 86_400 + 5].map {
            StoredLocation(deviceID: phone.id, location: Locations.fix(52.5, 13.4, secondsAfter: midnight + $0), source: .overland)
        }
        let watchFix = StoredLocation(deviceID: watch.id, location: Locations.fix(52.6, 13.4, secondsAfter: midnight + 30), source: .overland)
        let bobFix = StoredLocation(deviceID: pixel.id, location: Locations.fix(1, 1, secondsAfter: midnight + 30), source: .overland)
        _ = try await store.insert(phoneFixes + [watchFix, bobFix])
        struct Count: Hashable { var device: DeviceID; var day: Int; var count: Int }
        func rows() async throws -> [DailyFixCount] { try await kept.dailyFixCounts(userID: ada.id, days: day...day + 2) }
        func counts() async throws -> Set<Count> { Set(try await rows().filter { $0.count > 0 }.map { Count(device: $0.deviceID, day: $0.day, count: $0.count) }) }
        #expect(try await counts() == [Count(device: phone.id, day: day, count: 3), Count(device: watch.id, day: day, count: 1),
                                       Count(device: phone.id, day: day + 1, count: 1)],
                "the day before and day + 3 lie outside the days asked; bob's fix is his")
        let before = try await rows()
        _ = try await store.insert([phoneFixes[1]])
        #expect(try await rows() == before, "a repeat changes nothing")
        #expect(try await store.deleteLocations([phoneFixes[2].key], userID: ada.id) == 1)
        #expect(try await counts().contains(Count(device: phone.id, day: day, count: 2)))
        // A deletion, then as many new fixes on that day: the count is back, the day's pair is not.
        let afterDeletion = try await rows()
        let replacement = StoredLocation(deviceID: phone.id, location: Locations.fix(52.5, 13.41, secondsAfter: midnight + 120), source: .overland)
        _ = try await store.insert([replacement])
        let phoneDay = { (rows: [DailyFixCount]) in rows.first { $0.deviceID == phone.id && $0.day == day } }
        #expect(try await phoneDay(rows())?.count == phoneDay(before)?.count)
        #expect(try await phoneDay(rows()) != phoneDay(before), "the day's pair moved")
        #expect(try await phoneDay(rows()) != phoneDay(afterDeletion))
        let others = { (rows: [DailyFixCount]) in Set(rows.filter { $0.deviceID != phone.id || $0.day != day }) }
        #expect(try await others(rows()) == others(before), "the other days and devices kept their pairs")
        #expect(try await kept.dailyFixCounts(userID: bob.id, days: day...day).map(\.count) == [1])

        #expect(try await kept.cachedFigures(userID: ada.id, kind: "review-day", slots: day...day + 9).isEmpty)
        let first = CachedFigures(key: "a1", payload: Data("{\"d\":1}".utf8)), second = CachedFigures(key: "a2", payload: Data([0, 255, 7]))
        try await kept.storeCachedFigures(userID: ada.id, kind: "review-day", [day: first, day + 1: second])
        try await kept.storeCachedFigures(userID: ada.id, kind: "review-trips", [day: second])
        try await kept.storeCachedFigures(userID: bob.id, kind: "review-day", [day: second])
        #expect(try await kept.cachedFigures(userID: ada.id, kind: "review-day", slots: day...day + 9) == [day: first, day + 1: second])
        #expect(try await kept.cachedFigures(userID: ada.id, kind: "review-day", slots: day + 1...day + 1) == [day + 1: second])
        #expect(try await kept.cachedFigures(userID: ada.id, kind: "review-trips", slots: day...day) == [day: second])
        let replaced = CachedFigures(key: "a3", payload: Data("x".utf8))
        try await kept.storeCachedFigures(userID: ada.id, kind: "review-day", [day: replaced])
        #expect(try await kept.cachedFigures(userID: ada.id, kind: "review-day", slots: day...day + 9) == [day: replaced, day + 1: second])
        await #expect(throws: StoreError.unknownUser(UserID(rawValue: 999_999))) {
            try await kept.storeCachedFigures(userID: UserID(rawValue: 999_999), kind: "review-day", [day: first])
        }
        try await store.deleteUser(id: ada.id)
        #expect(try await kept.cachedFigures(userID: ada.id, kind: "review-day", slots: day...day + 9).isEmpty)
        #expect(try await kept.cachedFigures(userID: bob.id, kind: "review-day", slots: day...day) == [day: second])
    }
}
