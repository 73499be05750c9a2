import Foundation

extension InMemoryLocationStore: TripMatchStore {
    public func tripMatches(keys: [String]) async throws(StoreError) -> [String: TripMatchRecord] {
        withState { state in
            var found: [String: TripMatchRecord] = [:]
            for key in keys { found[key] = state.tripMatches[key] }
            return found
        }
    }

    public func storeTripMatch(_ record: TripMatchRecord) async throws(StoreError) {
        try withState { (state) throws(StoreError) in
            guard state.users[record.userID] != nil else { throw .unknownUser(record.userID) }
            state.tripMatches = state.tripMatches.filter { _, stored in
                !(stored.deviceID == record.deviceID && stored.start < record.end && record.start < stored.end)
            }
            state.tripMatches[record.key] = record
        }
    }
}
