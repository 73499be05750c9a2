import Foundation
import TravelogCore
import TravelogStore

/// A user's regions with where each device stands, and their transitions with names: what the
/// API, the page and `travelog regions` show.
public struct RegionReader: Sendable {
    public let store: any AccountStore & RegionStore

    public init(store: any AccountStore & RegionStore) {
        self.store = store
    }

    /// The user's regions, each with the state every device of the user has for it.
    public func regions(userID: UserID) async throws(StoreError) -> [RegionJSON] {
        let regions = try await store.regions(userID: userID)
        var checkpoints: [(Device, RegionCheckpoint?)] = []
        for device in try await store.devices(userID: userID) {
            checkpoints.append((device, try await store.regionCheckpoint(deviceID: device.id)))
        }
        return regions.map { region in
            RegionJSON(region, states: checkpoints.map { device, checkpoint in
                RegionJSON.StateJSON(device: device.name, state: (checkpoint?.regions[region.id]?.state ?? .unknown).description)
            })
        }
    }

    /// The transitions of the user's devices within `[from, to)`, oldest first, optionally of one region.
    public func transitions(userID: UserID, regionID: RegionID? = nil, from: Date?, to: Date?) async throws(StoreError) -> [RegionTransitionJSON] {
        let names = Dictionary(try await store.regions(userID: userID).map { ($0.id, $0.definition.name) }, uniquingKeysWith: { a, _ in a })
        let devices = Dictionary(try await store.devices(userID: userID).map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        return try await store.transitions(userID: userID, regionID: regionID, from: from, to: to).map { stored in
            RegionTransitionJSON(stored, regionName: names[stored.transition.regionID] ?? "",
                                 deviceName: devices[stored.transition.deviceID] ?? "")
        }
    }
}
