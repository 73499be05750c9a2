import Foundation
import TravelogCore

/// Where Travelog keeps users, their devices and their credentials (passwords as bcrypt hashes,
/// device tokens and sessions as SHA-256 digests; never a secret in the clear). Every backend passes
/// the same conformance suite (`Tests/TravelogStoreTests/CredentialStoreConformanceTests.swift`).
public protocol AccountStore: Sendable {
    // MARK: Accounts

    /// Adds a user; the first user of a store without any becomes its administrator (atomically:
    /// two first users added at once make one administrator). - Throws: `StoreError.userExists`, `.invalidName`.
    func addUser(named name: String) async throws(StoreError) -> User
    func user(named name: String) async throws(StoreError) -> User?
    func user(id: UserID) async throws(StoreError) -> User?
    func users() async throws(StoreError) -> [User]

    /// Adds a device for a user. - Throws: `StoreError.deviceExists`, `.unknownUser`, `.invalidName`.
    func addDevice(named name: String, userID: UserID) async throws(StoreError) -> Device
    func device(named name: String, userID: UserID) async throws(StoreError) -> Device?
    func device(id: DeviceID) async throws(StoreError) -> Device?
    /// The user's devices, by name.
    func devices(userID: UserID) async throws(StoreError) -> [Device]

    // MARK: Administration

    /// Makes the user an administrator or not. - Throws: `StoreError.unknownUser`, and
    /// `.lastAdministrator` when it would leave no enabled administrator.
    func setAdministrator(_ isAdministrator: Bool, userID: UserID) async throws(StoreError) -> User
    /// Disables the user (no login, device tokens refused, history kept) or enables them again.
    /// - Throws: `StoreError.unknownUser`, `.lastAdministrator`.
    func setDisabled(_ isDisabled: Bool, userID: UserID) async throws(StoreError) -> User
    /// Removes the user and everything theirs: devices, locations, imports, journal, regions,
    /// notification channels, rejected items, sessions. - Throws: `StoreError.unknownUser`, `.lastAdministrator`.
    func deleteUser(id: UserID) async throws(StoreError)

    // MARK: Credentials

    /// Sets (or replaces) the user's password hash. - Throws: `StoreError.unknownUser`.
    func setPasswordHash(_ hash: String, userID: UserID) async throws(StoreError)
    /// The user's password hash; `nil` when the user has no password (cannot log in).
    func passwordHash(userID: UserID) async throws(StoreError) -> String?
    /// Sets (or replaces) the device's token digest; the previous token stops working.
    /// - Throws: `StoreError.unknownDevice`.
    func setTokenDigest(_ digest: SecretDigest, deviceID: DeviceID) async throws(StoreError)
    /// The device whose token has this digest.
    func device(tokenDigest: SecretDigest) async throws(StoreError) -> Device?
    /// The device whose token has this digest and its user, read together: every request with a
    /// token asks, and a read is the larger part of such a request's time.
    func tokenHolder(tokenDigest: SecretDigest) async throws(StoreError) -> (device: Device, user: User)?
    /// Sets what the device's token may do. - Throws: `StoreError.unknownDevice`.
    func setTokenScope(_ scope: TokenScope, deviceID: DeviceID) async throws(StoreError)
    /// Records which app the device runs. - Throws: `StoreError.unknownDevice`.
    func setApp(_ app: DeviceApp?, deviceID: DeviceID) async throws(StoreError)
    /// Starts a session. - Throws: `StoreError.unknownUser`.
    func addSession(digest: SecretDigest, _ session: SessionRecord) async throws(StoreError)
    /// The session with this digest, if it exists (expired or not: the caller checks the time).
    func session(digest: SecretDigest) async throws(StoreError) -> SessionRecord?
    /// Ends a session (nothing happens when there is none).
    func deleteSession(digest: SecretDigest) async throws(StoreError)
    /// The user's sessions (expired ones included), soonest to expire first.
    func sessions(userID: UserID) async throws(StoreError) -> [(digest: SecretDigest, record: SessionRecord)]
    /// Ends every session of the user (a password change). - Returns: how many there were.
    @discardableResult
    func deleteSessions(userID: UserID) async throws(StoreError) -> Int
}

extension AccountStore {
    /// Two reads, for stores without a faster way.
    public func tokenHolder(tokenDigest: SecretDigest) async throws(StoreError) -> (device: Device, user: User)? {
        guard let device = try await device(tokenDigest: tokenDigest), let user = try await user(id: device.userID) else { return nil }
        return (device, user)
    }
}
