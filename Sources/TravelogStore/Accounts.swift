import Foundation

/// A person whose history the store keeps.
public struct User: Hashable, Sendable {
    public var id: UserID
    /// Unique, non-empty login name.
    public var name: String
    public var createdAt: Date
    /// May manage every user and see the server's state. The first user of a store is one, and
    /// the store never leaves it without an enabled one (`StoreError.lastAdministrator`).
    public var isAdministrator: Bool
    /// Cannot log in, and the user's device tokens are refused; the history is kept.
    public var isDisabled: Bool

    public init(id: UserID, name: String, createdAt: Date, isAdministrator: Bool = false, isDisabled: Bool = false) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.isAdministrator = isAdministrator
        self.isDisabled = isDisabled
    }
}

/// Something that reports locations for a user: a phone app, a tracker, or a named import source.
public struct Device: Hashable, Sendable {
    public var id: DeviceID
    public var userID: UserID
    /// Unique per user, non-empty.
    public var name: String
    public var createdAt: Date
    /// The app it runs, when its owner said so.
    public var app: DeviceApp?
    /// What its token may do.
    public var tokenScope: TokenScope

    public init(id: DeviceID, userID: UserID, name: String, createdAt: Date, app: DeviceApp? = nil, tokenScope: TokenScope = .write) {
        self.id = id
        self.userID = userID
        self.name = name
        self.createdAt = createdAt
        self.app = app
        self.tokenScope = tokenScope
    }
}
