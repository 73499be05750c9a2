extension InMemoryLocationStore: OwnTracksSecretStore {
    public func setOwnTracksSecret(_ secret: String?, deviceID: DeviceID) async throws(StoreError) {
        try withState { (state) throws(StoreError) in
            guard state.devices[deviceID] != nil else { throw .unknownDevice(deviceID) }
            state.ownTracksSecrets[deviceID] = secret
        }
    }

    public func ownTracksSecret(deviceID: DeviceID) async throws(StoreError) -> String? {
        withState { $0.devices[deviceID] == nil ? nil : $0.ownTracksSecrets[deviceID] }
    }
}
