import Foundation
import TravelogCore

/// Where Travelog keeps users, devices and their locations. Every backend (in-memory, SQLite,
/// PostgreSQL) passes the same conformance suite (`Tests/TravelogStoreTests`).
///
/// Guarantees every backend keeps:
/// - Locations are kept at `StoragePrecision`; a location whose `LocationKey` is stored already is a
///   duplicate and is not stored again, whichever endpoint or file it came through.
/// - A batch insert and a whole import are atomic: when they fail, nothing of them is stored.
/// - When an insert returns, the locations are durably stored.
/// - Reads are scoped to one user.
public protocol LocationStore: JournalStore, NotificationStore, QuarantineStore {
    // MARK: Accounts

    /// Adds a user. - Throws: `StoreError.userExists`, `.invalidName`.
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

    // MARK: Credentials (passwords as bcrypt hashes, tokens and sessions as SHA-256 digests)

    /// Sets (or replaces) the user's password hash. - Throws: `StoreError.unknownUser`.
    func setPasswordHash(_ hash: String, userID: UserID) async throws(StoreError)
    /// The user's password hash; `nil` when the user has no password (cannot log in).
    func passwordHash(userID: UserID) async throws(StoreError) -> String?
    /// Sets (or replaces) the device's token digest; the previous token stops working.
    /// - Throws: `StoreError.unknownDevice`.
    func setTokenDigest(_ digest: SecretDigest, deviceID: DeviceID) async throws(StoreError)
    /// The device whose token has this digest.
    func device(tokenDigest: SecretDigest) async throws(StoreError) -> Device?
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

    // MARK: Writing

    /// Stores a batch atomically; every location must belong to an existing device.
    /// - Returns: how many were new and how many were stored before.
    func insert(_ batch: [StoredLocation]) async throws(StoreError) -> InsertSummary

    /// Starts an import of a file for a device. Its locations are then stored with `insert`
    /// (`StoredLocation.importID` set to the id returned), batch by batch, each batch durable when
    /// `insert` returns, and belong to the import until `finishImport` records it. Until then the
    /// import is not listed; `discardImport` removes every location it stored, so a broken file
    /// leaves the history as it was. An import whose process died (no batch for
    /// `abandonedImportSeconds`) is discarded by the next `beginImport`.
    /// - Throws: `StoreError.unknownDevice`.
    func beginImport(deviceID: DeviceID, provenance: ImportProvenance) async throws(StoreError) -> ImportID

    /// Records a running import as done. - Returns: the import as recorded.
    func finishImport(_ id: ImportID, summary: InsertSummary, tally: ImportTally) async throws(StoreError) -> ImportRecord

    /// Removes every location a running import stored, and the import.
    func discardImport(_ id: ImportID) async throws(StoreError)

    // MARK: Reading

    /// The locations matching a query, oldest first unless the query says otherwise.
    func locations(_ query: LocationQuery) async throws(StoreError) -> [StoredLocation]

    /// Streams the matching locations in batches of at most `batchSize`, oldest first, without
    /// holding them all in memory. Errors thrown by `body` are rethrown unchanged.
    func forEachBatch(_ query: LocationQuery, batchSize: Int,
                      _ body: @Sendable ([StoredLocation]) throws -> Void) async throws

    /// Per-device counts and first/last fix for a user.
    func deviceSummaries(userID: UserID) async throws(StoreError) -> [DeviceSummary]

    /// The imports recorded for a user's devices, newest first.
    func imports(userID: UserID) async throws(StoreError) -> [ImportRecord]

    /// Bytes the store occupies on disk (`nil` for memory-only stores).
    func storageSizeBytes() async throws(StoreError) -> Int64?
}

/// How long a running import may go without storing a batch before another process takes it for
/// dead and discards it, seconds.
public let abandonedImportSeconds: TimeInterval = 15 * 60
