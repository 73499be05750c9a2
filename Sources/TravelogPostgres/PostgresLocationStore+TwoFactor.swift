import Foundation
import PostgresNIO
import TravelogStore

extension PostgresLocationStore: TwoFactorStore {
    public func setTwoFactor(secret: String, recoveryCodeDigests: [SecretDigest], userID: UserID, at date: Date) async throws(StoreError) {
        let digests = Array(Set(recoveryCodeDigests.map(\.rawValue)))
        try await transaction("setting up two-factor login") { connection in
            // The codes go with the row (ON DELETE CASCADE).
            _ = try await connection.run("DELETE FROM two_factor WHERE user_id = \(userID.rawValue)", logger: logger)
            let inserted = try await connection.run("""
                INSERT INTO two_factor (user_id, totp_secret, enabled, created_at_ms)
                SELECT id, \(secret), false, \(StoragePrecision.milliseconds(date)) FROM users WHERE id = \(userID.rawValue)
                RETURNING user_id
                """, logger: logger).collect()
            guard inserted.count == 1 else { throw StoreError.unknownUser(userID) }
            _ = try await connection.run("""
                INSERT INTO two_factor_recovery_codes (user_id, code_sha256) SELECT \(userID.rawValue), unnest(\(digests)::text[])
                """, logger: logger)
        }
    }

    public func twoFactor(userID: UserID) async throws(StoreError) -> TwoFactorRecord? {
        let operation = "reading two-factor login"
        let found = try await rows(operation, """
            SELECT totp_secret, enabled, created_at_ms, last_used_step FROM two_factor WHERE user_id = \(userID.rawValue)
            """)
        guard let row = found.first else { return nil }
        let (secret, enabled, createdMS, lastStep) = try Self.decode(row, as: (String, Bool, Int64, Int64?).self, operation)
        return TwoFactorRecord(secret: secret, isEnabled: enabled, createdAt: StoragePrecision.date(milliseconds: createdMS),
                               lastUsedStep: lastStep)
    }

    public func enableTwoFactor(userID: UserID) async throws(StoreError) -> Bool {
        try await !rows("enabling two-factor login",
                        "UPDATE two_factor SET enabled = true WHERE user_id = \(userID.rawValue) RETURNING user_id").isEmpty
    }

    @discardableResult
    public func deleteTwoFactor(userID: UserID) async throws(StoreError) -> Bool {
        try await !rows("disabling two-factor login", "DELETE FROM two_factor WHERE user_id = \(userID.rawValue) RETURNING user_id").isEmpty
    }

    public func useTwoFactorStep(_ step: Int64, userID: UserID) async throws(StoreError) -> Bool {
        try await !rows("using a two-factor code", """
            UPDATE two_factor SET last_used_step = \(step)
            WHERE user_id = \(userID.rawValue) AND (last_used_step IS NULL OR last_used_step < \(step))
            RETURNING user_id
            """).isEmpty
    }

    public func spendRecoveryCode(_ digest: SecretDigest, userID: UserID) async throws(StoreError) -> Bool {
        try await !rows("spending a recovery code", """
            DELETE FROM two_factor_recovery_codes WHERE user_id = \(userID.rawValue) AND code_sha256 = \(digest.rawValue)
            RETURNING user_id
            """).isEmpty
    }

    public func recoveryCodeCount(userID: UserID) async throws(StoreError) -> Int {
        let operation = "counting recovery codes"
        let found = try await rows(operation, "SELECT count(*) FROM two_factor_recovery_codes WHERE user_id = \(userID.rawValue)")
        guard let row = found.first else { return 0 }
        return Int(try Self.decode(row, column: 0, as: Int64.self, operation))
    }
}
