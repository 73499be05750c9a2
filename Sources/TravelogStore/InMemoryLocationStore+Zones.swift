import Foundation

extension InMemoryLocationStore {
    public func addZone(_ definition: ZoneDefinition, userID: UserID, at date: Date) async throws(StoreError) -> StoredZone {
        try withState { (state) throws(StoreError) -> StoredZone in
            guard state.users[userID] != nil else { throw .unknownUser(userID) }
            guard !state.zones.values.contains(where: { $0.userID == userID && $0.definition.name == definition.name }) else {
                throw .database(operation: "adding a zone", message: "a zone named '\(definition.name)' exists already")
            }
            let zone = StoredZone(id: ZoneID(rawValue: state.makeID()), userID: userID, definition: definition,
                                  createdAt: StoragePrecision.date(milliseconds: StoragePrecision.milliseconds(date)))
            state.zones[zone.id] = zone
            return zone
        }
    }

    public func zones(userID: UserID) async throws(StoreError) -> [StoredZone] {
        withState { state in state.zones.values.filter { $0.userID == userID }.sorted { $0.id < $1.id } }
    }

    public func removeZone(id: ZoneID, userID: UserID) async throws(StoreError) -> Bool {
        withState { state in
            guard state.zones[id]?.userID == userID else { return false }
            state.zones[id] = nil
            return true
        }
    }

    public func recordZoneDrops(userID: UserID, countsByDay: [String: Int]) async throws(StoreError) {
        withState { state in state.zoneDrops[userID, default: [:]].merge(countsByDay, uniquingKeysWith: +) }
    }

    public func zoneDrops(userID: UserID) async throws(StoreError) -> [ZoneDropCount] {
        withState { state in
            (state.zoneDrops[userID] ?? [:]).sorted { $0.key < $1.key }.map { ZoneDropCount(day: $0.key, count: $0.value) }
        }
    }

    public func deleteLocations(_ keys: [LocationKey], userID: UserID) async throws(StoreError) -> Int {
        withState { state in
            let wanted = Set(keys.filter { state.devices[$0.deviceID]?.userID == userID })
            var deleted = 0
            for device in Set(wanted.map(\.deviceID)) {
                state.locations[device]?.removeAll { stored in
                    guard wanted.contains(stored.key) else { return false }
                    state.keys.remove(stored.key)
                    deleted += 1
                    return true
                }
            }
            if deleted > 0 { state.historyRemovals[userID, default: 0] += 1 }
            return deleted
        }
    }
}
