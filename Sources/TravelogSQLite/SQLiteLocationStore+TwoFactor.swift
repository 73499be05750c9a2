import Foundation
import GRDB
import TravelogStore

extension SQLiteLocationStore: TwoFactorStore {
    public func setTwoFactor(secret: String, recoveryCodeDigests: [SecretDigest], userID: UserID, at date: Date) async throws(StoreError) {
        try await write("setting up two-factor login") { db throws(StoreError) in
            guard (try? Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE id = ?", arguments: [userID.rawValue])) != nil
            else { throw .unknownUser(userID) }
            // The codes go with the row (ON DELETE CASCADE).
            try Self.execute(db, "setting up two-factor login", "DELETE FROM two_factor WHERE user_id = ?", [userID.rawValue])
            try Self.execute(db, "setting up two-factor login", """
                INSERT INTO two_factor (user_id, totp_secret, enabled, created_at_ms) VALUES (?, ?, 0, ?)
                """, [userID.rawValue, secret, StoragePrecision.milliseconds(date)])
            for digest in Set(recoveryCodeDigests) {
                try Self.execute(db, "setting up two-factor login",
                                 "INSERT INTO two_factor_recovery_codes (user_id, code_sha256) VALUES (?, ?)",
                                 [userID.rawValue, digest.rawValue])
            }
        }
    }

    public func twoFactor(userID: UserID) async throws(StoreError) -> TwoFactorRecord? {
        try await read("reading two-factor login") { db in
            try Row.fetchOne(db, sql: "SELECT totp_secret, enabled, created_at_ms, last_used_step FROM two_factor WHERE user_id = ?",
                             arguments: [userID.rawValue]).map { row in
                TwoFactorRecord(secret: row["totp_secret"], isEnabled: row["enabled"],
                                createdAt: StoragePrecision.date(milliseconds: row["created_at_ms"]), lastUsedStep: row["last_used_step"])
            }
        }
    }

    public func enableTwoFactor(userID: UserID) async throws(StoreError) -> Bool {
        try await write("enabling two-factor login") { db throws(StoreError) in
            try Self.execute(db, "enabling two-factor login", "UPDATE two_factor SET enabled = 1 WHERE user_id = ?", [userID.rawValue])
            return db.changesCount == 1
        }
    }

    @discardableResult
    public func deleteTwoFactor(userID: UserID) async throws(StoreError) -> Bool {
        try await write("disabling two-factor login") { db throws(StoreError) in
            try Self.execute(db, "disabling two-factor login", "DELETE FROM two_factor WHERE user_id = ?", [userID.rawValue])
            return db.changesCount == 1
        }
    }

    public func useTwoFactorStep(_ step: Int64, userID: UserID) async throws(StoreError) -> Bool {
        try await write("using a two-factor code") { db throws(StoreError) in
            try Self.execute(db, "using a two-factor code", """
                UPDATE two_factor SET last_used_step = ? WHERE user_id = ? AND (last_used_step IS NULL OR last_used_step < ?)
                """, [step, userID.rawValue, step])
            return db.changesCount == 1
        }
    }

    public func spendRecoveryCode(_ digest: SecretDigest, userID: UserID) async throws(StoreError) -> Bool {
        try await write("spending a recovery code") { db throws(StoreError) in
            try Self.execute(db, "spending a recovery code",
                             "DELETE FROM two_factor_recovery_codes WHERE user_id = ? AND code_sha256 = ?",
                             [userID.rawValue, digest.rawValue])
            return db.changesCount == 1
        }
    }

    public func recoveryCodeCount(userID: UserID) async throws(StoreError) -> Int {
        try await read("counting recovery codes") { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM two_factor_recovery_codes WHERE user_id = ?", arguments: [userID.rawValue]) ?? 0
        }
    }
}
