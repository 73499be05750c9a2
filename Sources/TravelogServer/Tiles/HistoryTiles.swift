import Foundation
import Logging
import Synchronization
import TravelogCore
import TravelogRender
import TravelogStore

/// The history tiles of every user: a ``HistoryTileIndex`` per user, built from the store at the
/// person's login (``warm(userID:)``) or on the first tile, and kept up to date by ``landed(_:device:)``, plus the ``TileVersions`` that make
/// the tiles' ETags.
///
/// With an ``indexDirectory`` (next to a SQLite database, or on the server's own disk for
/// PostgreSQL, where several servers may share the database), each index is also saved there
/// (``HistoryIndexFile``) once built, after every ``saveAfterFixes`` new fixes and at shutdown,
/// and the next server start reads it back and brings it up to date with the store
/// (``HistoryIndexLoader/resume(_:store:userID:)``) instead of reading every fix again; a file the
/// store does not confirm, or a damaged one, is ignored and the index built anew
/// (`HistoryTiles+Saving.swift`).
///
/// Every stored batch reaches it through ``landed(_:device:)``, called by the server's
/// `HistoryObserver` once `HistoryWriter` made the batch durable (routes, phone apps and uploads
/// alike), and another server process's on PostgreSQL through ``landedElsewhere(_:device:)``. A
/// batch that continues its device's history joins the index and renews the tiles it touches; one that lands before the device's last fix (an import of old data, a late retry)
/// renews every tile and marks the index stale, and the next tile builds it anew. A tile reads its
/// content under the lock (cheap: the squares it covers) and draws outside it.
final class HistoryTiles: Sendable {
    private struct UserState {
        var loaded: HistoryIndexLoader.Loaded?
        var stale = false
        /// The history changed in a way the index cannot follow while a build was under way (a
        /// deletion, a fix before its device's last): the build may have read the rows before, so
        /// it ends stale and the next request builds again.
        var staleDuringBuild = false

        mutating func markStale() {
            stale = true
            if building != nil { staleDuringBuild = true }
        }
        /// A build under way, shared by every request that needs it.
        var building: Task<ObtainedIndex, any Error>?
        /// Batches that landed while building, added once it ends.
        var landedWhileBuilding: [(DeviceID, [Location])] = []
        var versions = TileVersions()
        /// Fixes added since the index was last saved or read (`nil`: it was never saved).
        var fixesSinceSave: Int?
        /// ``historyRemoved(userID:)`` was told since the last look at the store's counts of
        /// deletions (`HistoryTiles+Removals.swift`): the deletion counted there was this process's.
        var removedHere = false
    }

    let store: any TravelogStore
    /// Where indices are saved, one file per user (`nil`: not saved).
    let indexDirectory: URL?
    let logger: Logger
    /// Tells this process's ETags from those of an earlier one (whose counts started at 0 too).
    let instance = String(UInt32.random(in: 0...UInt32.max), radix: 36)
    private let users = Mutex<[UserID: UserState]>([:])
    /// Users whose index is to be saved, for ``run()``.
    let saveRequests: AsyncStream<UserID>
    let saveContinuation: AsyncStream<UserID>.Continuation
    /// A saved index is written again once this many fixes joined it.
    static let saveAfterFixes = 250_000

    /// Awaited by a build once it has read the store, before it is installed (tests hold a build
    /// there to change the history under it).
    let builtHook: (@Sendable () async -> Void)?

