import Foundation
import Testing
import TravelogCore
import TravelogStore

@Suite("Quarantine store conformance")
struct QuarantineStoreConformanceTests {
    static func item(_ user: UserID, _ fingerprint: String, device: DeviceID? = nil, seconds: Double = 0) -> NewRejectedItem {
        NewRejectedItem(userID: user, deviceID: device, route: "overland", reason: "item 3 (byte 120): missing time",
                        raw: #"{"type":"Feature"}"#, rawByteCount: 18,
                        receivedAt: Date(timeIntervalSince1970: 1_700_000_000 + seconds), fingerprint: fingerprint)
    }

    @Test("a rejected item is kept once, however often the app sends it again", arguments: StoreFactory.all)
    func keptOnce(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await LocationStoreConformanceTests.prepared(factory)
        #expect(try await store.quarantine([Self.item(ada.id, "a", device: phone.id), Self.item(ada.id, "b")]) == 2)
        #expect(try await store.quarantine([Self.item(ada.id, "a", device: phone.id)]) == 0)
        let items = try await store.rejectedItems(userID: ada.id, limit: 10)
        #expect(items.count == 2)
        #expect(items.first?.deviceID == nil, "newest first")
        #expect(items.last?.deviceID == phone.id)
        #expect(items.last?.raw == #"{"type":"Feature"}"#)
        #expect(items.last?.reason == "item 3 (byte 120): missing time")
        #expect(items.last?.receivedAt == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(try await store.rejectedItemCount(userID: ada.id) == 2)
        #expect(try await store.rejectedItems(userID: ada.id, limit: 1).count == 1)
    }

    @Test("rejected items are the user's own: listed, counted and deleted per user", arguments: StoreFactory.all)
    func perUser(factory: StoreFactory) async throws {
        let (store, ada, _) = try await LocationStoreConformanceTests.prepared(factory)
        let bob = try await store.addUser(named: "bob")
        _ = try await store.quarantine([Self.item(ada.id, "same"), Self.item(bob.id, "same"), Self.item(bob.id, "other")])
        #expect(try await store.rejectedItemCount(userID: ada.id) == 1)
        #expect(try await store.rejectedItemCount(userID: bob.id) == 2)
        let adasItem = try #require(try await store.rejectedItems(userID: ada.id, limit: 10).first)
        #expect(try await store.deleteRejectedItems(userID: bob.id, ids: [adasItem.id]) == 0, "bob cannot delete ada's item")
        #expect(try await store.deleteRejectedItems(userID: ada.id, ids: [adasItem.id]) == 1)
        #expect(try await store.rejectedItemCount(userID: ada.id) == 0)
        #expect(try await store.deleteRejectedItems(userID: bob.id, ids: nil) == 2)
        #expect(try await store.rejectedItems(userID: bob.id, limit: 10).isEmpty)
    }

    @Test("a deleted item comes back when the app sends it again", arguments: StoreFactory.all)
    func deletedComesBack(factory: StoreFactory) async throws {
        let (store, ada, _) = try await LocationStoreConformanceTests.prepared(factory)
        _ = try await store.quarantine([Self.item(ada.id, "x")])
        _ = try await store.deleteRejectedItems(userID: ada.id, ids: nil)
        #expect(try await store.quarantine([Self.item(ada.id, "x")]) == 1)
    }
}
