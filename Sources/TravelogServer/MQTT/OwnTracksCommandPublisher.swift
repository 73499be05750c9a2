import CMosquitto
import Foundation
import Logging
import Synchronization
import TravelogFormats
import TravelogStore

/// Sends MQTT phones the user's regions as OwnTracks waypoints: a `setWaypoints` command published
/// at QoS 1 to `PREFIX/USER/DEVICE/cmd` (OwnTracks obeys it when the app's Remote commands are on).
///
/// When: to every `owntracks-mqtt` device once the subscriber is connected (the broker may have
/// been away while regions changed); to a user's `owntracks-mqtt` devices when the page changes
/// their regions; and, as the HTTP route does in its answers, after a message of any device that
/// publishes, when the regions differ from what that device was last offered
/// (`OwnTracksRegionSync.offer`: one fingerprint per device, shared with the HTTP route). So a
/// server process that does not hold the subscription (several processes on PostgreSQL) and
/// changes regions leaves them to be offered by the one that does, at the phone's next message.
///
/// Publishing needs the subscriber's connection: without one (no `--mqtt`, the broker away),
/// nothing is sent and nothing is marked offered.
final class OwnTracksCommandPublisher: Sendable {
    let store: any TravelogStore
    let logger: Logger

    /// The subscriber's client while it is connected, with how topics name users.
    struct Connection: @unchecked Sendable {
        /// libmosquitto's client (thread-safe in threaded mode).
        var client: OpaquePointer
        /// The topics' first level (`owntracks`).
        var prefix: String
        /// Topic user names by Travelog user name (the user map read backwards).
        var topicUsers: [String: String]
    }
    private let connection = Mutex<Connection?>(nil)

    init(store: any TravelogStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// Called by the subscriber when it connected (`connection`) and when it lost the broker (`nil`).
    func connected(_ connection: Connection?) {
        self.connection.withLock { $0 = connection }
    }

    var isConnected: Bool { connection.withLock { $0 != nil } }

    /// The subscriber's connection, while there is one.
    var currentConnection: Connection? { connection.withLock { $0 } }

    /// The `cmd` topic of a device of a user named so in Travelog.
    func commandTopic(user: String, device: String) -> String? {
        connection.withLock { connection in
            connection.map { "\($0.prefix)/\($0.topicUsers[user] ?? user)/\(device)/cmd" }
        }
    }

    /// Every `owntracks-mqtt` device of every user gets its user's regions (on connecting).
    func offerToAll() async {
        do throws(StoreError) {
            for user in try await store.users() where !user.isDisabled {
                await offer(userID: user.id, userName: user.name, forced: true)
            }
        } catch {
            logger.error("MQTT: the regions were not sent to the phones: \(error)")
        }
    }

    /// The user's `owntracks-mqtt` devices get the user's regions (after the page changed them).
    func regionsChanged(userID: UserID) async {
        guard isConnected else { return }
        do throws(StoreError) {
            guard let user = try await store.user(id: userID) else { return }
            await offer(userID: userID, userName: user.name, forced: false)
        } catch {
            logger.error("MQTT: the changed regions were not sent to the phones: \(error)")
        }
    }

    private func offer(userID: UserID, userName: String, forced: Bool) async {
        do throws(StoreError) {
            for device in try await store.devices(userID: userID) where device.app == .owntracksMQTT {
                guard let topic = commandTopic(user: userName, device: device.name) else { return }
                _ = try await offer(to: device, topic: topic, forced: forced)
            }
        } catch {
            logger.error("MQTT: the regions were not sent to \(userName)'s phones: \(error)")
        }
    }

    /// After a message from `device` under `topicUser`: its regions, when they changed since it was
    /// last offered them. Returns whether a command was published.
    @discardableResult
    func offerIfChanged(to device: Device, topicUser: String) async -> Bool {
        guard let prefix = connection.withLock({ $0?.prefix }) else { return false }
        do {
            return try await offer(to: device, topic: "\(prefix)/\(topicUser)/\(device.name)/cmd", forced: false)
        } catch {
            logger.error("MQTT: the regions were not offered to \(device.name): \(error)")
            return false
        }
    }

    /// Publishes the device's `setWaypoints`: always (`forced`), or when the regions differ from
    /// what it was last offered; marks them offered once published.
    private func offer(to device: Device, topic: String, forced: Bool) async throws(StoreError) -> Bool {
        let waypoints = OwnTracksRegionSync.waypoints(try await store.regions(userID: device.userID))
        let fingerprint = OwnTracksRegionSync.fingerprint(waypoints)
        let offered = try await store.offeredRegionsFingerprint(deviceID: device.id)
        guard forced || (offered != fingerprint && (offered != nil || !waypoints.isEmpty)) else { return false }
        guard publish(OwnTracksRegionMessage.setWaypointsCommand(waypoints), topic: topic) else { return false }
        try await store.setOfferedRegionsFingerprint(fingerprint, deviceID: device.id)
        logger.info("MQTT: sent \(waypoints.count) regions to \(topic)")
        return true
    }

    /// Publishes at QoS 1, not retained; `false` without a connection or when libmosquitto refused.
    func publish(_ message: [String: Any], topic: String) -> Bool {
        guard let data = try? JSONSerialization.data(withJSONObject: message, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return false
        }
        return publish(data: data, topic: topic, retain: false)
    }

    /// Publishes bytes at QoS 1 (an empty retained payload deletes the topic's retained message).
    func publish(data: Data, topic: String, retain: Bool) -> Bool {
        connection.withLock { connection in
            guard let connection else { return false }
            let rc = data.withUnsafeBytes { bytes in
                mosquitto_publish(connection.client, nil, topic, Int32(bytes.count), bytes.baseAddress, 1, retain)
            }
            if rc != MOSQ_ERR_SUCCESS.rawValue {
                logger.warning("MQTT: publishing to \(topic): \(String(cString: mosquitto_strerror(rc)))")
            }
            return rc == MOSQ_ERR_SUCCESS.rawValue
        }
    }
}
