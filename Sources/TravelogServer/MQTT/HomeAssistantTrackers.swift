import Foundation
import Logging
import TravelogCore
import TravelogFormats
import TravelogStore

/// Every Travelog device as a Home Assistant device tracker (issue 31, item 4;
/// `serve --mqtt-home-assistant [PREFIX]`, off by default): through Home Assistant's MQTT discovery, a
/// retained `PREFIX/device_tracker/travelog_U_D/config` (`homeassistant` by default) declares a GPS
/// tracker whose position comes from its JSON attributes topic, and `travelog/travelog_U_D/attributes`
/// holds, retained, the device's latest fix: `latitude`, `longitude`, `gps_accuracy` (what Home
/// Assistant places the tracker and its zones by), and `altitude`, `speed` (m/s), `course` and `time`
/// where known. No state topic: Home Assistant then works out home, away and its zones itself.
///
/// This is the owner's own home automation, so privacy zones (rules for what friends and links see)
/// do not apply; who reads `travelog/#` on the broker is its ACL's say (docs/SECURITY.md). A device
/// deleted, a user disabled: its config is deleted (an empty retained payload), which removes the
/// tracker from Home Assistant, and its attributes with it.
actor HomeAssistantTrackers: BrokerFeed {
    let store: any TravelogStore
    let logger: Logger
    /// Home Assistant's discovery prefix.
    let discoveryPrefix: String
    static let defaultDiscoveryPrefix = "homeassistant"
    /// The first level of the attribute topics.
    static let attributesPrefix = "travelog"
    private var retained = RetainedTopics()

    var name: String { "Home Assistant's device trackers" }

    init(store: any TravelogStore, logger: Logger, discoveryPrefix: String = HomeAssistantTrackers.defaultDiscoveryPrefix) {
        self.store = store
        self.logger = logger
        self.discoveryPrefix = discoveryPrefix
    }

    /// A device's object id: numbers only, so every name a user gives is safe in a topic.
    static func objectID(_ device: Device) -> String { "travelog_\(device.userID.rawValue)_\(device.id.rawValue)" }

    @discardableResult
    func sweep(prefix: String, topicUsers: [String: String], publish: BrokerFeeds.Publish) async throws
        -> (published: [String], cleared: [String]) {
        var wanted: [String: [RetainedTopics.Message]] = [:]
        for user in try await store.users() where !user.isDisabled {
            for device in try await store.devices(userID: user.id) {
                let latest = try await store.locations(LocationQuery(userID: user.id, deviceIDs: [device.id], limit: 1, newestFirst: true))
                guard let fix = latest.first?.location else { continue }
                let id = Self.objectID(device)
                let attributesTopic = "\(Self.attributesPrefix)/\(id)/attributes"
                wanted[id] = [
                    .init(topic: "\(discoveryPrefix)/device_tracker/\(id)/config",
                          payload: try Self.json(Self.config(device: device, userName: user.name, attributesTopic: attributesTopic))),
                    .init(topic: attributesTopic, payload: try Self.json(Self.attributes(fix))),
                ]
            }
        }
        let (sent, cleared) = retained.apply(wanted, publish: publish)
        if !sent.isEmpty || !cleared.isEmpty {
            logger.info("MQTT: Home Assistant's device trackers: \(sent.count) published, \(cleared.count) removed")
        }
        return (sent, cleared)
    }

    /// The discovery message of a device's tracker.
    static func config(device: Device, userName: String, attributesTopic: String) -> [String: Any] {
        let id = objectID(device)
        return [
            // No name of its own: the tracker is its device's main feature, so Home Assistant names it
            // after the device ("ada · phone"); a name here was added to it ("ada · phone phone",
            // seen in Home Assistant 2024.2.5).
            "name": NSNull(),
            "unique_id": id,
            "object_id": id,
            "json_attributes_topic": attributesTopic,
            "source_type": "gps",
            "device": [
                "identifiers": [id],
                "name": "\(userName) · \(device.name)",
                "manufacturer": "Travelog",
                "model": device.app?.rawValue ?? "device",
            ] as [String: Any],
        ]
    }

    /// A fix as the tracker's attributes.
    static func attributes(_ fix: Location) -> [String: Any] {
        var attributes: [String: Any] = ["latitude": fix.coordinate.latitude, "longitude": fix.coordinate.longitude,
                                         "time": ISO8601TimeFormatter.string(fix.timestamp)]
        if let accuracy = fix.horizontalAccuracyIfValid { attributes["gps_accuracy"] = OwnTracksFriends.integer(accuracy) }
        if let altitude = fix.altitudeMeters { attributes["altitude"] = OwnTracksFriends.integer(altitude) }
        if let speed = fix.speedIfKnown { attributes["speed"] = speed }
        if let course = fix.courseIfKnown { attributes["course"] = OwnTracksFriends.integer(course) }
        return attributes
    }

    static func json(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    }
}
