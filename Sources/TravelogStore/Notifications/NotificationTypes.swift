import Foundation

/// A notification channel's identifier in a store.
public struct ChannelID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }
}

/// A delivery's identifier in a store.
public struct DeliveryID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }
}

/// Where a user's notifications go.
public enum ChannelKind: Hashable, Sendable {
    /// A JSON POST signed with HMAC-SHA256 of the body under `secret`.
    case webhook(url: URL, secret: String)
    /// An ntfy-style push: the message POSTed to a topic URL, with an optional access token.
    case ntfy(url: URL, token: String?)

    /// `webhook` or `ntfy`, as the API and the CLI name them.
    public var name: String {
        switch self {
        case .webhook: "webhook"
        case .ntfy: "ntfy"
        }
    }

    /// Where the POST goes.
    public var url: URL {
        switch self {
        case .webhook(let url, _), .ntfy(let url, _): url
        }
    }
}

/// A user's channel: every notification of the user goes to each of them.
public struct NotificationChannel: Hashable, Sendable {
    public var id: ChannelID
    public var userID: UserID
    public var kind: ChannelKind

    public init(id: ChannelID, userID: UserID, kind: ChannelKind) {
        self.id = id
        self.userID = userID
        self.kind = kind
    }
}

/// What a notification says.
public struct NotificationMessage: Hashable, Sendable, Codable {
    /// `arrival`, `journalEntry`, `regionEntry`, `regionExit` or `test`.
    public var event: String
    /// Unique per event and user: the same key is delivered once per channel, ever. The caller
    /// derives it from what identifies the event (`visit-arrival:<visit id>`,
    /// `journal-entry:<visit id>`, `region-<RegionTransition.key>`, `test:<UUID>`), never from the
    /// time it is noticed.
    public var key: String
    public var title: String
    public var message: String
    public var occurredAt: Date
    /// Details for webhooks (the journal entry's fields, as text).
    public var details: [String: String]

    public init(event: String, key: String, title: String, message: String, occurredAt: Date, details: [String: String] = [:]) {
        self.event = event
        self.key = key
        self.title = title
        self.message = message
        self.occurredAt = occurredAt
        self.details = details
    }
}

/// Where a delivery stands.
public enum DeliveryState: String, Hashable, Sendable {
    case pending, delivered, failed
}

/// One message to one channel, with its attempts so far.
public struct Delivery: Hashable, Sendable {
    public var id: DeliveryID
    public var channel: NotificationChannel
    public var message: NotificationMessage
    public var state: DeliveryState
    public var attempts: Int
    public var nextAttemptAt: Date?
    /// What the last attempt got: an HTTP status or an error.
    public var lastResult: String?
    public var updatedAt: Date

    public init(id: DeliveryID, channel: NotificationChannel, message: NotificationMessage, state: DeliveryState,
                attempts: Int, nextAttemptAt: Date?, lastResult: String?, updatedAt: Date) {
        self.id = id
        self.channel = channel
        self.message = message
        self.state = state
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastResult = lastResult
        self.updatedAt = updatedAt
    }
}
