import Foundation
import Testing
import TravelogStore

@Suite("TripMatchStore conformance")
struct TripMatchStoreConformanceTests {
    static let day = Date(timeIntervalSince1970: 1_750_000_000)

    static func record(_ key: String, user: UserID, device: DeviceID, from: Double, to: Double, meters: Double? = 1_234.5) -> TripMatchRecord {
        TripMatchRecord(key: key, userID: user, deviceID: device, start: day.addingTimeInterval(from), end: day.addingTimeInterval(to),
                        matchedDistanceMeters: meters, roads: meters == nil ? [] : ["Mannerheimintie", "Kaivokatu"],
                        line: meters == nil ? [] : [[[24.94, 60.17], [24.941, 60.171]], [[24.95, 60.18], [24.951, 60.181]]],
                        unmatchedReason: meters == nil ? "the trip lies outside the OSM extracts added" : nil)
    }

    @Test("a match is read back by its key whole (distance, roads in order, the line's pieces, or the reason); a new one replaces the device's overlapping ones only; a match for an unknown user is refused", arguments: StoreFactory.all)
    func storeAndReplace(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let matches = try #require(store as? any TripMatchStore)
        let ada = try await store.addUser(named: "ada"), bob = try await store.addUser(named: "bob")
        let phone = try await store.addDevice(named: "phone", userID: ada.id), watch = try await store.addDevice(named: "watch", userID: ada.id)
        let bobPhone = try await store.addDevice(named: "phone", userID: bob.id)
        #expect(try await matches.tripMatches(keys: []).isEmpty)
        let first = Self.record("a1", user: ada.id, device: phone.id, from: 0, to: 600)
        let second = Self.record("a2", user: ada.id, device: phone.id, from: 600, to: 1_200, meters: nil)
        let watchTrip = Self.record("w1", user: ada.id, device: watch.id, from: 100, to: 500)
        let bobTrip = Self.record("b1", user: bob.id, device: bobPhone.id, from: 0, to: 600)
        for record in [first, second, watchTrip, bobTrip] { try await matches.storeTripMatch(record) }
        let read = try await matches.tripMatches(keys: ["a1", "a2", "w1", "b1", "none"])
        #expect(read.count == 4)
        #expect(read["a1"] == first)
        #expect(read["a2"] == second)
        #expect(read["a2"]?.unmatchedReason == "the trip lies outside the OSM extracts added")
        // An edit joined the phone's two trips: the new match replaces both, not the watch's nor Bob's.
        let joined = Self.record("a3", user: ada.id, device: phone.id, from: 300, to: 900, meters: 2_000)
        try await matches.storeTripMatch(joined)
        let after = try await matches.tripMatches(keys: ["a1", "a2", "a3", "w1", "b1"])
        #expect(Set(after.keys) == ["a3", "w1", "b1"])
        #expect(after["a3"]?.matchedDistanceMeters == 2_000)
        // Stored again under the same key: replaced, not doubled.
        try await matches.storeTripMatch(Self.record("a3", user: ada.id, device: phone.id, from: 300, to: 900, meters: 2_001))
        #expect(try await matches.tripMatches(keys: ["a3"])["a3"]?.matchedDistanceMeters == 2_001)
        await #expect(throws: StoreError.unknownUser(UserID(rawValue: 999_999))) {
            try await matches.storeTripMatch(Self.record("x", user: UserID(rawValue: 999_999), device: phone.id, from: 0, to: 1))
        }
        #expect(try await matches.tripMatches(keys: ["x"]).isEmpty)
    }
}
