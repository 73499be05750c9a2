import Foundation
import TravelogCore

/// Where Travelog keeps the locations of users' devices, and the imports that brought them. Every
/// backend (in-memory, SQLite, PostgreSQL) passes the same conformance suite
/// (`Tests/TravelogStoreTests/LocationStoreConformanceTests.swift`).
///
/// The users and devices the locations belong to are an `AccountStore`'s; a backend is usually
/// both, and everything else (`TravelogStore`).
///
/// Guarantees every backend keeps:
/// - Locations are kept at `StoragePrecision`; a location whose `LocationKey` is stored already is a
///   duplicate and is not stored again, whichever endpoint or file it came through.
/// - A batch insert and a whole import are atomic: when they fail, nothing of them is stored.
/// - When an insert returns, the locations are durably stored.
/// - Reads are scoped to one user.
public protocol LocationStore: Sendable {
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

    /// Deletes a finished import of a user: the locations it stored (not its duplicates, which
    /// were stored before), what region monitoring concluded from them, and its record.
    /// - Returns: what was deleted; `nil` when no finished import of that user has this id.
    func deleteImport(_ id: ImportID, userID: UserID) async throws(StoreError) -> DeletedImport?

    // MARK: Reading

    /// The locations matching a query, oldest first unless the query says otherwise.
    func locations(_ query: LocationQuery) async throws(StoreError) -> [StoredLocation]

    /// Streams the matching locations in batches of at most `batchSize`, oldest first, without
    /// holding them all in memory. Errors thrown by `body` are rethrown unchanged.
    func forEachBatch(_ query: LocationQuery, batchSize: Int,
                      _ body: @Sendable ([StoredLocation]) throws -> Void) async throws

    /// Streams the matching fixes as a map draws them (the path, the history tile index): each
    /// ``Location`` carries only its time, coordinate and horizontal accuracy (every other field
    /// unknown), in batches of at most `batchSize`, in the order of ``forEachBatch(_:batchSize:_:)``.
    /// A backend may read these columns faster than whole rows (PostgreSQL: `LocationStore+Tracks.swift`);
    /// the default narrows the rows of ``forEachBatch(_:batchSize:_:)``.
    func forEachTrackBatch(_ query: LocationQuery, batchSize: Int,
                           _ body: @Sendable ([Location]) throws -> Void) async throws

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
