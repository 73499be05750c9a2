import Foundation
import GRDB
import TravelogStore

extension SQLiteLocationStore: FriendStore {
    static let friendshipColumns = "user_id, friend_id, created_at_ms, accepted_at_ms, user_shares_history, friend_shares_history"
    /// The row of the pair (?, ?), whoever invited (four arguments: one, other, other, one).
    static let friendshipPair = "((user_id = ? AND friend_id = ?) OR (user_id = ? AND friend_id = ?))"

    public func addFriendInvitation(from inviterID: UserID, to inviteeID: UserID, at date: Date) async throws(StoreError) -> Friendship? {
        try await write("inviting a friend") { db throws(StoreError) -> Friendship? in
            for id in [inviterID, inviteeID] {
                guard (try? Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE id = ?", arguments: [id.rawValue])) != nil
                else { throw .unknownUser(id) }
            }
            guard inviterID != inviteeID else { return nil }
            try Self.execute(db, "inviting a friend", """
                INSERT OR IGNORE INTO friendships (user_id, friend_id, created_at_ms) VALUES (?, ?, ?)
                """, [inviterID.rawValue, inviteeID.rawValue, StoragePrecision.milliseconds(date)])
            guard db.changesCount == 1 else { return nil }
            return Friendship(inviterID: inviterID, inviteeID: inviteeID,
                              createdAt: StoragePrecision.date(milliseconds: StoragePrecision.milliseconds(date)))
        }
    }

    public func friendships(userID: UserID) async throws(StoreError) -> [Friendship] {
        try await read("reading friends") { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT \(Self.friendshipColumns) FROM friendships WHERE user_id = ? OR friend_id = ? ORDER BY id
                """), arguments: [userID.rawValue, userID.rawValue]).map { row in
                Friendship(inviterID: UserID(rawValue: row[0]), inviteeID: UserID(rawValue: row[1]),
                           createdAt: StoragePrecision.date(milliseconds: row[2]),
                           acceptedAt: (row[3] as Int64?).map(StoragePrecision.date(milliseconds:)),
                           inviterSharesHistory: row[4], inviteeSharesHistory: row[5])
            }
        }
    }

    public func acceptFriendInvitation(from inviterID: UserID, to inviteeID: UserID, at date: Date) async throws(StoreError) -> Bool {
        try await write("accepting a friend") { db throws(StoreError) -> Bool in
            try Self.execute(db, "accepting a friend", """
                UPDATE friendships SET accepted_at_ms = ? WHERE user_id = ? AND friend_id = ? AND accepted_at_ms IS NULL
                """, [StoragePrecision.milliseconds(date), inviterID.rawValue, inviteeID.rawValue])
            return db.changesCount == 1
        }
    }

    public func deleteFriendship(between userID: UserID, and otherID: UserID) async throws(StoreError) -> Bool {
        try await write("ending a friendship") { db throws(StoreError) -> Bool in
            try Self.execute(db, "ending a friendship", "DELETE FROM friendships WHERE \(Self.friendshipPair)",
                             [userID.rawValue, otherID.rawValue, otherID.rawValue, userID.rawValue])
            return db.changesCount == 1
        }
    }

    public func setFriendHistoryShared(_ shared: Bool, by ownerID: UserID, with friendID: UserID) async throws(StoreError) -> Bool {
        try await write("sharing history with a friend") { db throws(StoreError) -> Bool in
            try Self.execute(db, "sharing history with a friend", """
                UPDATE friendships SET
                    user_shares_history = CASE WHEN user_id = ? THEN ? ELSE user_shares_history END,
                    friend_shares_history = CASE WHEN friend_id = ? THEN ? ELSE friend_shares_history END
                WHERE accepted_at_ms IS NOT NULL AND \(Self.friendshipPair)
                """, [ownerID.rawValue, shared, ownerID.rawValue, shared,
                      ownerID.rawValue, friendID.rawValue, friendID.rawValue, ownerID.rawValue])
            return db.changesCount == 1
        }
    }
}
