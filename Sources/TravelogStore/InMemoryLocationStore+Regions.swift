import Foundation
import TravelogCore

extension InMemoryLocationStore {
    /// The region part of the in-memory state.
    struct RegionTables {
        var regions: [RegionID: StoredRegion] = [:]
        var transitions: [RegionTransitionID: RegionTransition] = [:]
        var transitionKeys: Set<String> = []
        var checkpoints: [DeviceID: RegionCheckpoint] = [:]
        var offered: [DeviceID: String] = [:]

        func nameTaken(_ name: String, userID: UserID, except id: RegionID?) -> Bool {
            regions.values.contains { $0.userID == userID && $0.definition.name == name && $0.id != id }
        }

        /// Forgets what monitoring concluded from a device's fixes in `stretch` (an import being
        /// discarded): its detected transitions there, and its checkpoint when it stands there.
        mutating func forgetEvaluation(deviceID: DeviceID, of stretch: ClosedRange<Date>) {
            for (id, transition) in transitions
            where transition.deviceID == deviceID && transition.source == .detected && stretch.contains(transition.occurredAt) {
                transitions[id] = nil
                transitionKeys.remove(transition.key)
            }
            if let through = checkpoints[deviceID]?.evaluatedThrough, stretch.contains(through) { checkpoints[deviceID] = nil }
        }

        /// Forgets every device's state for a region.
        mutating func forgetStates(of id: RegionID) {
            for deviceID in Array(checkpoints.keys) { checkpoints[deviceID]?.regions[id] = nil }
        }
    }

    public func addRegion(_ definition: RegionDefinition, userID: UserID, at now: Date) async throws(StoreError) -> StoredRegion {
        try withState { (state) throws(StoreError) -> StoredRegion in
            guard state.users[userID] != nil else { throw .unknownUser(userID) }
            guard !state.regionTables.nameTaken(definition.name, userID: userID, except: nil) else {
                throw .regionExists(name: definition.name)
            }
            let time = Self.stored(now)
            let region = StoredRegion(id: RegionID(rawValue: state.makeID()), userID: userID, definition: definition,
                                      createdAt: time, updatedAt: time)
            state.regionTables.regions[region.id] = region
            return region
        }
    }

    public func updateRegion(id: RegionID, userID: UserID, _ definition: RegionDefinition,
                             at now: Date) async throws(StoreError) -> StoredRegion {
        try withState { (state) throws(StoreError) -> StoredRegion in
            guard var region = state.regionTables.regions[id], region.userID == userID else { throw .unknownRegion(id) }
            guard !state.regionTables.nameTaken(definition.name, userID: userID, except: id) else {
                throw .regionExists(name: definition.name)
            }
            if region.definition.shape != definition.shape || region.definition.notifyOnEntry != definition.notifyOnEntry
                || region.definition.notifyOnExit != definition.notifyOnExit {
                state.regionTables.forgetStates(of: id)
            }
            region.definition = definition
            region.updatedAt = Self.stored(now)
            state.regionTables.regions[id] = region
            return region
        }
    }

    public func removeRegion(id: RegionID, userID: UserID) async throws(StoreError) -> Bool {
        withState { state in
            guard state.regionTables.regions[id]?.userID == userID else { return false }
            state.regionTables.regions[id] = nil
            for (transitionID, transition) in state.regionTables.transitions where transition.regionID == id {
                state.regionTables.transitions[transitionID] = nil
                state.regionTables.transitionKeys.remove(transition.key)
            }
            state.regionTables.forgetStates(of: id)
            return true
        }
    }

    public func regions(userID: UserID) async throws(StoreError) -> [StoredRegion] {
        withState { $0.regionTables.regions.values.filter { $0.userID == userID }.sorted { $0.id < $1.id } }
    }

    public func region(id: RegionID, userID: UserID) async throws(StoreError) -> StoredRegion? {
        withState { state in state.regionTables.regions[id].flatMap { $0.userID == userID ? $0 : nil } }
    }

    public func recordTransitions(_ transitions: [RegionTransition], deviceID: DeviceID, replacingDetected: Range<Date>?,
                                  checkpoint: RegionCheckpoint?) async throws(StoreError) -> [StoredRegionTransition] {
        try withState { (state) throws(StoreError) -> [StoredRegionTransition] in
            guard let device = state.devices[deviceID] else { throw .unknownDevice(deviceID) }
            var tables = state.regionTables
            var previous = Set<String>()
            if let range = replacingDetected {
                for (id, transition) in tables.transitions
                where transition.deviceID == deviceID && transition.source == .detected && range.contains(transition.occurredAt) {
                    tables.transitions[id] = nil
                    tables.transitionKeys.remove(transition.key)
                    previous.insert(transition.key)
                }
            }
            var added: [StoredRegionTransition] = []
            for transition in transitions.sorted(by: { $0.occurredAt < $1.occurredAt })
            where transition.deviceID == deviceID && tables.regions[transition.regionID]?.userID == device.userID
                && tables.transitionKeys.insert(transition.key).inserted {
                let id = RegionTransitionID(rawValue: state.makeID())
                tables.transitions[id] = transition
                if !previous.contains(transition.key) { added.append(StoredRegionTransition(id: id, transition: transition)) }
            }
            if var checkpoint {
                checkpoint.regions = checkpoint.regions.filter { tables.regions[$0.key]?.userID == device.userID }
                tables.checkpoints[deviceID] = checkpoint
            }
            state.regionTables = tables
            return added
        }
    }

    public func transitions(userID: UserID, regionID: RegionID?, from: Date?,
                            to: Date?) async throws(StoreError) -> [StoredRegionTransition] {
        withState { state in
            state.regionTables.transitions
                .filter { _, transition in
                    state.regionTables.regions[transition.regionID]?.userID == userID
                        && (regionID == nil || transition.regionID == regionID)
                        && from.map { transition.occurredAt >= $0 } ?? true && to.map { transition.occurredAt < $0 } ?? true
                }
                .map { StoredRegionTransition(id: $0.key, transition: $0.value) }
                .sorted { ($0.transition.occurredAt, $0.id) < ($1.transition.occurredAt, $1.id) }
        }
    }

    public func regionCheckpoint(deviceID: DeviceID) async throws(StoreError) -> RegionCheckpoint? {
        withState { $0.regionTables.checkpoints[deviceID] }
    }

    public func offeredRegionsFingerprint(deviceID: DeviceID) async throws(StoreError) -> String? {
        withState { $0.regionTables.offered[deviceID] }
    }

    public func setOfferedRegionsFingerprint(_ fingerprint: String, deviceID: DeviceID) async throws(StoreError) {
        try withState { (state) throws(StoreError) in
            guard state.devices[deviceID] != nil else { throw .unknownDevice(deviceID) }
            state.regionTables.offered[deviceID] = fingerprint
        }
    }

    private static func stored(_ date: Date) -> Date {
        StoragePrecision.date(milliseconds: StoragePrecision.milliseconds(date))
    }
}
