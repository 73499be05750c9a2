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

    public func setTokenScope(_ scope: TokenScope, deviceID: DeviceID) async throws(StoreError) {
        try withState { (state) throws(StoreError) in
            guard state.devices[deviceID] != nil else { throw .unknownDevice(deviceID) }
            state.devices[deviceID]?.tokenScope = scope
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

    public func sessions(userID: UserID) async throws(StoreError) -> [(digest: SecretDigest, record: SessionRecord)] {
        withState { state in
            state.sessions.filter { $0.value.userID == userID }
                .map { (digest: $0.key, record: $0.value) }
                .sorted { ($0.record.expiresAt, $0.digest.rawValue) < ($1.record.expiresAt, $1.digest.rawValue) }
        }
    }

    @discardableResult
    public func deleteSessions(userID: UserID) async throws(StoreError) -> Int {
        withState { state in
            let ended = state.sessions.filter { $0.value.userID == userID }.count
            state.sessions = state.sessions.filter { $0.value.userID != userID }
            return ended
        }
    }
}
