import Foundation
import TravelogCore

extension InMemoryLocationStore {
    public func retentionSetting(userID: UserID) async throws(StoreError) -> RetentionSetting? {
        withState { $0.retention[userID]?.setting }
    }

    public func setRetentionSetting(_ setting: RetentionSetting?, userID: UserID, at date: Date) async throws(StoreError) {
        try withState { (state) throws(StoreError) in
            guard state.users[userID] != nil else { throw .unknownUser(userID) }
            state.retention[userID, default: RetentionState()].setting = setting
        }
    }

    public func recordRetentionRun(_ run: RetentionRun, userID: UserID) async throws(StoreError) {
        try withState { (state) throws(StoreError) in
            guard state.users[userID] != nil else { throw .unknownUser(userID) }
            state.retention[userID, default: RetentionState()].lastRun = RetentionRun(
                ranAt: StoragePrecision.date(milliseconds: StoragePrecision.milliseconds(run.ranAt)),
                cutoff: StoragePrecision.date(milliseconds: StoragePrecision.milliseconds(run.cutoff)),
                deletedFixes: run.deletedFixes, deletedVisits: run.deletedVisits)
        }
    }

    public func lastRetentionRun(userID: UserID) async throws(StoreError) -> RetentionRun? {
        withState { $0.retention[userID]?.lastRun }
    }

    public func locationSummaries(userID: UserID, before date: Date) async throws(StoreError) -> [DeviceSummary] {
        withState { state in
            state.devices.values.filter { $0.userID == userID }.sorted { $0.id < $1.id }.compactMap { device in
                let times = (state.locations[device.id] ?? []).map(\.location.timestamp).filter { $0 < date }
                guard !times.isEmpty else { return nil }
                return DeviceSummary(device: device, locationCount: times.count, firstTimestamp: times.min(), lastTimestamp: times.max())
            }
        }
    }

    public func visitCount(userID: UserID, endedBefore date: Date) async throws(StoreError) -> Int {
        withState { state in state.visits.values.filter { Self.ended(visit: $0, before: date, userID: userID, state: state) }.count }
    }

    public func deleteVisits(userID: UserID, endedBefore date: Date) async throws(StoreError) -> Int {
        withState { state in
            let gone = state.visits.values.filter { Self.ended(visit: $0, before: date, userID: userID, state: state) }.map(\.id)
            for id in gone { state.visits[id] = nil }
            // The trips between them go with them, and so do their matches to the roads.
            state.tripMatches = state.tripMatches.filter { _, match in match.userID != userID || match.end >= date }
            return gone.count
        }
    }

    private static func ended(visit: StoredVisit, before date: Date, userID: UserID, state: State) -> Bool {
        guard state.devices[visit.visit.deviceID]?.userID == userID, let departure = visit.shownDeparture else { return false }
        return departure < date
    }
}

/// A user's retention in memory: their own setting (`nil`: the server's default) and the last run.
struct RetentionState {
    var setting: RetentionSetting?
    var lastRun: RetentionRun?
}
