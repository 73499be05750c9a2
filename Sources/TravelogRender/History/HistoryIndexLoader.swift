import Foundation
import Synchronization
import TravelogCore
import TravelogStore

/// Builds a user's ``HistoryTileIndex`` from a store, device by device in time order, and names
/// the device index each device got (its colour on tiles and snapshots).
public enum HistoryIndexLoader {
    /// Fixes read from the store at a time.
    static let batchSize = 50_000

    /// A user's index and the device index of each of the user's devices.
    public struct Loaded: Sendable {
        public var index: HistoryTileIndex
        /// Device → index in ``HistoryTileIndex``, unique per device, whose colour
        /// (``RenderColor/device(_:)``) is the page's for that device (``colorIndices(_:)``).
        public var deviceIndices: [DeviceID: Int]
        /// The last fix added per device.
        public var lastLocations: [DeviceID: Location]
    }

    /// Reads every fix of the user's devices (or of `devices`, of the time range) into an index.
    /// - Complexity: O(fixes), memory about 40 bytes per fix.
    public static func load(store: any LocationStore & AccountStore & JournalStore, userID: UserID, devices: [Device]? = nil,
                            from: Date? = nil, to: Date? = nil) async throws -> Loaded {
        let all = try await store.devices(userID: userID)
        let deviceIndices = colorIndices(all)
        let state = Mutex(Loaded(index: HistoryTileIndex(), deviceIndices: deviceIndices, lastLocations: [:]))
        for device in devices ?? all {
            guard let deviceIndex = deviceIndices[device.id] else { continue }
            let query = LocationQuery(userID: userID, deviceIDs: [device.id], from: from, to: to)
            try await store.forEachTrackBatch(query, batchSize: batchSize) { batch in
                state.withLock { loaded in
                    for location in batch { loaded.index.append(location, deviceIndex: deviceIndex) }
                    if let last = batch.last { loaded.lastLocations[device.id] = last }
                }
            }
        }
        return state.withLock { $0 }
    }

    /// A unique index per device: its place among the user's devices sorted by name (as
    /// JavaScript sorts, by UTF-16 code units), so up to twelve devices never share a colour and
    /// the tiles draw each device in the colour the page gives it (colors.js). A new device may
    /// move others' colours: it makes the index stale anyway, and a saved one is rebuilt when a
    /// device's index changed (``resume(_:store:userID:)``).
    static func colorIndices(_ devices: [Device]) -> [DeviceID: Int] {
        let sorted = devices.sorted { first, second in
            if first.name.utf16.elementsEqual(second.name.utf16) { return first.id.rawValue < second.id.rawValue }
            return first.name.utf16.lexicographicallyPrecedes(second.name.utf16)
        }
        return Dictionary(uniqueKeysWithValues: sorted.enumerated().map { ($1.id, $0) })
    }

    /// The journal's visits of the range as pins, titled with the person's title, else the
    /// place's name (hidden visits left out), longest stays first so their titles win.
    public static func pins(store: any LocationStore & AccountStore & JournalStore, userID: UserID, devices: [Device]?, from: Date?, to: Date?) async throws -> [MapPin] {
        let visits = try await store.visits(userID: userID, deviceIDs: devices.map { Set($0.map(\.id)) }, from: from, to: to,
                                            includeHidden: false)
        return visits.sorted { ($0.visit.departure ?? .distantFuture).timeIntervalSince($0.visit.arrival)
            > ($1.visit.departure ?? .distantFuture).timeIntervalSince($1.visit.arrival) }
            .map { MapPin(coordinate: $0.visit.center, title: $0.title ?? $0.visit.name ?? "") }
    }
}
