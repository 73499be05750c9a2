import Foundation
import PostgresNIO
import TravelogStore

extension PostgresLocationStore: FriendStore {
    static let friendshipColumns = "user_id, friend_id, created_at_ms, accepted_at_ms, user_shares_history, friend_shares_history"

    public func addFriendInvitation(from inviterID: UserID, to inviteeID: UserID, at date: Date) async throws(StoreError) -> Friendship? {
        for id in [inviterID, inviteeID] where try await user(id: id) == nil { throw .unknownUser(id) }
        guard inviterID != inviteeID else { return nil }
        let found = try await rows("inviting a friend", """
            INSERT INTO friendships (user_id, friend_id, created_at_ms)
            VALUES (\(inviterID.rawValue), \(inviteeID.rawValue), \(StoragePrecision.milliseconds(date)))
            ON CONFLICT DO NOTHING
            RETURNING \(unescaped: Self.friendshipColumns)
            """)
        return try found.first.map(Self.friendship)
    }

    public func friendships(userID: UserID) async throws(StoreError) -> [Friendship] {
        var result: [Friendship] = []
        for row in try await rows("reading friends", """
            SELECT \(unescaped: Self.friendshipColumns) FROM friendships
            WHERE user_id = \(userID.rawValue) OR friend_id = \(userID.rawValue) ORDER BY id
            """) {
            result.append(try Self.friendship(row))
        }
        return result
    }

    public func acceptFriendInvitation(from inviterID: UserID, to inviteeID: UserID, at date: Date) async throws(StoreError) -> Bool {
        try await !rows("accepting a friend", """
            UPDATE friendships SET accepted_at_ms = \(StoragePrecision.milliseconds(date))
            WHERE user_id = \(inviterID.rawValue) AND friend_id = \(inviteeID.rawValue) AND accepted_at_ms IS NULL
            RETURNING id
            """).isEmpty
    }

    public func deleteFriendship(between userID: UserID, and otherID: UserID) async throws(StoreError) -> Bool {
        try await !rows("ending a friendship", """
            DELETE FROM friendships
            WHERE (user_id = \(userID.rawValue) AND friend_id = \(otherID.rawValue))
               OR (user_id = \(otherID.rawValue) AND friend_id = \(userID.rawValue))
            RETURNING id
            """).isEmpty
    }

    public func setFriendHistoryShared(_ shared: Bool, by ownerID: UserID, with friendID: UserID) async throws(StoreError) -> Bool {
        try await !rows("sharing history with a friend", """
            UPDATE friendships SET
                user_shares_history = CASE WHEN user_id = \(ownerID.rawValue) THEN \(shared) ELSE user_shares_history END,
                friend_shares_history = CASE WHEN friend_id = \(ownerID.rawValue) THEN \(shared) ELSE friend_shares_history END
            WHERE accepted_at_ms IS NOT NULL
              AND ((user_id = \(ownerID.rawValue) AND friend_id = \(friendID.rawValue))
                OR (user_id = \(friendID.rawValue) AND friend_id = \(ownerID.rawValue)))
            RETURNING id
            """).isEmpty
    }

    static func friendship(_ row: PostgresRow) throws(StoreError) -> Friendship {
        let (inviter, invitee, created, accepted, inviterShares, inviteeShares) = try decode(
            row, as: (Int64, Int64, Int64, Int64?, Bool, Bool).self, "reading a friendship")
        return Friendship(inviterID: UserID(rawValue: inviter), inviteeID: UserID(rawValue: invitee),
                          createdAt: StoragePrecision.date(milliseconds: created),
                          acceptedAt: accepted.map(StoragePrecision.date(milliseconds:)),
                          inviterSharesHistory: inviterShares, inviteeSharesHistory: inviteeShares)
    }
}
