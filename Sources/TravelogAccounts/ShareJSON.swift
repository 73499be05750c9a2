import Foundation
import TravelogFormats
import TravelogStore

/// A share link as its owner sees it (`GET /api/v1/shares`, `travelog share list --json`): never its
/// token, which only the answer that made it holds.
public struct ShareJSON: Encodable, Sendable {
    public var id: Int64
    public var kind: String
    public var from: String
    public var to: String
    public var title: String?
    public var hasPassword: Bool
    public var hideVisits: Bool
    /// Whether the link shows the range's photos.
    public var photos: Bool
    public var createdAt: String
    public var expiresAt: String?
    public var revokedAt: String?
    public var views: Int
    public var lastViewedAt: String?
    /// `active`, `expired` or `revoked`.
    public var status: String
    /// Only in the answer that made it.
    public var token: String?
    public var path: String?
    public var url: String?

    public init(_ share: StoredShare, now: Date, token: String? = nil, baseURL: String? = nil) {
        id = share.id.rawValue
        kind = share.record.kind.rawValue
        from = ISO8601TimeFormatter.string(share.record.from)
        to = ISO8601TimeFormatter.string(share.record.to)
        title = share.record.title
        hasPassword = share.record.passwordHash != nil
        hideVisits = share.record.hideVisits
        photos = share.record.includePhotos
        createdAt = ISO8601TimeFormatter.string(share.record.createdAt)
        expiresAt = share.record.expiresAt.map(ISO8601TimeFormatter.string)
        revokedAt = share.revokedAt.map(ISO8601TimeFormatter.string)
        views = share.views
        lastViewedAt = share.lastViewedAt.map(ISO8601TimeFormatter.string)
        status = share.revokedAt != nil ? "revoked" : share.isOpen(at: now) ? "active" : "expired"
        self.token = token
        path = token.map { "/s/\($0)" }
        url = token.flatMap { token in baseURL.map { "\($0)/s/\(token)" } }
    }
}
