import Foundation
import TravelogStore

/// Why a friendship could not be made, changed or read.
public enum FriendError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No user of this name on the server.
    case unknownUser(String)
    /// A user cannot befriend themselves.
    case yourself
    /// The two are friends already.
    case alreadyFriends(String)
    /// An invitation to this user waits already.
    case alreadyInvited(String)
    /// No invitation from this user waits.
    case noInvitation(String)
    /// The two are not friends (an invitation that waits does not count).
    case notFriends(String)
    /// The user is part of as many friendships and invitations as one may be.
    case tooMany(maximum: Int)
    /// The friend does not share their history with this user.
    case historyNotShared(String)
    /// The store keeps no friendships (a backend without `FriendStore`).
    case unsupportedStore
    case store(StoreError)

    public var description: String {
        switch self {
        case .unknownUser(let name): "no user '\(name)' on this server"
        case .yourself: "you cannot be your own friend"
        case .alreadyFriends(let name): "you and '\(name)' are friends already"
        case .alreadyInvited(let name): "'\(name)' has an invitation from you already"
        case .noInvitation(let name): "no invitation from '\(name)' waits"
        case .notFriends(let name): "you and '\(name)' are not friends"
        case .tooMany(let maximum): "a user may have at most \(maximum) friends and invitations: remove one first"
        case .historyNotShared(let name): "'\(name)' does not share their history with you"
        case .unsupportedStore: "this store keeps no friends"
        case .store(let error): error.description
        }
    }
}

/// One of a user's friendships, as that user sees it.
public struct FriendEntry: Sendable, Equatable {
    public enum State: String, Sendable, Equatable {
        /// Both agreed.
        case friend
        /// The user invited the other, who has not answered.
        case invitationSent = "invited"
        /// The other invited the user, who has not answered.
        case invitationReceived = "invitedYou"
    }

    public var friend: User
    public var state: State
    /// Whether the user lets the friend read the user's history.
    public var sharesMyHistory: Bool
    /// Whether the friend lets the user read the friend's history.
    public var sharesTheirHistory: Bool
    /// When the invitation was sent, and when it was accepted.
    public var invitedAt: Date
    public var acceptedAt: Date?
}

/// Friends: a user invites another user of the same server by name; once the other accepts, each
/// sees the other's latest position, and the other's history where that side granted it. Either
/// side ends it at any time. Everything is read from the store at each call (nothing cached), so a
/// friendship ended applies to the next request in every server process. The command line and the
/// API both go through it.
public struct Friends: Sendable {
    public let store: any TravelogStore

    public init(store: any TravelogStore) {
        self.store = store
    }

    /// Invites the user named `name`; when that user had invited this one, accepts that invitation instead.
    @discardableResult
    public func invite(_ name: String, userID: UserID, now: Date = Date()) async throws(FriendError) -> FriendEntry {
        let friends = try friendStore()
        let other = try await user(named: name)
        guard other.id != userID else { throw .yourself }
        let existing = try await friendships(userID: userID)
        if let found = existing.first(where: { $0.other(than: userID) == other.id }) {
            if found.isAccepted { throw .alreadyFriends(other.name) }
            if found.inviterID == userID { throw .alreadyInvited(other.name) }
            return try await accept(other.name, userID: userID, now: now)
        }
        guard existing.count < Friendship.maximumPerUser else { throw .tooMany(maximum: Friendship.maximumPerUser) }
        let made: Friendship?
        do { made = try await friends.addFriendInvitation(from: userID, to: other.id, at: now) } catch { throw .store(error) }
        // Nil: the other invited at the same moment (another request, another process).
        guard let made else { throw .alreadyInvited(other.name) }
        return Self.entry(made, friend: other, userID: userID)
    }

    /// The user's friends and invitations (sent and received), oldest first.
    public func list(userID: UserID) async throws(FriendError) -> [FriendEntry] {
        var entries: [FriendEntry] = []
        for friendship in try await friendships(userID: userID) {
            let otherID = friendship.other(than: userID)
            let other: User?
            do { other = try await store.user(id: otherID) } catch { throw .store(error) }
            guard let other else { continue }
            entries.append(Self.entry(friendship, friend: other, userID: userID))
        }
        return entries
    }

