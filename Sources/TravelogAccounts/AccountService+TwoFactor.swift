import Foundation
import Synchronization
import TravelogStore

/// Two-factor login: a TOTP secret (RFC 6238) and ten recovery codes per user, over the store's
/// `TwoFactorStore`. Once a user confirmed the secret with a code, a login with the password asks
/// for a code as well; wrong codes are throttled as wrong passwords are (their own count per name,
/// which a right password does not clear, and the address's).
extension AccountService {
    /// The issuer an authenticator app shows beside the account.
    public static let twoFactorIssuer = "Travelog"

    /// What a login with a password (and perhaps a code) comes to.
    public enum LoginOutcome: Sendable, Equatable {
        case loggedIn(User)
        /// The password is right and the user has two-factor login on: a code is needed.
        case codeNeeded
        case wrongPassword
        /// The password is right, the code is not (or was used already).
        case wrongCode
    }

    /// Logs in with a password and, for a user with two-factor login on, a code: a TOTP code of the
    /// current step (± 1) not used before, or a recovery code, which is then spent.
    /// - Throws: `AccountError.throttled` while the name or the address must wait.
    public func logIn(named name: String, password: String, code: String?, from address: String?,
                      at now: Date = Date()) async throws(AccountError) -> LoginOutcome {
        let codeKeys = Self.codeThrottleKeys(name: name, address: address)
        let code = code.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        if code != nil {
            let wait = throttle.withLock { $0.waitSeconds(codeKeys, at: now) }
            if wait > 0 { throw .throttled(retryAfterSeconds: Int(wait.rounded(.up))) }
        }
        guard let user = try await user(named: name, password: password, from: address) else { return .wrongPassword }
        guard let store = store as? any TwoFactorStore,
              let record = try await wrap({ () throws(StoreError) in try await store.twoFactor(userID: user.id) }),
              record.isEnabled else { return .loggedIn(user) }
        guard let code else { return .codeNeeded }
        guard try await accepts(code, record: record, userID: user.id, store: store, at: now) else {
            throttle.withLock { $0.failed(codeKeys, at: Date()) }
            return .wrongCode
        }
        throttle.withLock { $0.succeeded(user: Self.codeThrottleName(name)) }
        return .loggedIn(user)
    }

    /// Whether the user must give a code at login (false for a store without two-factor login).
    public func isTwoFactorEnabled(userID: UserID) async throws(AccountError) -> Bool {
        guard let store = store as? any TwoFactorStore else { return false }
        return try await wrap { () throws(StoreError) in try await store.twoFactor(userID: userID) }?.isEnabled ?? false
    }

    public func twoFactorStatus(userID: UserID) async throws(TwoFactorError) -> TwoFactorStatus {
        let store = try twoFactorStore()
        guard let record = try await twoFactorStep({ () throws(StoreError) in try await store.twoFactor(userID: userID) }) else {
            return .off
        }
        let left = try await twoFactorStep { () throws(StoreError) in try await store.recoveryCodeCount(userID: userID) }
        return TwoFactorStatus(isEnabled: record.isEnabled, isPending: !record.isEnabled, recoveryCodesLeft: left)
    }

    /// Makes a new secret and ten recovery codes for the user, kept but not enabled until a code
    /// of the app confirms them (`confirmTwoFactor`); a secret waiting from before is replaced.
    /// - Throws: `TwoFactorError.alreadyEnabled` while two-factor login is on.
    public func beginTwoFactor(for user: User, at now: Date = Date()) async throws(TwoFactorError) -> TwoFactorSetup {
        let store = try twoFactorStore()
        if try await twoFactorStep({ () throws(StoreError) in try await store.twoFactor(userID: user.id) })?.isEnabled == true {
            throw .alreadyEnabled
        }
        let totp = TOTP(secret: TOTP.newSecret())
        let codes = RecoveryCodes.make()
        let secret = Base32.encode(totp.secret)
        try await twoFactorStep { () throws(StoreError) in
            try await store.setTwoFactor(secret: secret, recoveryCodeDigests: codes.map(RecoveryCodes.digest), userID: user.id, at: now)
        }
        return TwoFactorSetup(secret: secret, uri: totp.uri(issuer: Self.twoFactorIssuer, account: user.name), recoveryCodes: codes)
    }

