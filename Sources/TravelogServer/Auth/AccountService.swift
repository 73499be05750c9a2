import Dispatch
import Foundation
import HummingbirdBcrypt
import Synchronization
import TravelogStore

/// Users, passwords, device tokens and login sessions, over a store. The command line (`travelog
/// user add`, `travelog device add`) and the server share it.
///
/// Passwords are kept as bcrypt hashes. Device tokens and session ids are random 256-bit secrets,
/// shown once and kept as SHA-256 digests (a token is as strong as a key, so a slow hash would add
/// nothing but latency to every phone's request). A password checked by HTTP Basic auth is
/// remembered for a few minutes as a digest, so a script posting every second does not pay bcrypt
/// each time.
public final class AccountService: Sendable {
    public static let minimumPasswordCharacters = 8
    /// How long a password once verified is accepted again without bcrypt, seconds.
    static let verifiedPasswordLifetimeSeconds: TimeInterval = 300

    public let store: any LocationStore
    let bcryptCost: UInt8
    let sessionLifetimeSeconds: TimeInterval
    private let verified = Mutex<[SecretDigest: (userID: UserID, until: Date)]>([:])

    public init(store: any LocationStore, bcryptCost: UInt8 = 12, sessionLifetimeSeconds: TimeInterval = 30 * 86_400) {
        self.store = store
        self.bcryptCost = bcryptCost
        self.sessionLifetimeSeconds = sessionLifetimeSeconds
    }

    // MARK: Users

    /// Adds a user with a password.
    public func addUser(named name: String, password: String) async throws(AccountError) -> User {
        try Self.check(password)
        let user = try await wrap { () throws(StoreError) in try await store.addUser(named: name) }
        try await setPassword(password, userID: user.id)
        return user
    }

    /// Sets a user's password.
    public func setPassword(_ password: String, userID: UserID) async throws(AccountError) {
        try Self.check(password)
        let cost = bcryptCost
        let hash = await Self.offload { Bcrypt.hash(password, cost: cost) }
        try await wrap { () throws(StoreError) in try await store.setPasswordHash(hash, userID: userID) }
        verified.withLock { $0 = $0.filter { $0.value.userID != userID } }
    }

    /// The user with this name, when the password is theirs.
    public func user(named name: String, password: String) async throws(AccountError) -> User? {
        guard let user = try await wrap({ () throws(StoreError) in try await store.user(named: name) }) else { return nil }
        let key = Secrets.digest("\(user.id.rawValue):\(password)")
        let now = Date()
        if verified.withLock({ $0[key].map { $0.userID == user.id && $0.until > now } ?? false }) { return user }
        guard let hash = try await wrap({ () throws(StoreError) in try await store.passwordHash(userID: user.id) })
        else { return nil }
        guard await Self.offload({ Bcrypt.verify(password, hash: hash) }) else { return nil }
        verified.withLock { cache in
            if cache.count > 10_000 { cache.removeAll() }
            cache[key] = (user.id, now.addingTimeInterval(Self.verifiedPasswordLifetimeSeconds))
        }
        return user
    }

    // MARK: Devices

    /// Adds a device and gives it a token.
    /// - Returns: the device and its token (shown once: only its digest is kept).
    public func addDevice(named name: String, userID: UserID, app: DeviceApp?) async throws(AccountError)
        -> (device: Device, token: String) {
        var device = try await wrap { () throws(StoreError) in try await store.addDevice(named: name, userID: userID) }
        if let app {
            try await wrap { () throws(StoreError) in try await store.setApp(app, deviceID: device.id) }
            device.app = app
        }
        return (device, try await issueToken(deviceID: device.id))
    }

    /// Gives a device a new token; the old one stops working.
    public func issueToken(deviceID: DeviceID) async throws(AccountError) -> String {
        let token = Secrets.newSecret()
        try await wrap { () throws(StoreError) in try await store.setTokenDigest(Secrets.digest(token), deviceID: deviceID) }
        return token
    }

    /// The device this token belongs to.
    public func device(token: some StringProtocol) async throws(AccountError) -> Device? {
        guard !token.isEmpty else { return nil }
        let digest = Secrets.digest(token)
        return try await wrap { () throws(StoreError) in try await store.device(tokenDigest: digest) }
    }

    // MARK: Sessions

    /// Starts a login session. - Returns: the session's secret, for the cookie.
    public func startSession(userID: UserID) async throws(AccountError) -> String {
        let secret = Secrets.newSecret()
        let record = SessionRecord(userID: userID, expiresAt: Date().addingTimeInterval(sessionLifetimeSeconds))
        try await wrap { () throws(StoreError) in try await store.addSession(digest: Secrets.digest(secret), record) }
        return secret
    }

    /// The user of a live session.
    public func user(session secret: some StringProtocol) async throws(AccountError) -> User? {
        let digest = Secrets.digest(secret)
        guard let session = try await wrap({ () throws(StoreError) in try await store.session(digest: digest) }),
              session.expiresAt > Date() else { return nil }
        return try await wrap { () throws(StoreError) in try await store.user(id: session.userID) }
    }

    public func endSession(_ secret: some StringProtocol) async throws(AccountError) {
        let digest = Secrets.digest(secret)
        try await wrap { () throws(StoreError) in try await store.deleteSession(digest: digest) }
    }

    // MARK: Plumbing

    static func check(_ password: String) throws(AccountError) {
        guard password.count >= minimumPasswordCharacters else {
            throw .passwordTooShort(minimumCharacters: minimumPasswordCharacters)
        }
    }

    /// bcrypt takes a quarter of a second of CPU: run it on a dispatch thread, not on the
    /// concurrency pool that serves requests.
    static func offload<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }

    private func wrap<T>(_ body: () async throws(StoreError) -> T) async throws(AccountError) -> T {
        do { return try await body() } catch { throw .store(error) }
    }
}
