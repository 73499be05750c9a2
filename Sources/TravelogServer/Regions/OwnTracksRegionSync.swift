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
    let store: any AccountStore & RegionStore & QuarantineStore
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

    /// The user's regions by name, read once per post and kept up to date as waypoints are saved.
    struct KnownRegions {
        var byName: [String: StoredRegion]
        var count: Int

        init(_ regions: [StoredRegion]) {
            byName = Dictionary(regions.map { ($0.definition.name, $0) }, uniquingKeysWith: { first, _ in first })
            count = regions.count
        }
    }

    /// Applies the body's region messages for the device. Waypoints that would take the user past
    /// ``StoredRegion/maximumPerUser`` regions are set aside as rejected items, so the app's queue
    /// moves on and the locations of the post are kept.
    /// - Complexity: one read of the user's regions, then O(1) look-ups and one write per waypoint.
    func receive(_ body: SpooledBody, device: Device, now: Date = Date()) async throws(StoreError) {
        guard body.byteCount <= Self.maximumBodyBytes else { return }
        let bytes = body.bytes(in: 0..<body.byteCount, limit: Self.maximumBodyBytes)
        // Most posts are locations only: no need to parse them twice.
        guard bytes.count > 10, String(decoding: bytes, as: UTF8.self).contains("\"_type\"") else { return }
        let messages = OwnTracksRegionMessage.messages(in: Data(bytes))
        guard !messages.isEmpty else { return }
        var known = KnownRegions(try await store.regions(userID: device.userID))
        var transitions: [RegionTransition] = []
        var refused: [NewRejectedItem] = []
        for message in messages {
            switch message {
            case .waypoints(let waypoints):
                for waypoint in waypoints {
                    let saved = try await save(waypoint, userID: device.userID, known: &known)
                    if !saved { refused.append(Self.rejected(waypoint, device: device, now: now)) }
                }
            case .transition(let reported):
                guard let region = known.byName[reported.regionName] else { continue }
                transitions.append(RegionTransition(deviceID: device.id, regionID: region.id, kind: reported.entering ? .entry : .exit,
                                                    occurredAt: reported.time, coordinate: reported.coordinate,
                                                    horizontalAccuracyMeters: reported.accuracyMeters, source: .reported))
            }
        }
        if !refused.isEmpty { _ = try await store.quarantine(refused) }
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
    /// - Returns: `false` when the waypoint would be a new region beyond ``StoredRegion/maximumPerUser``.
    func save(_ waypoint: OwnTracksRegionMessage.Waypoint, userID: UserID,
              known: inout KnownRegions) async throws(StoreError) -> Bool {
        let limits = RegionDefinition.radiusLimitsMeters
        let radius = waypoint.beaconUUID == nil ? waypoint.radiusMeters : max(waypoint.radiusMeters, limits.lowerBound)
        guard let center = Coordinate(validLatitude: waypoint.latitude, longitude: waypoint.longitude),
              let circle = try? Circle(center: center, radiusMeters: radius) else { return true }
        let beacon = waypoint.beaconUUID.flatMap { try? RegionBeacon(proximityUUID: $0, major: waypoint.beaconMajor, minor: waypoint.beaconMajor == nil ? nil : waypoint.beaconMinor) }
        guard let definition = try? RegionDefinition(name: waypoint.name, shape: .circle(circle), beacon: beacon) else { return true }
        if let existing = known.byName[definition.name] {
            guard case .circle = existing.definition.shape, existing.definition != definition else { return true }
            known.byName[definition.name] = try await store.updateRegion(id: existing.id, userID: userID, definition, at: Date())
        } else {
            guard known.count < StoredRegion.maximumPerUser else { return false }
            known.byName[definition.name] = try await store.addRegion(definition, userID: userID, at: waypoint.createdAt)
            known.count += 1
        }
        return true
    }

    /// A waypoint refused for the limit, as the user will see it among the rejected items.
    static func rejected(_ waypoint: OwnTracksRegionMessage.Waypoint, device: Device, now: Date) -> NewRejectedItem {
        var object: [String: Any] = ["_type": "waypoint", "desc": waypoint.name, "lat": waypoint.latitude, "lon": waypoint.longitude,
                                     "rad": waypoint.radiusMeters, "tst": Int64(waypoint.createdAt.timeIntervalSince1970.rounded(.down))]
        if let uuid = waypoint.beaconUUID { object["uuid"] = uuid.uuidString }
        let raw = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        var hash = SHA256()
        hash.update(data: Array("owntracks\u{0}\(device.id.rawValue)\u{0}".utf8))
        hash.update(data: raw)
        let fingerprint = hash.finalize().map { String(format: "%02x", $0) }.joined()
        return NewRejectedItem(userID: device.userID, deviceID: device.id, route: "owntracks",
                               reason: "waypoint '\(waypoint.name)': a user may have at most \(StoredRegion.maximumPerUser) regions",
                               raw: String(decoding: raw, as: UTF8.self), rawByteCount: raw.count, receivedAt: now,
                               fingerprint: fingerprint)
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

    /// The circles as waypoints, keyed (`tst`) by their creation second, made unique: a region
    /// whose second is taken gets the next free one.
    /// - Complexity: O(n α(n)): the next free second after a taken one is found through links that
    ///   are shortened as they are followed (union–find), not by trying each second in turn, which
    ///   took n²/2 steps when n regions shared a second.
    static func waypoints(_ regions: [StoredRegion]) -> [OwnTracksRegionMessage.Waypoint] {
        var nextFree: [Int64: Int64] = [:]
        func claim(_ wanted: Int64) -> Int64 {
            var second = wanted
            var path: [Int64] = []
            while let next = nextFree[second] {
                path.append(second)
                second = next
            }
            nextFree[second] = second + 1
            for taken in path { nextFree[taken] = second + 1 }
            return second
        }
        return regions.compactMap { region in
            guard case .circle(let circle) = region.definition.shape else { return nil }
            let second = claim(Int64(region.createdAt.timeIntervalSince1970.rounded(.down)))
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
