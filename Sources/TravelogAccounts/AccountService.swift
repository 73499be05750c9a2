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

    public let store: any AccountStore
    let bcryptCost: UInt8
    let sessionLifetimeSeconds: TimeInterval
    let verified = Mutex<[SecretDigest: (userID: UserID, until: Date)]>([:])
    /// Internal so that a test may lengthen the delays (a loaded machine may take longer than a second between two requests).
    let throttle = Mutex(LoginThrottle())
    /// bcrypt verifications run so far (tests count them: an unknown name costs one, a throttled attempt none).
    let passwordChecks = Atomic(0)
    /// This service's password checks waiting for the hashing thread or on it.
    private let waitingChecks = Atomic(0)
    /// Once this many of the service's checks wait, the next login is refused at once as busy.
    public static let maximumWaitingChecks = 64
    /// A hash of the server's cost that no password matches, checked for unknown users so that
    /// an unknown name costs what a known one does (no user enumeration by timing). Made on first use.
    private let dummyHash = Mutex<String?>(nil)

    /// - Parameter loginFailuresPerAddress: wrong passwords from one client address before its
    ///   logins are delayed (`serve --login-failures-per-address`).
    public init(store: any AccountStore, bcryptCost: UInt8 = 12, sessionLifetimeSeconds: TimeInterval = 30 * 86_400,
                loginFailuresPerAddress: Int = 20) {
        self.store = store
        self.bcryptCost = bcryptCost
        self.sessionLifetimeSeconds = sessionLifetimeSeconds
        throttle.withLock { $0.freeFailuresPerAddress = max(1, loginFailuresPerAddress) }
    }

    // MARK: Users

    /// Adds a user with a password.
    public func addUser(named name: String, password: String) async throws(AccountError) -> User {
        try Self.check(password)
        let user = try await wrap { () throws(StoreError) in try await store.addUser(named: name) }
        try await setPassword(password, userID: user.id)
        return user
    }

    /// Sets a user's password, ends every session of the user and forgets every password of theirs
    /// checked before (in this process at once; in a server running beside `travelog user passwd`,
    /// at its next check, since remembered passwords are tied to the hash they matched).
    public func setPassword(_ password: String, userID: UserID) async throws(AccountError) {
        try Self.check(password)
        let cost = bcryptCost
        let hash = try await Self.offload(cost: cost) { Bcrypt.hash(password, cost: cost) }
        try await wrap { () throws(StoreError) in try await store.setPasswordHash(hash, userID: userID) }
        verified.withLock { $0 = $0.filter { $0.value.userID != userID } }
        _ = try await wrap { () throws(StoreError) in try await store.deleteSessions(userID: userID) }
    }

    /// The user with this name, when the password is theirs. The same work is done for an unknown
    /// name as for a known one; wrong passwords are throttled per name and per `address`.
    /// - Parameter address: the client's address, when known (the server passes it).
    /// - Throws: `AccountError.throttled` while the name or the address must wait.
    public func user(named name: String, password: String, from address: String? = nil) async throws(AccountError) -> User? {
        let keys = [LoginThrottle.Key.user(name.lowercased())] + (address.map { [LoginThrottle.Key.address($0)] } ?? [])
        let now = Date()
        let wait = throttle.withLock { $0.waitSeconds(keys, at: now) }
        if wait > 0 { throw .throttled(retryAfterSeconds: Int(wait.rounded(.up))) }
        // A disabled user is checked as an unknown name is: the same work, and no login.
        let user = try await wrap { () throws(StoreError) in try await store.user(named: name) }.flatMap { $0.isDisabled ? nil : $0 }
        let hash = try await user.asyncMap { user throws(AccountError) in
            try await wrap { () throws(StoreError) in try await store.passwordHash(userID: user.id) }
        } ?? nil
        // A password remembered for the hash it matched: a new hash (a password change by any
        // process) makes it unknown again.
        let key = Secrets.digest("\(user?.id.rawValue ?? 0):\(hash ?? ""):\(password)")
        if let user, hash != nil, verified.withLock({ $0[key].map { $0.userID == user.id && $0.until > now } ?? false }) {
            return user
        }
        let checked: String
        if let hash { checked = hash } else { checked = try await unmatchableHash() }
        passwordChecks.add(1, ordering: .relaxed)
        guard waitingChecks.add(1, ordering: .relaxed).newValue <= Self.maximumWaitingChecks else {
            waitingChecks.subtract(1, ordering: .relaxed)
            throw .busy(retryAfterSeconds: 5)
        }
        defer { waitingChecks.subtract(1, ordering: .relaxed) }
        let matches = try await Self.offload(cost: Self.cost(ofHash: checked)) { Bcrypt.verify(password, hash: checked) }
        guard let user, hash != nil, matches else {
            throttle.withLock { $0.failed(keys, at: Date()) }
            return nil
        }
        throttle.withLock { $0.succeeded(user: name.lowercased()) }
        verified.withLock { cache in
            if cache.count > 10_000 { cache.removeAll() }
            cache[key] = (user.id, now.addingTimeInterval(Self.verifiedPasswordLifetimeSeconds))
        }
        return user
    }

    private func unmatchableHash() async throws(AccountError) -> String {
        if let hash = dummyHash.withLock({ $0 }) { return hash }
        let cost = bcryptCost
        let hash = try await Self.offload(cost: cost) { Bcrypt.hash(Secrets.newSecret(), cost: cost) }
        dummyHash.withLock { $0 = $0 ?? hash }
        return hash
    }

    // MARK: Devices

    /// Adds a device and gives it a token.
    /// - Parameter scope: what the token may do (`write`: its locations only, the default).
    /// - Returns: the device and its token (shown once: only its digest is kept).
    public func addDevice(named name: String, userID: UserID, app: DeviceApp?, scope: TokenScope = .write) async throws(AccountError)
        -> (device: Device, token: String) {
        var device = try await wrap { () throws(StoreError) in try await store.addDevice(named: name, userID: userID) }
        if scope != .write {
            try await wrap { () throws(StoreError) in try await store.setTokenScope(scope, deviceID: device.id) }
            device.tokenScope = scope
        }
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

    /// The device this token belongs to; nil when its user is disabled.
    public func device(token: some StringProtocol) async throws(AccountError) -> Device? {
        try await tokenHolder(token: token)?.device
    }

    /// The device a token is for and its user (enabled), read together.
    public func tokenHolder(token: some StringProtocol) async throws(AccountError) -> (device: Device, user: User)? {
        guard !token.isEmpty else { return nil }
        let digest = Secrets.digest(token)
        guard let holder = try await wrap({ () throws(StoreError) in try await store.tokenHolder(tokenDigest: digest) }),
              !holder.user.isDisabled else { return nil }
        return holder
    }

    // MARK: Sessions

    /// Starts a login session. - Returns: the session's secret, for the cookie.
    public func startSession(userID: UserID) async throws(AccountError) -> String {
        let secret = Secrets.newSecret()
        let now = Date()
        let record = SessionRecord(userID: userID, expiresAt: now.addingTimeInterval(sessionLifetimeSeconds), startedAt: now)
        try await wrap { () throws(StoreError) in try await store.addSession(digest: Secrets.digest(secret), record) }
        return secret
    }

    /// The user of a live session.
    public func user(session secret: some StringProtocol) async throws(AccountError) -> User? {
        let digest = Secrets.digest(secret)
        guard let session = try await wrap({ () throws(StoreError) in try await store.session(digest: digest) }),
              session.expiresAt > Date() else { return nil }
        return try await wrap { () throws(StoreError) in try await store.user(id: session.userID) }.flatMap { $0.isDisabled ? nil : $0 }
    }

    /// How long a sign-in stands in for typing the password again (to delete the account): someone
    /// who signs in through a provider has no password of theirs to type.
    public static let confirmingSignInSeconds: TimeInterval = 600

    /// When the person of this live session signed in; `nil` for no such session, an expired one,
    /// or one started before Travelog kept the time.
    public func signInTime(session secret: some StringProtocol) async throws(AccountError) -> Date? {
        let digest = Secrets.digest(secret)
        guard let session = try await wrap({ () throws(StoreError) in try await store.session(digest: digest) }),
              session.expiresAt > Date() else { return nil }
        return session.startedAt
    }

    /// Until when this session's sign-in confirms that it is its person (`confirmingSignInSeconds`
    /// after it); `nil` when it no longer does (or never did).
    public func signInConfirms(session secret: some StringProtocol, now: Date = Date()) async throws(AccountError) -> Date? {
        guard let started = try await signInTime(session: secret) else { return nil }
        let until = started.addingTimeInterval(Self.confirmingSignInSeconds)
        return started <= now.addingTimeInterval(1) && until > now ? until : nil
    }

    public func endSession(_ secret: some StringProtocol) async throws(AccountError) {
        let digest = Secrets.digest(secret)
        try await wrap { () throws(StoreError) in try await store.deleteSession(digest: digest) }
    }

    /// A session as it is listed: an id (the start of its digest, which reveals nothing of the
    /// cookie), when it expires, and whether it is the caller's own.
    public struct SessionSummary: Sendable, Equatable, Encodable {
        public var id: String
        public var expiresAt: Date
        public var current: Bool
    }

    /// The user's live sessions, soonest to expire first.
    /// - Parameter secret: the caller's own session secret, to mark it.
    public func sessions(userID: UserID, current secret: String? = nil) async throws(AccountError) -> [SessionSummary] {
        let own = secret.map { Secrets.digest($0) }
        let now = Date()
        return try await wrap { () throws(StoreError) in try await store.sessions(userID: userID) }
            .filter { $0.record.expiresAt > now }
            .map { SessionSummary(id: Self.sessionID($0.digest), expiresAt: $0.record.expiresAt, current: $0.digest == own) }
    }

    /// Ends the user's session with this id (see `sessions`). - Returns: whether there was one.
    public func endSession(id: String, userID: UserID) async throws(AccountError) -> Bool {
        let all = try await wrap { () throws(StoreError) in try await store.sessions(userID: userID) }
        guard id.count == Self.sessionIDLength, let match = all.first(where: { Self.sessionID($0.digest) == id }) else { return false }
        try await wrap { () throws(StoreError) in try await store.deleteSession(digest: match.digest) }
        return true
    }

    /// Ends every session of the user. - Returns: how many there were.
    @discardableResult
    public func endSessions(userID: UserID) async throws(AccountError) -> Int {
        try await wrap { () throws(StoreError) in try await store.deleteSessions(userID: userID) }
    }

    static let sessionIDLength = 16

    static func sessionID(_ digest: SecretDigest) -> String {
        String(digest.rawValue.prefix(sessionIDLength))
    }

    // MARK: Plumbing

    static func check(_ password: String) throws(AccountError) {
        guard password.count >= minimumPasswordCharacters else {
            throw .passwordTooShort(minimumCharacters: minimumPasswordCharacters)
        }
    }

    /// bcrypt at the server's cost takes a quarter of a second of CPU: run it on the password
    /// hashing thread, not on the concurrency pool that serves requests nor on as many GCD threads
    /// as there are logins. A hash of `inlineCost` or less (a few milliseconds: the tests' cost 4)
    /// runs where it is asked: in a test process, where many servers share the one hashing thread,
    /// a cheap check then never waits behind another server's expensive ones (it waited 20 s
    /// behind them once, at nice 10 on a loaded machine, and its request timed out).
    /// - Throws: `AccountError.busy` when too many checks wait already.
    static func offload<T: Sendable>(cost: UInt8?, _ work: @escaping @Sendable () -> T) async throws(AccountError) -> T {
        if let cost, cost <= inlineCost { return work() }
        return try await PasswordHashingQueue.shared.run(work)
    }

    /// The greatest bcrypt cost hashed on the caller's thread (2⁶ rounds, about 4 ms).
    static let inlineCost: UInt8 = 6

    /// The cost a bcrypt hash was made with (`$2b$12$…` is 12), or nil when it is not one.
    static func cost(ofHash hash: String) -> UInt8? {
        let parts = hash.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[0].isEmpty, parts[2].count == 2 else { return nil }
        return UInt8(parts[2])
    }

    func wrap<T>(_ body: () async throws(StoreError) -> T) async throws(AccountError) -> T {
        do { return try await body() } catch { throw .store(error) }
    }
}

extension Optional {
    /// `map` with an async, throwing transform.
    fileprivate func asyncMap<U, E: Error>(_ transform: (Wrapped) async throws(E) -> U) async throws(E) -> U? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