    /// Accepts the invitation the user named `name` sent.
    @discardableResult
    public func accept(_ name: String, userID: UserID, now: Date = Date()) async throws(FriendError) -> FriendEntry {
        let friends = try friendStore()
        let other = try await user(named: name)
        let done: Bool
        do { done = try await friends.acceptFriendInvitation(from: other.id, to: userID, at: now) } catch { throw .store(error) }
        guard done else {
            if try await accepted(userID: userID).contains(where: { $0.user.id == other.id }) { throw .alreadyFriends(other.name) }
            throw .noInvitation(other.name)
        }
        guard let entry = try await list(userID: userID).first(where: { $0.friend.id == other.id }) else { throw .noInvitation(other.name) }
        return entry
    }

    /// Declines the invitation the user named `name` sent (nothing is left of it).
    public func decline(_ name: String, userID: UserID) async throws(FriendError) {
        let other = try await user(named: name)
        guard try await friendships(userID: userID).contains(where: { $0.inviterID == other.id && $0.inviteeID == userID && !$0.isAccepted }) else {
            throw .noInvitation(other.name)
        }
        try await end(userID, other)
    }

    /// Ends the friendship with the user named `name`, or withdraws or declines an invitation.
    public func remove(_ name: String, userID: UserID) async throws(FriendError) {
        let other = try await user(named: name)
        guard try await friendships(userID: userID).contains(where: { $0.other(than: userID) == other.id }) else {
            throw .notFriends(other.name)
        }
        try await end(userID, other)
    }

    /// Lets the friend named `name` read the user's history, or (`shared` false) stops it.
    @discardableResult
    public func shareHistory(_ shared: Bool, with name: String, userID: UserID) async throws(FriendError) -> FriendEntry {
        let friends = try friendStore()
        let other = try await user(named: name)
        let done: Bool
        do { done = try await friends.setFriendHistoryShared(shared, by: userID, with: other.id) } catch { throw .store(error) }
        guard done, let entry = try await list(userID: userID).first(where: { $0.friend.id == other.id }) else {
            throw .notFriends(other.name)
        }
        return entry
    }

    /// The user's accepted friends, with whether each shares their history with the user. A
    /// disabled friend is left out (their account is closed for now).
    public func accepted(userID: UserID) async throws(FriendError) -> [(user: User, sharesTheirHistory: Bool)] {
        try await list(userID: userID).filter { $0.state == .friend && !$0.friend.isDisabled }
            .map { ($0.friend, $0.sharesTheirHistory) }
    }

    /// The friend named `name` when the user may read their history.
    /// - Throws: `notFriends` (also for a name unknown, so a stranger learns nothing), `historyNotShared`.
    public func historyReadable(of name: String, userID: UserID) async throws(FriendError) -> User {
        guard let friend = try await accepted(userID: userID).first(where: { $0.user.name == name }) else { throw .notFriends(name) }
        guard friend.sharesTheirHistory else { throw .historyNotShared(name) }
        return friend.user
    }

    private func end(_ userID: UserID, _ other: User) async throws(FriendError) {
        let friends = try friendStore()
        do { _ = try await friends.deleteFriendship(between: userID, and: other.id) } catch { throw .store(error) }
    }

    private func user(named name: String) async throws(FriendError) -> User {
        let found: User?
        do { found = try await store.user(named: name) } catch { throw .store(error) }
        guard let found else { throw .unknownUser(name) }
        return found
    }

    private func friendships(userID: UserID) async throws(FriendError) -> [Friendship] {
        let friends = try friendStore()
        do { return try await friends.friendships(userID: userID) } catch { throw .store(error) }
    }

    private func friendStore() throws(FriendError) -> any FriendStore {
        guard let store = store as? any FriendStore else { throw .unsupportedStore }
        return store
    }

    static func entry(_ friendship: Friendship, friend: User, userID: UserID) -> FriendEntry {
        let state: FriendEntry.State = friendship.isAccepted ? .friend : friendship.inviterID == userID ? .invitationSent : .invitationReceived
        return FriendEntry(friend: friend, state: state, sharesMyHistory: friendship.sharesHistory(by: userID),
                           sharesTheirHistory: friendship.sharesHistory(by: friend.id), invitedAt: friendship.createdAt,
                           acceptedAt: friendship.acceptedAt)
    }
}
