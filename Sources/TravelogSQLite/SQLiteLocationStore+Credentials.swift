import Foundation
import GRDB
import TravelogStore

extension SQLiteLocationStore {
    public func setPasswordHash(_ hash: String, userID: UserID) async throws(StoreError) {
        try await write("setting a password") { db throws(StoreError) in
            try Self.execute(db, "setting a password", "UPDATE users SET password_hash = ? WHERE id = ?", [hash, userID.rawValue])
            guard db.changesCount == 1 else { throw .unknownUser(userID) }
        }
    }

    public func passwordHash(userID: UserID) async throws(StoreError) -> String? {
        try await read("reading a password hash") { db in
            try String?.fetchOne(db, sql: "SELECT password_hash FROM users WHERE id = ?", arguments: [userID.rawValue]) ?? nil
        }
    }

    public func setTokenDigest(_ digest: SecretDigest, deviceID: DeviceID) async throws(StoreError) {
        try await write("setting a device token") { db throws(StoreError) in
            try Self.execute(db, "setting a device token", "UPDATE devices SET token_sha256 = ? WHERE id = ?",
                             [digest.rawValue, deviceID.rawValue])
            guard db.changesCount == 1 else { throw .unknownDevice(deviceID) }
        }
    }

    /// The device of a token digest; read for every token-authenticated request, so its prepared
    /// statement is kept (`cachedStatement`).
    static let deviceByTokenSQL = "SELECT id, user_id, name, created_at_ms, app, token_scope FROM devices WHERE token_sha256 = ?"

    public func device(tokenDigest: SecretDigest) async throws(StoreError) -> Device? {
        try await read("reading a device") { db in
            try Row.fetchOne(db.cachedStatement(sql: Self.deviceByTokenSQL), arguments: [tokenDigest.rawValue]).map(Self.device)
        }
    }

    /// One read (one transaction, on the caller's thread: ``credentialReader``) for both rows: three
    /// separate reads were 0.6 ms of a 1.2 ms directions request (`make bench NAMES=directions-valhalla`).
    public func tokenHolder(tokenDigest: SecretDigest) async throws(StoreError) -> (device: Device, user: User)? {
        try readCredentials("reading a device and its user") { db in
            let devices = try db.cachedStatement(sql: Self.deviceByTokenSQL)
            let users = try db.cachedStatement(sql: "SELECT \(Self.userColumns) FROM users WHERE id = ?")
            guard let device = try Row.fetchOne(devices, arguments: [tokenDigest.rawValue]).map(Self.device),
                  let user = try Row.fetchOne(users, arguments: [device.userID.rawValue]).map(Self.user) else { return nil }
            return (device, user)
        }
    }

    public func setTokenScope(_ scope: TokenScope, deviceID: DeviceID) async throws(StoreError) {
        try await write("setting a token's scope") { db throws(StoreError) in
            try Self.execute(db, "setting a token's scope", "UPDATE devices SET token_scope = ? WHERE id = ?",
                             [scope.rawValue, deviceID.rawValue])
            guard db.changesCount == 1 else { throw .unknownDevice(deviceID) }
        }
    }

    public func setApp(_ app: DeviceApp?, deviceID: DeviceID) async throws(StoreError) {
        try await write("setting a device's app") { db throws(StoreError) in
            try Self.execute(db, "setting a device's app", "UPDATE devices SET app = ? WHERE id = ?",
                             [app?.rawValue, deviceID.rawValue])
            guard db.changesCount == 1 else { throw .unknownDevice(deviceID) }
        }
    }

    public func addSession(digest: SecretDigest, _ session: SessionRecord) async throws(StoreError) {
        try await write("starting a session") { db throws(StoreError) in
            guard (try? Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE id = ?", arguments: [session.userID.rawValue])) != nil
            else { throw .unknownUser(session.userID) }
            try Self.execute(db, "starting a session",
                             "INSERT OR REPLACE INTO sessions (id_sha256, user_id, expires_at_ms, started_at_ms) VALUES (?, ?, ?, ?)",
                             [digest.rawValue, session.userID.rawValue, StoragePrecision.milliseconds(session.expiresAt),
                              session.startedAt.map(StoragePrecision.milliseconds)])
        }
    }

    public func session(digest: SecretDigest) async throws(StoreError) -> SessionRecord? {
        try readCredentials("reading a session") { db in
            try Row.fetchOne(db, sql: "SELECT user_id, expires_at_ms, started_at_ms FROM sessions WHERE id_sha256 = ?",
                             arguments: [digest.rawValue]).map { row in
                SessionRecord(userID: UserID(rawValue: row[0]), expiresAt: StoragePrecision.date(milliseconds: row[1]),
                              startedAt: (row[2] as Int64?).map(StoragePrecision.date(milliseconds:)))
            }
        }
    }

    public func deleteSession(digest: SecretDigest) async throws(StoreError) {
        try await write("ending a session") { db throws(StoreError) in
            try Self.execute(db, "ending a session", "DELETE FROM sessions WHERE id_sha256 = ?", [digest.rawValue])
        }
    }

    public func sessions(userID: UserID) async throws(StoreError) -> [(digest: SecretDigest, record: SessionRecord)] {
        try await read("reading sessions") { db in
            try Row.fetchAll(db, sql: """
                SELECT id_sha256, expires_at_ms, started_at_ms FROM sessions WHERE user_id = ? ORDER BY expires_at_ms, id_sha256
                """, arguments: [userID.rawValue]).map { row in
                (digest: SecretDigest(rawValue: row[0]),
                 record: SessionRecord(userID: userID, expiresAt: StoragePrecision.date(milliseconds: row[1]),
                                       startedAt: (row[2] as Int64?).map(StoragePrecision.date(milliseconds:))))
            }
        }
    }

    @discardableResult
    public func deleteSessions(userID: UserID) async throws(StoreError) -> Int {
        try await write("ending sessions") { db throws(StoreError) -> Int in
            try Self.execute(db, "ending sessions", "DELETE FROM sessions WHERE user_id = ?", [userID.rawValue])
            return db.changesCount
        }
    }

    /// Runs one statement, mapping a failure to `StoreError.database`.
    static func execute(_ db: Database, _ operation: String, _ sql: String, _ arguments: StatementArguments) throws(StoreError) {
        do {
            try db.execute(sql: sql, arguments: arguments)
        } catch {
            throw .database(operation: operation, message: String(describing: error))
        }
    }
}
