import Foundation
import Testing
import TravelogStore

@Suite("ShareStore conformance")
struct ShareStoreConformanceTests {
    static let day = Date(timeIntervalSince1970: 1_750_000_000)

    static func record(_ userID: UserID, kind: ShareKind = .day, expires: Date? = day.addingTimeInterval(86_400)) -> ShareRecord {
        ShareRecord(userID: userID, kind: kind, from: day, to: day.addingTimeInterval(86_399.999), title: "Hike 'quoted' ; --",
                    passwordHash: nil, hideVisits: true, createdAt: day.addingTimeInterval(0.0004), expiresAt: expires)
    }

    @Test("a link is found by its token's digest only, kept to the millisecond, listed newest first per user", arguments: StoreFactory.all)
    func keepsLinks(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let ada = try await store.addUser(named: "ada"), bob = try await store.addUser(named: "bob")
        let first = try await store.addShare(Self.record(ada.id), tokenDigest: SecretDigest(rawValue: "aa"))
        var live = Self.record(ada.id, kind: .live, expires: nil)
        live.title = nil
        live.passwordHash = "$2b$04$hash"
        live.hideVisits = false
        live.includePhotos = true
        let second = try await store.addShare(live, tokenDigest: SecretDigest(rawValue: "bb"))
        #expect(first.id != second.id)
        #expect(first.record.title == "Hike 'quoted' ; --" && first.record.hideVisits && first.views == 0 && first.revokedAt == nil)
        #expect(!first.record.includePhotos && second.record.includePhotos)
        #expect(first.record.createdAt == Self.day)
        #expect(StoragePrecision.milliseconds(first.record.to) == StoragePrecision.milliseconds(Self.day) + 86_399_999)
        #expect(try await store.share(tokenDigest: SecretDigest(rawValue: "aa")) == first)
        #expect(try await store.share(tokenDigest: SecretDigest(rawValue: "bb")) == second)
        #expect(try await store.share(tokenDigest: SecretDigest(rawValue: "cc")) == nil)
        #expect(second.record.expiresAt == nil && second.record.passwordHash == "$2b$04$hash" && second.record.kind == .live)
        #expect(try await store.shares(userID: ada.id).map(\.id) == [second.id, first.id])
        #expect(try await store.shares(userID: bob.id).isEmpty)
        await #expect(throws: StoreError.unknownUser(UserID(rawValue: 999_999))) {
            try await store.addShare(Self.record(UserID(rawValue: 999_999)), tokenDigest: SecretDigest(rawValue: "dd"))
        }
    }

    @Test("revoking is the owner's only, keeps its first time; views are counted", arguments: StoreFactory.all)
    func revokesAndCounts(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let ada = try await store.addUser(named: "ada"), bob = try await store.addUser(named: "bob")
        let share = try await store.addShare(Self.record(ada.id), tokenDigest: SecretDigest(rawValue: "aa"))
        #expect(share.isOpen(at: Self.day) && !share.isOpen(at: Self.day.addingTimeInterval(86_400)))
        try await store.recordShareView(id: share.id, at: Self.day.addingTimeInterval(10))
        try await store.recordShareView(id: share.id, at: Self.day.addingTimeInterval(20))
        let viewed = try #require(try await store.share(tokenDigest: SecretDigest(rawValue: "aa")))
        #expect(viewed.views == 2 && viewed.lastViewedAt == Self.day.addingTimeInterval(20))
        #expect(try await store.revokeShare(id: share.id, userID: bob.id, at: Self.day) == nil)
        #expect(try await store.revokeShare(id: ShareID(rawValue: 999_999), userID: ada.id, at: Self.day) == nil)
        let revoked = try #require(try await store.revokeShare(id: share.id, userID: ada.id, at: Self.day.addingTimeInterval(30)))
        #expect(revoked.revokedAt == Self.day.addingTimeInterval(30) && !revoked.isOpen(at: Self.day))
        let again = try #require(try await store.revokeShare(id: share.id, userID: ada.id, at: Self.day.addingTimeInterval(99)))
        #expect(again.revokedAt == Self.day.addingTimeInterval(30))
        #expect(try await store.share(tokenDigest: SecretDigest(rawValue: "aa"))?.revokedAt == Self.day.addingTimeInterval(30))
    }

    @Test("deleting a user deletes their links", arguments: StoreFactory.all)
    func goesWithTheUser(factory: StoreFactory) async throws {
        let store = try await factory.make()
        _ = try await store.addUser(named: "admin")
        let ada = try await store.addUser(named: "ada")
        _ = try await store.addShare(Self.record(ada.id), tokenDigest: SecretDigest(rawValue: "aa"))
        try await store.deleteUser(id: ada.id)
        #expect(try await store.share(tokenDigest: SecretDigest(rawValue: "aa")) == nil)
        #expect(try await store.shares(userID: ada.id).isEmpty)
    }
}
