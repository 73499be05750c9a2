import Foundation
import Testing
import TravelogStore

@Suite("FriendStore conformance")
struct FriendStoreConformanceTests {
    static let day = Date(timeIntervalSince1970: 1_750_000_000)

    static func friendStore(_ factory: StoreFactory) async throws -> any TravelogStore & FriendStore {
        try #require(try await factory.make() as? any TravelogStore & FriendStore)
    }

    @Test("an invitation waits, one per pair either way round, until the invitee accepts it", arguments: StoreFactory.all)
    func inviteAndAccept(factory: StoreFactory) async throws {
        let store = try await Self.friendStore(factory)
        let ada = try await store.addUser(named: "ada"), bob = try await store.addUser(named: "bob")
        let eve = try await store.addUser(named: "eve")
        let invited = try #require(try await store.addFriendInvitation(from: ada.id, to: bob.id, at: Self.day.addingTimeInterval(0.0004)))
        #expect(invited == Friendship(inviterID: ada.id, inviteeID: bob.id, createdAt: Self.day))
        #expect(try await store.addFriendInvitation(from: ada.id, to: bob.id, at: Self.day) == nil)
        #expect(try await store.addFriendInvitation(from: bob.id, to: ada.id, at: Self.day) == nil)
        #expect(try await store.addFriendInvitation(from: ada.id, to: ada.id, at: Self.day) == nil)
        await #expect(throws: StoreError.unknownUser(UserID(rawValue: 999_999))) {
            try await store.addFriendInvitation(from: ada.id, to: UserID(rawValue: 999_999), at: Self.day)
        }
        #expect(try await store.friendships(userID: ada.id) == [invited])
        #expect(try await store.friendships(userID: bob.id) == [invited])
        #expect(try await store.friendships(userID: eve.id).isEmpty)
        // Only the invitee accepts, once; history stays off until granted.
        #expect(try await store.setFriendHistoryShared(true, by: ada.id, with: bob.id) == false)
        #expect(try await store.acceptFriendInvitation(from: bob.id, to: ada.id, at: Self.day) == false)
        #expect(try await store.acceptFriendInvitation(from: ada.id, to: bob.id, at: Self.day.addingTimeInterval(60)))
        #expect(try await store.acceptFriendInvitation(from: ada.id, to: bob.id, at: Self.day.addingTimeInterval(90)) == false)
        let accepted = try #require(try await store.friendships(userID: bob.id).first)
        #expect(accepted.acceptedAt == Self.day.addingTimeInterval(60))
        #expect(!accepted.inviterSharesHistory && !accepted.inviteeSharesHistory)
    }

    @Test("each side grants its own history; either side ends the friendship, and a user's deletion ends theirs", arguments: StoreFactory.all)
    func grantAndEnd(factory: StoreFactory) async throws {
        let store = try await Self.friendStore(factory)
        let ada = try await store.addUser(named: "ada"), bob = try await store.addUser(named: "bob")
        let eve = try await store.addUser(named: "eve")
        _ = try await store.addFriendInvitation(from: ada.id, to: bob.id, at: Self.day)
        #expect(try await store.acceptFriendInvitation(from: ada.id, to: bob.id, at: Self.day))
        #expect(try await store.setFriendHistoryShared(true, by: bob.id, with: ada.id))
        var friendship = try #require(try await store.friendships(userID: ada.id).first)
        #expect(friendship.sharesHistory(by: bob.id) && !friendship.sharesHistory(by: ada.id))
        #expect(try await store.setFriendHistoryShared(true, by: ada.id, with: bob.id))
        #expect(try await store.setFriendHistoryShared(false, by: bob.id, with: ada.id))
        friendship = try #require(try await store.friendships(userID: bob.id).first)
        #expect(friendship.inviterSharesHistory && !friendship.inviteeSharesHistory)
        #expect(try await store.setFriendHistoryShared(true, by: eve.id, with: ada.id) == false)
        // The invitee ends it; then nothing is left for either, and a new invitation may follow.
        #expect(try await store.deleteFriendship(between: bob.id, and: ada.id))
        #expect(try await store.deleteFriendship(between: ada.id, and: bob.id) == false)
        #expect(try await store.friendships(userID: ada.id).isEmpty)
        #expect(try await store.addFriendInvitation(from: bob.id, to: ada.id, at: Self.day) != nil)
        _ = try await store.addFriendInvitation(from: eve.id, to: ada.id, at: Self.day)
        try await store.deleteUser(id: bob.id)
        #expect(try await store.friendships(userID: ada.id).map(\.inviterID) == [eve.id])
    }
}
