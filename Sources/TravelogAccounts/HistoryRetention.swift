import Foundation
import Synchronization
import TravelogCore
import TravelogStore

/// Why a retention run did not run.
public enum RetentionRunError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A run for this user is going on in this process already (the daily one, or one asked for).
    case alreadyRunning
    case store(StoreError)

    public var description: String {
        switch self {
        case .alreadyRunning: "a retention run for this user is going on already"
        case .store(let error): error.description
        }
    }
}

/// Retention: deleting a user's fixes older than their limit (their own setting, or the server's
/// default for users without one), in small batches through the one path fixes are deleted by
/// (`ZoneStore.deleteLocations`, as drop zones do), and the journal's visits that ended before the
/// limit when the user chose so. The command line, the API and the server's daily run all go
/// through it; the caller then has the map index rebuilt (`HistoryTiles.historyRemoved`).
///
/// A fix older than the limit that arrives later (a phone's late queue, an import of old files) is
/// stored as any other and goes at the next run: the phone's queue is never refused.
public struct HistoryRetention: Sendable {
    public let store: any TravelogStore
    /// The limit of users without a setting of their own (`travelog serve --retention`), or `nil`: off.
    public let serverDefault: RetentionSetting?
    /// Fixes deleted in one transaction: small enough that a write waiting for the store's lock
    /// waits a few milliseconds.
    public var batchSize: Int
    /// The least pause between two batches, seconds: the writes that waited go first. The pause is
    /// at least three times the batch's own time too, so retention takes at most a quarter of the
    /// writer: with 2 ms after batches of 500 it took 85 %, and phones' posts at 200 a second queued
    /// for seconds behind it (`make bench NAMES=retention`, 10M fixes: ingest p99 3 s); batches of
    /// 250 with twice their time gave a p99 of 30 ms, of 100 with three times 21 ms (1M fixes, this
    /// machine, where the posts alone have 13 ms), and 16 ms once each batch is checkpointed beside
    /// the writer (``BackgroundCheckpointStore``).
    public var pauseSeconds: Double
    /// The pause as a multiple of the batch's time.
    public static let pausePerBatchTime = 3.0

    public init(store: any TravelogStore, serverDefault: RetentionSetting? = nil, batchSize: Int = 100, pauseSeconds: Double = 0.002) {
        self.store = store
        self.serverDefault = serverDefault
        self.batchSize = max(1, batchSize)
        self.pauseSeconds = max(0, pauseSeconds)
    }

    /// The setting that applies to a user, and where it comes from.
    public struct Applied: Sendable, Equatable {
        public enum Source: String, Sendable {
            /// The user's own setting (which may be `off`).
            case user
            /// The server's default (`travelog serve --retention`).
            case server
            /// Neither: everything is kept.
            case none
        }

        public var setting: RetentionSetting
        public var source: Source
    }

    public func applied(userID: UserID) async throws(StoreError) -> Applied {
        if let own = try await store.retentionSetting(userID: userID) { return Applied(setting: own, source: .user) }
        if let serverDefault { return Applied(setting: serverDefault, source: .server) }
        return Applied(setting: .off, source: .none)
    }

    /// What a run would delete now.
    public struct Preview: Sendable, Equatable {
        public var applied: Applied
        /// Fixes before this go (`nil`: retention is off, nothing goes).
        public var cutoff: Date?
        /// Per device with fixes before the cutoff: how many, the first and last of them.
        public var devices: [DeviceSummary]
        /// Journal visits that ended before the cutoff: deleted with `journal: delete`, kept otherwise.
        public var visits: Int

        public var fixes: Int { devices.reduce(0) { $0 + $1.locationCount } }
    }

    public func preview(userID: UserID, now: Date = Date()) async throws(StoreError) -> Preview {
        let applied = try await applied(userID: userID)
        guard let cutoff = applied.setting.cutoff(now: now) else { return Preview(applied: applied, cutoff: nil, devices: [], visits: 0) }
        return Preview(applied: applied, cutoff: cutoff, devices: try await store.locationSummaries(userID: userID, before: cutoff),
                       visits: try await store.visitCount(userID: userID, endedBefore: cutoff))
    }

    /// Deletes what the user's setting says must go, batch by batch (each its own short
    /// transaction, the task yielding between), and records the run.
    /// - Parameter progress: called after each batch with the fixes deleted so far and the total expected.
    /// - Returns: the run, or `nil` when retention is off for the user.
    /// - Complexity: O(n) in the fixes deleted, in batches of `batchSize`, each a read of the
    ///   device's oldest fixes by its time index and a delete by key.
    /// - Throws: ``RetentionRunError/alreadyRunning`` while another run for the user goes on in this process.
    @discardableResult
    public func run(userID: UserID, now: Date = Date(),
                    progress: @Sendable (_ deleted: Int, _ total: Int) -> Void = { _, _ in }) async throws(RetentionRunError) -> RetentionRun? {
        let key = RunKey(store: ObjectIdentifier(store as AnyObject), userID: userID)
        guard Self.running.withLock({ $0.insert(key).inserted }) else { throw .alreadyRunning }
        defer { _ = Self.running.withLock { $0.remove(key) } }
        do { return try await runAlone(userID: userID, now: now, progress: progress) } catch { throw .store(error) }
    }

    /// A user of a store (an open database: two stores are two, even with the same user ids).
    private struct RunKey: Hashable {
        var store: ObjectIdentifier
        var userID: UserID
    }

    /// The users whose run goes on in this process.
    private static let running = Mutex<Set<RunKey>>([])

    private func runAlone(userID: UserID, now: Date, progress: @Sendable (_ deleted: Int, _ total: Int) -> Void) async throws(StoreError) -> RetentionRun? {
        let applied = try await applied(userID: userID)
        guard let cutoff = applied.setting.cutoff(now: now) else { return nil }
        let devices = try await store.locationSummaries(userID: userID, before: cutoff)
        let total = devices.reduce(0) { $0 + $1.locationCount }
        var deleted = 0
        for summary in devices {
            while true {
                // One device at a time: its oldest fixes come straight off its time index.
                let started = ContinuousClock.now
                let batch = try await store.locations(LocationQuery(userID: userID, deviceIDs: [summary.device.id], to: cutoff,
                                                                    limit: batchSize))
                guard !batch.isEmpty else { break }
                let count = try await store.deleteLocations(batch.map(\.key), userID: userID)
                await (store as? any BackgroundCheckpointStore)?.checkpointBesideWriter()
                deleted += count
                progress(deleted, max(total, deleted))
                guard count > 0, !Task.isCancelled else { break }
                if pauseSeconds > 0 {
                    let pause = max(Duration.seconds(pauseSeconds), (ContinuousClock.now - started) * Self.pausePerBatchTime)
                    try? await Task.sleep(for: pause)
                } else {
                    await Task.yield()
                }
            }
        }
        let visits = applied.setting.journal == .delete ? try await store.deleteVisits(userID: userID, endedBefore: cutoff) : 0
        let run = RetentionRun(ranAt: Date(), cutoff: cutoff, deletedFixes: deleted, deletedVisits: visits)
        try await store.recordRetentionRun(run, userID: userID)
        return run
    }
}
