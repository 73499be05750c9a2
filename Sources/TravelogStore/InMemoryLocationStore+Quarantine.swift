import Foundation

extension InMemoryLocationStore {
    public func quarantine(_ items: [NewRejectedItem]) async throws(StoreError) -> Int {
        withState { state in
            var added = 0
            for item in items where state.rejectedFingerprints.insert("\(item.userID):\(item.fingerprint)").inserted {
                let id = RejectedItemID(rawValue: state.makeID())
                state.rejectedFingerprintsByID[id] = "\(item.userID):\(item.fingerprint)"
                state.rejectedItems[id] = RejectedItem(id: id, userID: item.userID, deviceID: item.deviceID, route: item.route,
                                                       reason: item.reason, raw: item.raw, rawByteCount: item.rawByteCount,
                                                       receivedAt: StoragePrecision.date(milliseconds:
                                                           StoragePrecision.milliseconds(item.receivedAt)))
                added += 1
            }
            return added
        }
    }

    public func rejectedItems(userID: UserID, limit: Int) async throws(StoreError) -> [RejectedItem] {
        withState { state in
            Array(state.rejectedItems.values.filter { $0.userID == userID }.sorted { $0.id > $1.id }.prefix(max(0, limit)))
        }
    }

    public func rejectedItemCount(userID: UserID) async throws(StoreError) -> Int {
        withState { state in state.rejectedItems.values.count { $0.userID == userID } }
    }

    public func deleteRejectedItems(userID: UserID, ids: [RejectedItemID]?) async throws(StoreError) -> Int {
        withState { state in
            let chosen = ids.map(Set.init)
            let doomed = state.rejectedItems.values.filter { $0.userID == userID && (chosen?.contains($0.id) ?? true) }
            for item in doomed {
                state.rejectedItems[item.id] = nil
                if let fingerprint = state.rejectedFingerprintsByID.removeValue(forKey: item.id) {
                    state.rejectedFingerprints.remove(fingerprint)
                }
            }
            return doomed.count
        }
    }
}
