import Foundation
import GRDB
import TravelogStore

extension SQLiteLocationStore {
    static let shareColumns = """
        id, user_id, kind, from_ms, to_ms, title, password_hash, hide_visits, created_at_ms, expires_at_ms,
        revoked_at_ms, views, last_viewed_at_ms, include_photos
        """

    public func addShare(_ record: ShareRecord, tokenDigest: SecretDigest) async throws(StoreError) -> StoredShare {
        try await write("making a share link") { db throws(StoreError) in
            guard (try? Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE id = ?", arguments: [record.userID.rawValue])) != nil
            else { throw .unknownUser(record.userID) }
            try Self.execute(db, "making a share link", """
                INSERT INTO shares (user_id, token_sha256, kind, from_ms, to_ms, title, password_hash, hide_visits,
                                    include_photos, created_at_ms, expires_at_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [record.userID.rawValue, tokenDigest.rawValue, record.kind.rawValue,
                      StoragePrecision.milliseconds(record.from), StoragePrecision.milliseconds(record.to), record.title,
                      record.passwordHash, record.hideVisits, record.includePhotos, StoragePrecision.milliseconds(record.createdAt),
                      record.expiresAt.map(StoragePrecision.milliseconds)])
            let id = db.lastInsertedRowID
            guard let row = try? Row.fetchOne(db, sql: "SELECT \(Self.shareColumns) FROM shares WHERE id = ?", arguments: [id]),
                  let share = Self.share(row) else {
                throw .database(operation: "making a share link", message: "the new link cannot be read back")
            }
            return share
        }
    }

    public func share(tokenDigest: SecretDigest) async throws(StoreError) -> StoredShare? {
        try await read("reading a share link") { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.shareColumns) FROM shares WHERE token_sha256 = ?"),
                             arguments: [tokenDigest.rawValue]).flatMap(Self.share)
        }
    }

    public func shares(userID: UserID) async throws(StoreError) -> [StoredShare] {
        try await read("reading share links") { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.shareColumns) FROM shares WHERE user_id = ? ORDER BY id DESC",
                             arguments: [userID.rawValue]).compactMap(Self.share)
        }
    }

    public func revokeShare(id: ShareID, userID: UserID, at date: Date) async throws(StoreError) -> StoredShare? {
        try await write("revoking a share link") { db throws(StoreError) in
            try Self.execute(db, "revoking a share link",
                             "UPDATE shares SET revoked_at_ms = coalesce(revoked_at_ms, ?) WHERE id = ? AND user_id = ?",
                             [StoragePrecision.milliseconds(date), id.rawValue, userID.rawValue])
            guard db.changesCount == 1 else { return nil }
            return (try? Row.fetchOne(db, sql: "SELECT \(Self.shareColumns) FROM shares WHERE id = ?", arguments: [id.rawValue]))
                .flatMap(Self.share)
        }
    }

    public func recordShareView(id: ShareID, at date: Date) async throws(StoreError) {
        try await write("counting a share link's view") { db throws(StoreError) in
            try Self.execute(db, "counting a share link's view",
                             "UPDATE shares SET views = views + 1, last_viewed_at_ms = ? WHERE id = ?",
                             [StoragePrecision.milliseconds(date), id.rawValue])
        }
    }

    /// A share from its row; nil for a kind this version does not know.
    static func share(_ row: Row) -> StoredShare? {
        guard let kind = ShareKind(rawValue: row["kind"]) else { return nil }
        let record = ShareRecord(
            userID: UserID(rawValue: row["user_id"]), kind: kind,
            from: StoragePrecision.date(milliseconds: row["from_ms"]), to: StoragePrecision.date(milliseconds: row["to_ms"]),
            title: row["title"], passwordHash: row["password_hash"], hideVisits: row["hide_visits"],
            includePhotos: row["include_photos"], createdAt: StoragePrecision.date(milliseconds: row["created_at_ms"]),
            expiresAt: (row["expires_at_ms"] as Int64?).map { StoragePrecision.date(milliseconds: $0) })
        return StoredShare(id: ShareID(rawValue: row["id"]), record: record,
                           revokedAt: (row["revoked_at_ms"] as Int64?).map { StoragePrecision.date(milliseconds: $0) },
                           views: row["views"],
                           lastViewedAt: (row["last_viewed_at_ms"] as Int64?).map { StoragePrecision.date(milliseconds: $0) })
    }
}
