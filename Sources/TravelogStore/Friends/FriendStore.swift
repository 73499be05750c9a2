import Foundation

/// A friendship between two users of one server, as stored: who invited whom, whether the other
/// accepted, and for each side whether it lets the other read its history (off until granted).
/// Latest positions are seen both ways once accepted; history only where granted.
public struct Friendship: Sendable, Hashable {
    public var inviterID: UserID
    public var inviteeID: UserID
    public var createdAt: Date
    /// When the invitee accepted; nil while the invitation waits.
    public var acceptedAt: Date?
    /// Whether the inviter lets the invitee read the inviter's history.
    public var inviterSharesHistory: Bool
    /// Whether the invitee lets the inviter read the invitee's history.
    public var inviteeSharesHistory: Bool

    public init(inviterID: UserID, inviteeID: UserID, createdAt: Date, acceptedAt: Date? = nil,
                inviterSharesHistory: Bool = false, inviteeSharesHistory: Bool = false) {
        self.inviterID = inviterID
        self.inviteeID = inviteeID
        self.createdAt = createdAt
        self.acceptedAt = acceptedAt
        self.inviterSharesHistory = inviterSharesHistory
        self.inviteeSharesHistory = inviteeSharesHistory
    }

    public var isAccepted: Bool { acceptedAt != nil }

    /// The other side, seen from `userID` (one of the two).
    public func other(than userID: UserID) -> UserID { inviterID == userID ? inviteeID : inviterID }

    /// Whether `userID` (one of the two) lets the other read its history.
    public func sharesHistory(by userID: UserID) -> Bool { inviterID == userID ? inviterSharesHistory : inviteeSharesHistory }

    /// The most friendships (accepted or waiting) a user may be part of.
    public static let maximumPerUser = 200
}

/// Friendships between users (SQLite `friendships`, migration 018; PostgreSQL 017). A pair of
/// users has at most one, whoever invited; it goes when either user goes. Every change is one
/// statement, and nothing of it is cached: a friendship ended applies to the next read in every
/// server process. Not part of `TravelogStore`: callers ask `store as? any FriendStore`. Each
/// backend passes `FriendStoreConformanceTests`.
public protocol FriendStore: Sendable {
    /// Keeps an invitation from `inviterID` to `inviteeID`.
    /// - Returns: nil when the two have a friendship or an invitation already (either way round).
    /// - Throws: `StoreError.unknownUser` for a user that does not exist.
    func addFriendInvitation(from inviterID: UserID, to inviteeID: UserID, at date: Date) async throws(StoreError) -> Friendship?
    /// The friendships and invitations (in and out) the user is part of, oldest first.
    func friendships(userID: UserID) async throws(StoreError) -> [Friendship]
    /// Accepts the waiting invitation from `inviterID` to `inviteeID`. - Returns: whether one waited.
    func acceptFriendInvitation(from inviterID: UserID, to inviteeID: UserID, at date: Date) async throws(StoreError) -> Bool
    /// Ends the friendship or invitation between the two, whoever invited. - Returns: whether there was one.
    func deleteFriendship(between userID: UserID, and otherID: UserID) async throws(StoreError) -> Bool
    /// Lets `ownerID`'s accepted friend `friendID` read the owner's history, or stops it.
    /// - Returns: false when the two are not friends (an invitation that waits counts as not).
    func setFriendHistoryShared(_ shared: Bool, by ownerID: UserID, with friendID: UserID) async throws(StoreError) -> Bool
}
