import Foundation
import TravelogCore

extension InMemoryLocationStore {
    public func renameDevice(id: DeviceID, to name: String) async throws(StoreError) -> Device {
        let name = try AccountName.validated(name)
        return try withState { (state) throws(StoreError) -> Device in
            guard var device = state.devices[id] else { throw .unknownDevice(id) }
            guard !state.devices.values.contains(where: { $0.userID == device.userID && $0.name == name && $0.id != id }) else {
                throw .deviceExists(name: name)
            }
            device.name = name
            state.devices[id] = device
            return device
        }
    }

    public func retireDevice(id: DeviceID, at date: Date) async throws(StoreError) {
        try withState { (state) throws(StoreError) in
            guard state.devices[id] != nil else { throw .unknownDevice(id) }
            for (digest, deviceID) in state.tokenDigests where deviceID == id { state.tokenDigests[digest] = nil }
            var deviceState = state.deviceStates[id] ?? DeviceState()
            if deviceState.retiredAt == nil { deviceState.retiredAt = StoragePrecision.date(milliseconds: StoragePrecision.milliseconds(date)) }
            deviceState.silentAfterSeconds = nil
            deviceState.silenceNotified = false
            state.deviceStates[id] = deviceState
        }
    }

    public func deleteDevice(id: DeviceID) async throws(StoreError) {
        try withState { (state) throws(StoreError) in
            guard state.devices[id] != nil else { throw .unknownDevice(id) }
            state.countRemoval(deviceID: id)
            state.devices[id] = nil
            for stored in state.locations.removeValue(forKey: id) ?? [] { state.keys.remove(stored.key) }
            state.labels = state.labels.filter { $0.key.fix.deviceID != id }
            for (digest, deviceID) in state.tokenDigests where deviceID == id { state.tokenDigests[digest] = nil }
            for (importID, record) in state.imports where record.deviceID == id { state.imports[importID] = nil }
            for (importID, record) in state.runningImports where record.deviceID == id { state.runningImports[importID] = nil }
            for (visitID, visit) in state.visits where visit.visit.deviceID == id { state.visits[visitID] = nil }
            for (itemID, item) in state.rejectedItems where item.deviceID == id {
                state.rejectedItems[itemID] = nil
                if let fingerprint = state.rejectedFingerprintsByID.removeValue(forKey: itemID) {
                    state.rejectedFingerprints.remove(fingerprint)
                }
            }
            for (transitionID, transition) in state.regionTables.transitions where transition.deviceID == id {
                state.regionTables.transitions[transitionID] = nil
                state.regionTables.transitionKeys.remove(transition.key)
            }
            state.regionTables.checkpoints[id] = nil
            state.regionTables.offered[id] = nil
            state.deviceStates[id] = nil
        }
    }

    public func recordReport(_ report: DeviceReport, deviceID: DeviceID) async throws(StoreError) {
        let report = report.storable
        try withState { (state) throws(StoreError) in
            guard state.devices[deviceID] != nil else { throw .unknownDevice(deviceID) }
            var deviceState = state.deviceStates[deviceID] ?? DeviceState()
            deviceState.lastReport = DeviceState.merged(report, into: deviceState.lastReport)
            state.deviceStates[deviceID] = deviceState
        }
    }

    public func deviceStates(userID: UserID) async throws(StoreError) -> [DeviceID: DeviceState] {
        withState { state in state.deviceStates.filter { state.devices[$0.key]?.userID == userID } }
    }

    public func setSilentAfter(seconds: Int?, deviceID: DeviceID) async throws(StoreError) {
        try withState { (state) throws(StoreError) in
            guard state.devices[deviceID] != nil else { throw .unknownDevice(deviceID) }
            state.deviceStates[deviceID, default: DeviceState()].silentAfterSeconds = seconds
            state.deviceStates[deviceID, default: DeviceState()].silenceNotified = false
        }
    }

    public func setSilenceNotified(_ notified: Bool, deviceID: DeviceID) async throws(StoreError) {
        try withState { (state) throws(StoreError) in
            guard state.devices[deviceID] != nil else { throw .unknownDevice(deviceID) }
            state.deviceStates[deviceID, default: DeviceState()].silenceNotified = notified
        }
    }

    public func watchedDevices() async throws(StoreError) -> [(device: Device, state: DeviceState)] {
        withState { state in
            state.deviceStates.compactMap { id, deviceState in
                guard deviceState.silentAfterSeconds != nil, deviceState.retiredAt == nil, let device = state.devices[id] else { return nil }
                return (device, deviceState)
            }.sorted { $0.device.id.rawValue < $1.device.id.rawValue }
        }
    }
}
