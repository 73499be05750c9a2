extension InMemoryLocationStore: OwnTracksCardStore {
    public func setOwnTracksCard(_ card: OwnTracksCard?, deviceID: DeviceID) async throws(StoreError) {
        try withState { (state) throws(StoreError) in
            guard state.devices[deviceID] != nil else { throw .unknownDevice(deviceID) }
            state.ownTracksCards[deviceID] = card
        }
    }

    /// (A card of a device deleted since is not read: ids are never used again.)
    public func ownTracksCard(deviceID: DeviceID) async throws(StoreError) -> OwnTracksCard? {
        withState { $0.devices[deviceID] == nil ? nil : $0.ownTracksCards[deviceID] }
    }
}
