import Crypto
import Foundation
import TravelogCore
import TravelogFormats
import TravelogImport
import TravelogStore

/// OwnTracks and the user's regions, both ways: the app's `waypoint(s)` create or update regions
/// (by name; a circle, and the iBeacon it may name), its `transition`s are stored as transitions the
/// device reported, and the answer to a post carries a `setWaypoints` command whenever the user's
/// regions differ from what that device was last offered, so a region drawn on the page appears
/// on the phone. Polygons cannot be OwnTracks waypoints and are not offered.
struct OwnTracksRegionSync: Sendable {
    let store: any AccountStore & RegionStore
    let evaluator: RegionEvaluator?
    /// Region messages are looked for in bodies up to this size, bytes (phones send them on their
    /// own; a larger body is a batch of locations).
    static let maximumBodyBytes = 1 << 20

    /// The device a post is for, when it exists (a post that stored nothing leaves no device behind).
    func device(for target: DeviceTarget) async throws(StoreError) -> Device? {
        switch target {
        case .device(let device): device
        case .named(let name, let userID, _): try await store.device(named: name, userID: userID)
        }
    }

    /// Applies the body's region messages for the device.
    func receive(_ body: SpooledBody, device: Device) async throws(StoreError) {
        guard body.byteCount <= Self.maximumBodyBytes else { return }
        let bytes = body.bytes(in: 0..<body.byteCount, limit: Self.maximumBodyBytes)
        // Most posts are locations only: no need to parse them twice.
        guard bytes.count > 10, String(decoding: bytes, as: UTF8.self).contains("\"_type\"") else { return }
        var transitions: [RegionTransition] = []
        for message in OwnTracksRegionMessage.messages(in: Data(bytes)) {
            switch message {
            case .waypoints(let waypoints):
                for waypoint in waypoints { try await save(waypoint, userID: device.userID) }
            case .transition(let reported):
                let regions = try await store.regions(userID: device.userID)
                guard let region = regions.first(where: { $0.definition.name == reported.regionName }) else { continue }
                transitions.append(RegionTransition(deviceID: device.id, regionID: region.id, kind: reported.entering ? .entry : .exit,
                                                    occurredAt: reported.time, coordinate: reported.coordinate,
                                                    horizontalAccuracyMeters: reported.accuracyMeters, source: .reported))
            }
        }
        guard !transitions.isEmpty else { return }
        if let evaluator {
            try await evaluator.recordReported(transitions, device: device)
        } else {
            _ = try await store.recordTransitions(transitions, deviceID: device.id, replacingDetected: nil, checkpoint: nil)
        }
    }

    /// A waypoint as a region: added, or the circle of that name updated. One that cannot be
    /// monitored (a radius under 10 m without a beacon) is left out; a beacon waypoint's radius
    /// is raised to the smallest a region may have.
    func save(_ waypoint: OwnTracksRegionMessage.Waypoint, userID: UserID) async throws(StoreError) {
        let limits = RegionDefinition.radiusLimitsMeters
        let radius = waypoint.beaconUUID == nil ? waypoint.radiusMeters : max(waypoint.radiusMeters, limits.lowerBound)
        guard let center = Coordinate(validLatitude: waypoint.latitude, longitude: waypoint.longitude),
              let circle = try? Circle(center: center, radiusMeters: radius) else { return }
        let beacon = waypoint.beaconUUID.flatMap { try? RegionBeacon(proximityUUID: $0, major: waypoint.beaconMajor, minor: waypoint.beaconMajor == nil ? nil : waypoint.beaconMinor) }
        guard let definition = try? RegionDefinition(name: waypoint.name, shape: .circle(circle), beacon: beacon) else { return }
        if let existing = try await store.regions(userID: userID).first(where: { $0.definition.name == definition.name }) {
            guard case .circle = existing.definition.shape, existing.definition != definition else { return }
            _ = try await store.updateRegion(id: existing.id, userID: userID, definition, at: Date())
        } else {
            _ = try await store.addRegion(definition, userID: userID, at: waypoint.createdAt)
        }
    }

    /// The `setWaypoints` command for the device, when the user's regions changed since it was last
    /// offered them (nothing while the user has none and none were offered).
    func offer(to device: Device) async throws(StoreError) -> [String: Any]? {
        let waypoints = Self.waypoints(try await store.regions(userID: device.userID))
        let fingerprint = Self.fingerprint(waypoints)
        let offered = try await store.offeredRegionsFingerprint(deviceID: device.id)
        guard offered != fingerprint, offered != nil || !waypoints.isEmpty else { return nil }
        try await store.setOfferedRegionsFingerprint(fingerprint, deviceID: device.id)
        return OwnTracksRegionMessage.setWaypointsCommand(waypoints)
    }

    /// The circles as waypoints, keyed (`tst`) by their creation second, made unique.
    static func waypoints(_ regions: [StoredRegion]) -> [OwnTracksRegionMessage.Waypoint] {
        var taken = Set<Int64>()
        return regions.compactMap { region in
            guard case .circle(let circle) = region.definition.shape else { return nil }
            var second = Int64(region.createdAt.timeIntervalSince1970.rounded(.down))
            while !taken.insert(second).inserted { second += 1 }
            let beacon = region.definition.beacon
            return OwnTracksRegionMessage.Waypoint(name: region.definition.name, latitude: circle.center.latitude,
                                                   longitude: circle.center.longitude, radiusMeters: circle.radiusMeters,
                                                   createdAt: Date(timeIntervalSince1970: Double(second)), beaconUUID: beacon?.proximityUUID,
                                                   beaconMajor: beacon?.major, beaconMinor: beacon?.minor)
        }
    }

    static func fingerprint(_ waypoints: [OwnTracksRegionMessage.Waypoint]) -> String {
        let text = waypoints.map { "\($0.name)\u{0}\($0.latitude)\u{0}\($0.longitude)\u{0}\($0.radiusMeters)\u{0}\($0.createdAt.timeIntervalSince1970)\u{0}"
            + "\($0.beaconUUID?.uuidString ?? "")\u{0}\($0.beaconMajor ?? 0)\u{0}\($0.beaconMinor ?? 0)" }.joined(separator: "\n")
        return SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
