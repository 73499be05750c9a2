import Foundation
import HTTPTypes
import TravelogAccounts
import TravelogFormats
import TravelogStore

/// A friendship as the API, the page and `travelog friends list --json` show it, seen by one of
/// the two: the other's name, `state` (`friend`, `invited`: the user invited them, `invitedYou`),
/// and the two history grants.
public struct FriendJSON: Codable, Sendable, Equatable {
    public var name: String
    public var state: String
    /// Whether the user lets this friend read the user's history.
    public var sharesMyHistory: Bool
    /// Whether this friend lets the user read the friend's history.
    public var sharesTheirHistory: Bool
    public var invitedAt: String
    public var acceptedAt: String?

    public init(_ entry: FriendEntry) {
        name = entry.friend.name
        state = entry.state.rawValue
        sharesMyHistory = entry.sharesMyHistory
        sharesTheirHistory = entry.sharesTheirHistory
        invitedAt = ISO8601TimeFormatter.string(entry.invitedAt)
        acceptedAt = entry.acceptedAt.map(ISO8601TimeFormatter.string)
    }
}

extension FriendError {
    var apiError: APIError {
        switch self {
        case .unknownUser, .noInvitation, .notFriends: .notFound(description)
        case .yourself: .badRequest(description)
        case .alreadyFriends, .alreadyInvited, .tooMany: .http(status: .conflict, description)
        case .historyNotShared: .forbidden(description)
        case .unsupportedStore: .http(status: .notImplemented, description)
        case .store(let error): .storeFailed(error)
        }
    }
}
