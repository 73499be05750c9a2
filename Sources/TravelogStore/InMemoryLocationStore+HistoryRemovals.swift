extension InMemoryLocationStore: HistoryRemovalStore {
    public func historyRemovals() async throws(StoreError) -> [UserID: Int64] {
        withState { $0.historyRemovals }
    }
}

extension InMemoryLocationStore.State {
    /// Counts a deletion of fixes of the device's user.
    mutating func countRemoval(deviceID: DeviceID) {
        guard let userID = devices[deviceID]?.userID else { return }
        historyRemovals[userID, default: 0] += 1
    }
}
