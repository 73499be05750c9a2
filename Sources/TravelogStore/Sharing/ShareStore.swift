import Foundation

/// A share link's identifier in a store (what the owner revokes it by; the link itself carries a
/// secret token, of which the store keeps only the digest).
public struct ShareID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }
}

/// What a share link shows: the owner's path and journal over one stretch of time, or their live position.
public enum ShareKind: String, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// One local day.
    case day
    /// A stretch of time between two instants.
    case range
    /// One trip of the journal (the stretch between two visits).
    case trip
    /// The latest position (and the path) from the moment the link was made until it expires.
    case live

    public var description: String { rawValue }
}

/// A share link as its owner made it.
public struct ShareRecord: Hashable, Sendable {
    public var userID: UserID
    public var kind: ShareKind
    /// The first instant shown.
    public var from: Date
    /// The last instant shown (for a live link: when it stops showing the position).
    public var to: Date
    /// What the page calls it; nil for a default title.
    public var title: String?
    /// A bcrypt hash of the password a visitor must give first, or nil for none.
    public var passwordHash: String?
    /// Whether the journal's entries (visits) are left out.
    public var hideVisits: Bool
    /// Whether the photos taken in the range are shown (placed ones outside hidden privacy zones; off unless the owner asks).
    public var includePhotos: Bool
    public var createdAt: Date
    /// When the link stops working (410 Gone), or nil for never.
    public var expiresAt: Date?

    public init(userID: UserID, kind: ShareKind, from: Date, to: Date, title: String? = nil, passwordHash: String? = nil,
                hideVisits: Bool = false, includePhotos: Bool = false, createdAt: Date, expiresAt: Date?) {
        self.userID = userID
        self.kind = kind
        self.from = from
        self.to = to
        self.title = title
        self.passwordHash = passwordHash
        self.hideVisits = hideVisits
        self.includePhotos = includePhotos
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// A share link as a store keeps it: its record, whether it was revoked, and how often it was opened.
public struct StoredShare: Hashable, Sendable {
    public var id: ShareID
    public var record: ShareRecord
    /// When the owner revoked it; a revoked link reads nothing from then on.
    public var revokedAt: Date?
    /// How many times the link's page was opened (a password-protected one: opened and unlocked).
    public var views: Int
    public var lastViewedAt: Date?

    public init(id: ShareID, record: ShareRecord, revokedAt: Date? = nil, views: Int = 0, lastViewedAt: Date? = nil) {
        self.id = id
        self.record = record
        self.revokedAt = revokedAt
        self.views = views
        self.lastViewedAt = lastViewedAt
    }

    /// Whether the link reads anything at `now`: not revoked and not expired.
    public func isOpen(at now: Date) -> Bool {
        revokedAt == nil && (record.expiresAt.map { now < $0 } ?? true)
    }
}

/// Share links: a user's read-only view of part of their history for anyone holding the link.
/// The store keeps the SHA-256 digest of each link's token, never the token. Each backend passes
/// `ShareStoreConformanceTests`.
public protocol ShareStore: Sendable {
    /// Keeps a new link. Dates are kept to the millisecond. - Throws: `StoreError.unknownUser`.
    func addShare(_ record: ShareRecord, tokenDigest: SecretDigest) async throws(StoreError) -> StoredShare
    /// The link whose token has this digest (revoked and expired ones too: the caller decides), or nil.
    func share(tokenDigest: SecretDigest) async throws(StoreError) -> StoredShare?
    /// The user's links, newest first.
    func shares(userID: UserID) async throws(StoreError) -> [StoredShare]
    /// Revokes the user's link at `date` (a second revocation keeps the first date).
    /// - Returns: the link, or nil when the user has no link with this id.
    func revokeShare(id: ShareID, userID: UserID, at date: Date) async throws(StoreError) -> StoredShare?
    /// Counts one view of the link at `date`.
    func recordShareView(id: ShareID, at date: Date) async throws(StoreError)
}
