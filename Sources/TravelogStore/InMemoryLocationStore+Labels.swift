import Foundation
import TravelogCore

extension InMemoryLocationStore: LabelStore {
    /// A label's row: its fix and kind.
    struct LabelKey: Hashable {
        var fix: LocationKey
        var kind: LocationLabel.Kind
    }

    @discardableResult
    public func addLabels(_ labels: [StoredLabel]) async throws(StoreError) -> Int {
        try withState { (state) throws(StoreError) -> Int in
            if let unknown = labels.first(where: { state.devices[$0.deviceID] == nil }) { throw .unknownDevice(unknown.deviceID) }
            var changed = 0
            for stored in labels {
                let key = LabelKey(fix: stored.key, kind: stored.label.kind)
                if state.labels[key] != stored.label.text {
                    state.labels[key] = stored.label.text
                    changed += 1
                }
            }
            return changed
        }
    }

    public func labels(userID: UserID, deviceIDs: Set<DeviceID>?, from: Date?, to: Date?,
                       limit: Int) async throws(StoreError) -> [StoredLabel] {
        let fromMs = from.map(StoragePrecision.milliseconds), toMs = to.map(StoragePrecision.milliseconds)
        return withState { state in
            state.labels.compactMap { key, text -> StoredLabel? in
                let fix = key.fix
                guard state.devices[fix.deviceID]?.userID == userID, deviceIDs?.contains(fix.deviceID) ?? true,
                      fromMs.map({ fix.timestampMilliseconds >= $0 }) ?? true, toMs.map({ fix.timestampMilliseconds < $0 }) ?? true,
                      // The fixes themselves, not the duplicate check's keys: a label shows only on a stored fix.
                      (state.locations[fix.deviceID] ?? []).contains(where: { $0.key == fix }) else { return nil }
                return StoredLabel(deviceID: fix.deviceID, timestampMilliseconds: fix.timestampMilliseconds, latitudeE7: fix.latitudeE7,
                                   longitudeE7: fix.longitudeE7, kind: key.kind.rawValue, text: text)
            }
            .sorted { ($0.timestamp, $0.deviceID.rawValue, $0.label.kind.rawValue) < ($1.timestamp, $1.deviceID.rawValue, $1.label.kind.rawValue) }
            .prefix(max(0, limit)).map { $0 }
        }
    }
}
