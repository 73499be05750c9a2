import Foundation

extension InMemoryLocationStore {
    public func setPasswordHash(_ hash: String, userID: UserID) async throws(StoreError) {
        try withState { (state) throws(StoreError) in
            guard state.users[userID] != nil else { throw .unknownUser(userID) }
            state.passwordHashes[userID] = hash
        }
    }

    public func passwordHash(userID: UserID) async throws(StoreError) -> String? {
        withState { $0.passwordHashes[userID] }
    }

    public func setTokenDigest(_ digest: SecretDigest, deviceID: DeviceID) async throws(StoreError) {
        try withState { (state) throws(StoreError) in
            guard state.devices[deviceID] != nil else { throw .unknownDevice(deviceID) }
            state.tokenDigests = state.tokenDigests.filter { $0.value != deviceID }
            state.tokenDigests[digest] = deviceID
        }
    }

    public func device(tokenDigest: SecretDigest) async throws(StoreError) -> Device? {
        withState { state in state.tokenDigests[tokenDigest].flatMap { state.devices[$0] } }
    }

    public func setApp(_ app: DeviceApp?, deviceID: DeviceID) async throws(StoreError) {
        try withState { (state) throws(StoreError) in
            guard state.devices[deviceID] != nil else { throw .unknownDevice(deviceID) }
            state.devices[deviceID]?.app = app
        }
    }

    public func addSession(digest: SecretDigest, _ session: SessionRecord) async throws(StoreError) {
        try withState { (state) throws(StoreError) in
            guard state.users[session.userID] != nil else { throw .unknownUser(session.userID) }
            state.sessions[digest] = session
        }
    }

    public func session(digest: SecretDigest) async throws(StoreError) -> SessionRecord? {
        withState { $0.sessions[digest] }
    }

    public func deleteSession(digest: SecretDigest) async throws(StoreError) {
        withState { state in state.sessions[digest] = nil }
    }
}
