import Foundation

extension InMemoryLocationStore {
    public func setAdministrator(_ isAdministrator: Bool, userID: UserID) async throws(StoreError) -> User {
        try withState { (state) throws(StoreError) -> User in
            guard var user = state.users[userID] else { throw .unknownUser(userID) }
            user.isAdministrator = isAdministrator
            try state.keepAnAdministrator(changing: user)
            state.users[userID] = user
            return user
        }
    }

    public func setDisabled(_ isDisabled: Bool, userID: UserID) async throws(StoreError) -> User {
        try withState { (state) throws(StoreError) -> User in
            guard var user = state.users[userID] else { throw .unknownUser(userID) }
            user.isDisabled = isDisabled
            try state.keepAnAdministrator(changing: user)
            state.users[userID] = user
            return user
        }
    }

    public func deleteUser(id: UserID) async throws(StoreError) {
        try withState { (state) throws(StoreError) in
            guard let user = state.users[id] else { throw .unknownUser(id) }
            try state.keepAnAdministrator(changing: nil, removing: user)
            let devices = Set(state.devices.values.filter { $0.userID == id }.map(\.id))
            for device in devices {
                for stored in state.locations[device] ?? [] { state.keys.remove(stored.key) }
                state.locations[device] = nil
                state.devices[device] = nil
                state.regionTables.checkpoints[device] = nil
                state.regionTables.offered[device] = nil
                state.deviceStates[device] = nil
                state.labels = state.labels.filter { $0.key.fix.deviceID != device }
                state.ownTracksSecrets[device] = nil
            }
            state.users[id] = nil
            state.photos = state.photos.filter { $0.value.userID != id }
            state.passwordHashes[id] = nil
            state.twoFactor[id] = nil
            state.tokenDigests = state.tokenDigests.filter { !devices.contains($0.value) }
            state.sessions = state.sessions.filter { $0.value.userID != id }
            let shares = Set(state.shares.values.filter { $0.record.userID == id }.map(\.id))
            state.shares = state.shares.filter { !shares.contains($0.key) }
            state.shareDigests = state.shareDigests.filter { !shares.contains($0.value) }
            state.zones = state.zones.filter { $0.value.userID != id }
            state.zoneDrops[id] = nil
            state.historyRemovals[id] = nil
            state.figureCache[id] = nil
            state.friendships.removeAll { $0.inviterID == id || $0.inviteeID == id }
            state.imports = state.imports.filter { !devices.contains($0.value.deviceID) }
            state.runningImports = state.runningImports.filter { !devices.contains($0.value.deviceID) }
            for (itemID, item) in state.rejectedItems where item.userID == id {
                state.rejectedItems[itemID] = nil
                if let fingerprint = state.rejectedFingerprintsByID.removeValue(forKey: itemID) {
                    state.rejectedFingerprints.remove(fingerprint)
                }
            }
            state.visits = state.visits.filter { !devices.contains($0.value.visit.deviceID) }
            state.places = state.places.filter { $0.value.userID != id }
            state.channels = state.channels.filter { $0.value.userID != id }
            state.deliveries = state.deliveries.filter { $0.value.channel.userID != id }
            state.regionTables.regions = state.regionTables.regions.filter { $0.value.userID != id }
            state.regionTables.transitions = state.regionTables.transitions.filter { !devices.contains($0.value.deviceID) }
        }
    }
}

extension InMemoryLocationStore.State {
    /// Refuses a change to a user (`changing`, as it would be) or a removal that leaves no enabled
    /// administrator where there was one.
    func keepAnAdministrator(changing changed: User?, removing removed: User? = nil) throws(StoreError) {
        let before = users.values.filter { $0.isAdministrator && !$0.isDisabled }
        guard !before.isEmpty else { return }
        var after = users
        if let changed { after[changed.id] = changed }
        if let removed { after[removed.id] = nil }
        guard after.values.contains(where: { $0.isAdministrator && !$0.isDisabled }) else {
            throw .lastAdministrator((changed ?? removed)?.id ?? before[0].id)
        }
    }
}
