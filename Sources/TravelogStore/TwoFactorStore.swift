import Foundation

/// A user's second factor as the store keeps it: the TOTP secret (base32, as the app was given it:
/// Travelog must compute codes from it, so it cannot be a digest), whether the user confirmed it
/// (only then does a login ask for a code), and the latest step a code was accepted for.
public struct TwoFactorRecord: Sendable, Equatable {
    public var secret: String
    public var isEnabled: Bool
    public var createdAt: Date
    /// The TOTP step (seconds since 1970 / 30) of the last code accepted: a code of this step or an
    /// earlier one is never accepted again.
    public var lastUsedStep: Int64?

    public init(secret: String, isEnabled: Bool, createdAt: Date, lastUsedStep: Int64? = nil) {
        self.secret = secret
        self.isEnabled = isEnabled
        self.createdAt = createdAt
        self.lastUsedStep = lastUsedStep
    }
}

/// Two-factor login per user: the TOTP secret and the SHA-256 digests of the one-time recovery
/// codes (SQLite `two_factor` and `two_factor_recovery_codes`, migration 016; PostgreSQL 015). They go
/// with the user. Every operation that spends something (a step, a recovery code) is one atomic
/// statement, so two logins racing with the same code (in one process or two) cannot both win.
/// Not part of `TravelogStore`: callers ask `store as? any TwoFactorStore`.
public protocol TwoFactorStore: Sendable {
    /// Keeps a new secret, not enabled, with its recovery codes, replacing whatever the user had
    /// (an enabled secret too: the caller decides whether that is allowed). - Throws: `StoreError.unknownUser`.
    func setTwoFactor(secret: String, recoveryCodeDigests: [SecretDigest], userID: UserID, at date: Date) async throws(StoreError)
    /// The user's second factor, if one was set.
    func twoFactor(userID: UserID) async throws(StoreError) -> TwoFactorRecord?
    /// Turns the user's secret on. - Returns: false when the user has none.
    func enableTwoFactor(userID: UserID) async throws(StoreError) -> Bool
    /// Removes the secret and the recovery codes. - Returns: whether there were some.
    @discardableResult
    func deleteTwoFactor(userID: UserID) async throws(StoreError) -> Bool
    /// Records `step` as the last one used, only when it is later than the last one recorded.
    /// - Returns: whether it was (false: the step, or a later one, was used already).
    func useTwoFactorStep(_ step: Int64, userID: UserID) async throws(StoreError) -> Bool
    /// Removes the recovery code with this digest. - Returns: whether the user had it.
    func spendRecoveryCode(_ digest: SecretDigest, userID: UserID) async throws(StoreError) -> Bool
    /// How many recovery codes the user has left.
    func recoveryCodeCount(userID: UserID) async throws(StoreError) -> Int
}