    init(store: any TravelogStore, indexDirectory: URL? = nil, logger: Logger = Logger(label: "travelog.tiles"),
         builtHook: (@Sendable () async -> Void)? = nil) {
        self.store = store
        self.indexDirectory = indexDirectory
        self.logger = logger
        self.builtHook = builtHook
        (saveRequests, saveContinuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// New locations of a device were stored: they join the index (when it is built) and the
    /// tiles they touch get a new version.
    func landed(_ locations: [Location], device: Device) {
        guard let earliest = locations.min(by: { $0.timestamp < $1.timestamp }) else { return }
        users.withLock { users in
            // Taken out of the dictionary so that the index's arrays have one owner and grow in place.
            var state = users.removeValue(forKey: device.userID) ?? UserState()
            defer { users[device.userID] = state }
            let previous = state.loaded?.lastLocations[device.id]
            if let previous, earliest.timestamp < previous.timestamp {
                // Lines that joined the fixes around it, wherever they ran, change.
                state.versions.changedEverywhere()
                state.markStale()
                return
            }
            var rect = MapRect(boundingCoordinates: locations.lazy.map { $0.coordinate })
            if let previous { rect = rect.union(MapPoint(previous.coordinate)) }
            state.versions.landed(in: rect)
            if state.building != nil {
                state.landedWhileBuilding.append((device.id, locations))
            } else if var loaded = state.loaded, !state.stale {
                state.loaded = nil  // one copy of the index while it changes
                Self.add(locations, device: device.id, to: &loaded, state: &state)
                state.loaded = loaded
                let since = (state.fixesSinceSave ?? 0) + locations.count
                state.fixesSinceSave = since
                if since >= Self.saveAfterFixes, since - locations.count < Self.saveAfterFixes { saveContinuation.yield(device.userID) }
            }
        }
    }

    /// Locations another server process stored (PostgreSQL, told by `LiveFeedRelay`): they join the
    /// index as this process's own batches do when they follow the device's last fix here. Otherwise
    /// (a build under way, which may have read them already; a fix at or before the device's last one
    /// here, which may be one this process added itself) every tile changes and the index is built
    /// anew from the store when a tile next needs it: never a fix twice, never one missing.
    func landedElsewhere(_ locations: [Location], device: Device) {
        guard let earliest = locations.min(by: { $0.timestamp < $1.timestamp }) else { return }
        let follows = users.withLock { users -> Bool in
            guard var state = users[device.userID] else { return false }
            if state.building == nil, !state.stale, let loaded = state.loaded,
               loaded.lastLocations[device.id].map({ earliest.timestamp > $0.timestamp }) ?? true {
                return true
            }
            state.versions.changedEverywhere()
            state.markStale()
            users[device.userID] = state
            return false
        }
        if follows { landed(locations, device: device) }
    }

    /// Part of a user's history was deleted (a device with its history): every tile changes, and
    /// the index is built anew from the store when a tile next needs it (the saved one too).
    func historyRemoved(userID: UserID) {
        users.withLock { users in
            var state = users[userID] ?? UserState()
            state.versions.changedEverywhere()
            state.markStale()
            state.removedHere = true
            users[userID] = state
        }
    }

    /// Fixes of the users in `moved` were deleted since the last look at the store's counts: a user
    /// whose index this process holds, and did not delete from itself meanwhile, has every tile
    /// renewed and the index built anew when a tile next needs it.
    func removalsCounted(_ moved: Set<UserID>) {
        users.withLock { users in
            for (userID, var state) in users {
                if moved.contains(userID), !state.removedHere {
                    state.versions.changedEverywhere()
                    state.markStale()
                }
                state.removedHere = false
                users[userID] = state
            }
        }
    }

    /// The ETag of a tile of a user (whatever layer and range; they are part of the URL).
    func etag(userID: UserID, tile: Tile) -> String {
        let version = users.withLock { $0[userID]?.versions.version(of: tile) ?? 0 }
        return "\"\(instance)-\(version)\""
    }

    /// Forgets a deleted user's index, in memory and its saved file.
    func forget(userID: UserID) {
        users.withLock { users in
            users[userID]?.building?.cancel()
            users[userID] = nil
        }
        if let file = indexFile(userID: userID) { try? FileManager.default.removeItem(at: file) }
    }

    /// Whether the user has an index here, built or building (not after ``forget(userID:)``).
    func knows(userID: UserID) -> Bool {
        users.withLock { $0[userID] != nil }
    }

    /// Starts building the user's index when it is not built or being built, without waiting for
    /// it (a login: the page may soon ask for tiles or a range's bounds). A failed build is
    /// tried again by the next request.
    func warm(userID: UserID) {
        Task { _ = try? await withIndex(userID: userID) { _ in true } }
    }

    /// The user's index when it is current and changed since it was saved (or was never saved);
    /// it then counts as saved.
    func takeIndexToSave(userID: UserID) -> HistoryIndexLoader.Loaded? {
        users.withLock { users in
            guard var state = users[userID], let loaded = state.loaded, !state.stale, state.fixesSinceSave != 0 else { return nil }
            state.fixesSinceSave = 0
            users[userID] = state
            return loaded
        }
    }

    /// The users whose index changed since it was saved.
    var usersWithUnsavedIndex: [UserID] {
        users.withLock { users in
            users.compactMap { $0.value.loaded != nil && !$0.value.stale && $0.value.fixesSinceSave != 0 ? $0.key : nil }
        }
    }

    /// Runs `body` on the user's index, building it first when needed.
    func withIndex<T: Sendable>(userID: UserID, _ body: (HistoryIndexLoader.Loaded) throws -> T) async throws -> T {
        while true {
            let step: Result<T, any Error>? = users.withLock { users in
                var state = users[userID] ?? UserState()
                defer { users[userID] = state }
                if let loaded = state.loaded, !state.stale { return Result { try body(loaded) } }
                if state.building == nil {
                    state.building = Task { try await self.obtainIndex(userID: userID) }
                    state.landedWhileBuilding = []
                    state.staleDuringBuild = false
                }
                return nil
            }
            if let step { return try step.get() }
            guard let task = users.withLock({ $0[userID]?.building }) else { continue }
            let result = await task.result
            let save = users.withLock { users in
                guard var state = users[userID], state.building == task else { return false }
                state.building = nil
                if case var .success(obtained) = result {
                    state.stale = state.staleDuringBuild
                    state.fixesSinceSave = obtained.fixesSinceSave
                    for (device, locations) in state.landedWhileBuilding where !state.stale {
                        Self.add(locations, device: device, to: &obtained.loaded, state: &state)
                        state.fixesSinceSave = state.fixesSinceSave.map { $0 + locations.count }
                    }
                    state.loaded = obtained.loaded
                }
                state.landedWhileBuilding = []
                state.staleDuringBuild = false
                users[userID] = state
                return state.fixesSinceSave != 0 && !state.stale
            }
            if save { saveContinuation.yield(userID) }
            if case let .failure(error) = result { throw error }
        }
    }

    /// Adds fixes in time order. A new device makes the index stale; so does a fix older than its
    /// device's last one (the build read it already, or it landed out of order), which also renews
    /// every tile.
    private static func add(_ locations: [Location], device: DeviceID, to loaded: inout HistoryIndexLoader.Loaded,
                            state: inout UserState) {
        guard let deviceIndex = loaded.deviceIndices[device] else {
            state.stale = true
            return
        }
        for location in locations.sorted(by: { $0.timestamp < $1.timestamp }) where !loaded.index.append(location, deviceIndex: deviceIndex) {
            state.stale = true
            state.versions.changedEverywhere()
            return
        }
        if let last = locations.max(by: { $0.timestamp < $1.timestamp }) { loaded.lastLocations[device] = last }
    }
}
