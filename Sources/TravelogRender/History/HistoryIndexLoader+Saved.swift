import Foundation
import Synchronization
import TravelogCore
import TravelogStore

extension HistoryIndexLoader {
    /// Brings a saved index up to date with the store, or tells that it cannot be trusted.
    ///
    /// The saved index is used only when, for every device of the user, the store holds what the
    /// index holds plus fixes later than the index's last one of that device, which are then
    /// appended: the store's count of the device's fixes must be the saved count plus those
    /// appended, its first fix the saved first one, and each device must keep its colour index.
    /// A fix stored into the past while the index was saved (a late upload, an import of an old
    /// month, even by another process on the same database), a discarded import, a removed
    /// device: any of them changes a count or a first time, and the index is built anew.
    /// - Returns: the index and how many fixes were appended, or `nil` when it must be built anew.
    /// - Complexity: O(devices) store summaries plus the fixes appended.
    public static func resume(_ saved: consuming HistoryIndexFile.Saved, store: any LocationStore & AccountStore,
                              userID: UserID) async throws -> (loaded: Loaded, appendedFixes: Int)? {
        let indices = colorIndices(try await store.devices(userID: userID))
        for (device, index) in saved.loaded.deviceIndices where indices[device] != index { return nil }
        let spans = saved.spans
        // The index has one owner while fixes join it, so its columns grow in place.
        let state = Mutex((loaded: saved.loaded, newer: 0, inOrder: true))
        _ = consume saved
        state.withLock { $0.loaded.deviceIndices = indices }
        var appended = 0
        for summary in try await store.deviceSummaries(userID: userID) {
            let device = summary.device.id
            let span = spans[device] ?? HistoryIndexFile.DeviceSpan(fixCount: 0, first: nil, last: nil)
            guard let deviceIndex = indices[device], summary.locationCount >= span.fixCount else { return nil }
            if span.fixCount > 0, !sameMillisecond(summary.firstTimestamp, span.first) { return nil }
            if summary.locationCount == span.fixCount {
                guard span.fixCount == 0 || sameMillisecond(summary.lastTimestamp, span.last) else { return nil }
                continue
            }
            // Fixes after the saved last one (one at the same millisecond is left out: the count then fails).
            let last = span.last
            state.withLock { $0.newer = 0 }
            try await store.forEachTrackBatch(LocationQuery(userID: userID, deviceIDs: [device], from: last), batchSize: batchSize) { batch in
                state.withLock { state in
                    for location in batch where state.inOrder && last.map({ location.timestamp > $0 }) ?? true {
                        state.inOrder = state.loaded.index.append(location, deviceIndex: deviceIndex)
                        state.newer += 1
                        state.loaded.lastLocations[device] = location
                    }
                }
            }
            let (newer, inOrder) = state.withLock { ($0.newer, $0.inOrder) }
            guard inOrder, span.fixCount + newer == summary.locationCount else { return nil }
            appended += newer
        }
        return (state.withLock { $0.loaded }, appended)
    }

    /// Two times that are the same at the store's precision (milliseconds).
    private static func sameMillisecond(_ stored: Date?, _ saved: Date?) -> Bool {
        guard let stored, let saved else { return stored == nil && saved == nil }
        return (stored.timeIntervalSince1970 * 1000).rounded() == (saved.timeIntervalSince1970 * 1000).rounded()
    }
}
