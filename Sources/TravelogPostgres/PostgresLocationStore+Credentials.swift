import Foundation
import PostgresNIO
import TravelogStore

extension PostgresLocationStore {
    public func setPasswordHash(_ hash: String, userID: UserID) async throws(StoreError) {
        let changed = try await rows("setting a password",
                                     "UPDATE users SET password_hash = \(hash) WHERE id = \(userID.rawValue) RETURNING id")
        guard changed.count == 1 else { throw .unknownUser(userID) }
    }

    public func passwordHash(userID: UserID) async throws(StoreError) -> String? {
        let found = try await rows("reading a password hash", "SELECT password_hash FROM users WHERE id = \(userID.rawValue)")
        guard let row = found.first else { return nil }
        return try Self.decode(row, as: String?.self, "reading a password hash")
    }

    public func setTokenDigest(_ digest: SecretDigest, deviceID: DeviceID) async throws(StoreError) {
        try await updateDevice("setting a device token", deviceID, "token_sha256 = \(digest.rawValue)")
    }

    public func device(tokenDigest: SecretDigest) async throws(StoreError) -> Device? {
        try await rows("reading a device", """
            SELECT \(unescaped: Self.deviceColumns) FROM devices WHERE token_sha256 = \(tokenDigest.rawValue)
            """).first.map(Self.device)
    }

    public func setTokenScope(_ scope: TokenScope, deviceID: DeviceID) async throws(StoreError) {
        try await updateDevice("setting a token's scope", deviceID, "token_scope = \(scope.rawValue)")
    }

    public func setApp(_ app: DeviceApp?, deviceID: DeviceID) async throws(StoreError) {
        try await updateDevice("setting a device's app", deviceID, "app = \(app?.rawValue)")
    }

    public func addSession(digest: SecretDigest, _ session: SessionRecord) async throws(StoreError) {
        let expires = StoragePrecision.milliseconds(session.expiresAt)
        let started = session.startedAt.map(StoragePrecision.milliseconds)
        // Replacing a session with the same digest, as the SQLite store's INSERT OR REPLACE does.
        let added = try await transaction("starting a session") { connection in
            try await connection.run("DELETE FROM sessions WHERE id_sha256 = \(digest.rawValue)", logger: logger)
            return try await connection.run("""
                INSERT INTO sessions (user_id, id_sha256, expires_at_ms, started_at_ms)
                SELECT id, \(digest.rawValue), \(expires), \(started) FROM users WHERE id = \(session.userID.rawValue) RETURNING 1
                """, logger: logger).collect().count
        }
        guard added == 1 else { throw .unknownUser(session.userID) }
    }

    public func session(digest: SecretDigest) async throws(StoreError) -> SessionRecord? {
        let found = try await rows("reading a session",
                                   "SELECT user_id, expires_at_ms, started_at_ms FROM sessions WHERE id_sha256 = \(digest.rawValue)")
        guard let row = found.first else { return nil }
        let (userID, expires, started) = try Self.decode(row, as: (Int64, Int64, Int64?).self, "reading a session")
        return SessionRecord(userID: UserID(rawValue: userID), expiresAt: StoragePrecision.date(milliseconds: expires),
                             startedAt: started.map(StoragePrecision.date(milliseconds:)))
    }

    public func deleteSession(digest: SecretDigest) async throws(StoreError) {
        _ = try await rows("ending a session", "DELETE FROM sessions WHERE id_sha256 = \(digest.rawValue)")
    }

    public func sessions(userID: UserID) async throws(StoreError) -> [(digest: SecretDigest, record: SessionRecord)] {
        var result: [(digest: SecretDigest, record: SessionRecord)] = []
        for row in try await rows("reading sessions", """
            SELECT id_sha256, expires_at_ms, started_at_ms FROM sessions WHERE user_id = \(userID.rawValue)
            ORDER BY expires_at_ms, id_sha256 COLLATE "C"
            """) {
            let (digest, expires, started) = try Self.decode(row, as: (String, Int64, Int64?).self, "reading sessions")
            result.append((digest: SecretDigest(rawValue: digest),
                           record: SessionRecord(userID: userID, expiresAt: StoragePrecision.date(milliseconds: expires),
                                                 startedAt: started.map(StoragePrecision.date(milliseconds:)))))
        }
        return result
    }

    @discardableResult
    public func deleteSessions(userID: UserID) async throws(StoreError) -> Int {
        try await rows("ending sessions", "DELETE FROM sessions WHERE user_id = \(userID.rawValue) RETURNING 1").count
    }

    /// Sets columns of one device. - Throws: `StoreError.unknownDevice` when there is no such device.
    private func updateDevice(_ operation: String, _ deviceID: DeviceID, _ assignment: PostgresQuery) async throws(StoreError) {
        var bindings = assignment.binds
        bindings.append(deviceID.rawValue)
        let query = PostgresQuery(unsafeSQL: "UPDATE devices SET \(assignment.sql) WHERE id = $\(bindings.count) RETURNING id",
                                  binds: bindings)
        guard try await rows(operation, query).count == 1 else { throw .unknownDevice(deviceID) }
    }
}