    /// Turns on the secret waiting for the user when `code` is the app's code for it now (wrong
    /// codes are throttled as at login), and ends the user's sessions but `keepingSession` (logins
    /// made with the password alone). - Throws: `.notStarted`, `.alreadyEnabled`, `.wrongCode`.
    public func confirmTwoFactor(for user: User, code: String, from address: String?, keepingSession kept: String? = nil,
                                 at now: Date = Date()) async throws(TwoFactorError) {
        let store = try twoFactorStore()
        guard let record = try await twoFactorStep({ () throws(StoreError) in try await store.twoFactor(userID: user.id) }) else {
            throw .notStarted
        }
        if record.isEnabled { throw .alreadyEnabled }
        let keys = Self.codeThrottleKeys(name: user.name, address: address)
        let wait = throttle.withLock { $0.waitSeconds(keys, at: now) }
        if wait > 0 { throw .account(.throttled(retryAfterSeconds: Int(wait.rounded(.up)))) }
        // Only a code of the app confirms: a recovery code would prove nothing about the app.
        var accepted = false
        if !RecoveryCodes.looksLikeOne(code) {
            do throws(AccountError) {
                accepted = try await accepts(code, record: record, userID: user.id, store: store, at: now)
            } catch { throw .account(error) }
        }
        guard accepted else {
            throttle.withLock { $0.failed(keys, at: Date()) }
            throw .wrongCode
        }
        throttle.withLock { $0.succeeded(user: Self.codeThrottleName(user.name)) }
        _ = try await twoFactorStep { () throws(StoreError) in try await store.enableTwoFactor(userID: user.id) }
        let keptDigest = kept.map { Secrets.digest($0) }
        for session in try await twoFactorStep({ () throws(StoreError) in try await self.store.sessions(userID: user.id) })
        where session.digest != keptDigest {
            try await twoFactorStep { () throws(StoreError) in try await self.store.deleteSession(digest: session.digest) }
        }
    }

    /// Removes the user's second factor (enabled or waiting) and its recovery codes.
    /// - Returns: whether there was one.
    @discardableResult
    public func disableTwoFactor(userID: UserID) async throws(TwoFactorError) -> Bool {
        let store = try twoFactorStore()
        return try await twoFactorStep { () throws(StoreError) in try await store.deleteTwoFactor(userID: userID) }
    }

    // MARK: Plumbing

    /// Whether `code` is a TOTP code of the record's secret for a step not used yet (which it then
    /// records), or one of the user's recovery codes (which it then spends).
    private func accepts(_ code: String, record: TwoFactorRecord, userID: UserID, store: any TwoFactorStore,
                         at now: Date) async throws(AccountError) -> Bool {
        if RecoveryCodes.looksLikeOne(code) {
            return try await wrap { () throws(StoreError) in try await store.spendRecoveryCode(RecoveryCodes.digest(code), userID: userID) }
        }
        guard let secret = Base32.decode(record.secret), let step = TOTP(secret: secret).matchingStep(of: code, at: now) else {
            return false
        }
        return try await wrap { () throws(StoreError) in try await store.useTwoFactorStep(step, userID: userID) }
    }

    /// Wrong codes count under a name of their own, so that the right password (which clears the
    /// name's count) does not clear them.
    static func codeThrottleName(_ name: String) -> String { "second factor \(name.lowercased())" }

    static func codeThrottleKeys(name: String, address: String?) -> [LoginThrottle.Key] {
        [.user(codeThrottleName(name))] + (address.map { [LoginThrottle.Key.address($0)] } ?? [])
    }

    private func twoFactorStore() throws(TwoFactorError) -> any TwoFactorStore {
        guard let store = store as? any TwoFactorStore else { throw .unsupportedStore }
        return store
    }

    @discardableResult
    private func twoFactorStep<T>(_ body: () async throws(StoreError) -> T) async throws(TwoFactorError) -> T {
        do { return try await body() } catch { throw .account(.store(error)) }
    }
}
