import Foundation
import PostgresNIO
import TravelogStore

extension PostgresLocationStore {
    static let shareColumns = """
        id, user_id, kind, from_ms, to_ms, title, password_hash, hide_visits, created_at_ms, expires_at_ms,
        revoked_at_ms, views, last_viewed_at_ms, include_photos
        """

    public func addShare(_ record: ShareRecord, tokenDigest: SecretDigest) async throws(StoreError) -> StoredShare {
        let expires = record.expiresAt.map(StoragePrecision.milliseconds)
        let found = try await rows("making a share link", """
            INSERT INTO shares (user_id, token_sha256, kind, from_ms, to_ms, title, password_hash, hide_visits,
                                include_photos, created_at_ms, expires_at_ms)
            SELECT id, \(tokenDigest.rawValue), \(record.kind.rawValue), \(StoragePrecision.milliseconds(record.from)),
                   \(StoragePrecision.milliseconds(record.to)), \(record.title), \(record.passwordHash), \(record.hideVisits), \(record.includePhotos),
                   \(StoragePrecision.milliseconds(record.createdAt)), \(expires)
            FROM users WHERE id = \(record.userID.rawValue)
            RETURNING \(unescaped: Self.shareColumns)
            """)
        guard let row = found.first else { throw .unknownUser(record.userID) }
        return try Self.share(row, "making a share link")
    }

    public func share(tokenDigest: SecretDigest) async throws(StoreError) -> StoredShare? {
        let found = try await rows("reading a share link",
                                   "SELECT \(unescaped: Self.shareColumns) FROM shares WHERE token_sha256 = \(tokenDigest.rawValue)")
        guard let row = found.first else { return nil }
        return try Self.share(row, "reading a share link")
    }

    public func shares(userID: UserID) async throws(StoreError) -> [StoredShare] {
        var result: [StoredShare] = []
        for row in try await rows("reading share links", """
            SELECT \(unescaped: Self.shareColumns) FROM shares WHERE user_id = \(userID.rawValue) ORDER BY id DESC
            """) {
            result.append(try Self.share(row, "reading share links"))
        }
        return result
    }

    public func revokeShare(id: ShareID, userID: UserID, at date: Date) async throws(StoreError) -> StoredShare? {
        let found = try await rows("revoking a share link", """
            UPDATE shares SET revoked_at_ms = coalesce(revoked_at_ms, \(StoragePrecision.milliseconds(date)))
            WHERE id = \(id.rawValue) AND user_id = \(userID.rawValue)
            RETURNING \(unescaped: Self.shareColumns)
            """)
        guard let row = found.first else { return nil }
        return try Self.share(row, "revoking a share link")
    }

    public func recordShareView(id: ShareID, at date: Date) async throws(StoreError) {
        _ = try await rows("counting a share link's view", """
            UPDATE shares SET views = views + 1, last_viewed_at_ms = \(StoragePrecision.milliseconds(date)) WHERE id = \(id.rawValue)
            """)
    }

    static func share(_ row: PostgresRow, _ operation: String) throws(StoreError) -> StoredShare {
        let (id, userID, kindName, fromMS, toMS, title, passwordHash, hideVisits, createdMS, expiresMS, revokedMS, views, viewedMS,
             includePhotos)
            = try decode(row, as: (Int64, Int64, String, Int64, Int64, String?, String?, Bool, Int64, Int64?, Int64?, Int64, Int64?,
                                   Bool).self,
                         operation)
        guard let kind = ShareKind(rawValue: kindName) else {
            throw .database(operation: operation, message: "share \(id) has the unknown kind '\(kindName)'")
        }
        let record = ShareRecord(userID: UserID(rawValue: userID), kind: kind,
                                 from: StoragePrecision.date(milliseconds: fromMS), to: StoragePrecision.date(milliseconds: toMS),
                                 title: title, passwordHash: passwordHash, hideVisits: hideVisits, includePhotos: includePhotos,
                                 createdAt: StoragePrecision.date(milliseconds: createdMS),
                                 expiresAt: expiresMS.map { StoragePrecision.date(milliseconds: $0) })
        return StoredShare(id: ShareID(rawValue: id), record: record, revokedAt: revokedMS.map { StoragePrecision.date(milliseconds: $0) },
                           views: Int(views), lastViewedAt: viewedMS.map { StoragePrecision.date(milliseconds: $0) })
    }
}
