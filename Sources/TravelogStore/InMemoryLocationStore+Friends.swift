import Foundation

extension InMemoryLocationStore: FriendStore {
    public func addFriendInvitation(from inviterID: UserID, to inviteeID: UserID, at date: Date) async throws(StoreError) -> Friendship? {
        try withState { (state) throws(StoreError) -> Friendship? in
            for id in [inviterID, inviteeID] where state.users[id] == nil { throw .unknownUser(id) }
            guard inviterID != inviteeID, !state.friendships.contains(where: { Self.joins($0, inviterID, inviteeID) }) else { return nil }
            let friendship = Friendship(inviterID: inviterID, inviteeID: inviteeID,
                                        createdAt: StoragePrecision.date(milliseconds: StoragePrecision.milliseconds(date)))
            state.friendships.append(friendship)
            return friendship
        }
    }

    public func friendships(userID: UserID) async throws(StoreError) -> [Friendship] {
        withState { state in
            state.friendships.filter { ($0.inviterID == userID || $0.inviteeID == userID)
                && state.users[$0.inviterID] != nil && state.users[$0.inviteeID] != nil }
        }
    }

    public func acceptFriendInvitation(from inviterID: UserID, to inviteeID: UserID, at date: Date) async throws(StoreError) -> Bool {
        withState { state in
            guard let index = state.friendships.firstIndex(where: { $0.inviterID == inviterID && $0.inviteeID == inviteeID && !$0.isAccepted })
            else { return false }
            state.friendships[index].acceptedAt = StoragePrecision.date(milliseconds: StoragePrecision.milliseconds(date))
            return true
        }
    }

    public func deleteFriendship(between userID: UserID, and otherID: UserID) async throws(StoreError) -> Bool {
        withState { state in
            let before = state.friendships.count
            state.friendships.removeAll { Self.joins($0, userID, otherID) }
            return state.friendships.count < before
        }
    }

    public func setFriendHistoryShared(_ shared: Bool, by ownerID: UserID, with friendID: UserID) async throws(StoreError) -> Bool {
        withState { state in
            guard let index = state.friendships.firstIndex(where: { Self.joins($0, ownerID, friendID) && $0.isAccepted }) else { return false }
            if state.friendships[index].inviterID == ownerID {
                state.friendships[index].inviterSharesHistory = shared
            } else {
                state.friendships[index].inviteeSharesHistory = shared
            }
            return true
        }
    }

    /// Whether the friendship is between these two users, whoever invited.
    private static func joins(_ friendship: Friendship, _ one: UserID, _ other: UserID) -> Bool {
        (friendship.inviterID == one && friendship.inviteeID == other) || (friendship.inviterID == other && friendship.inviteeID == one)
    }
}
