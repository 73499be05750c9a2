import Foundation
import Logging
import TravelogFormats
import TravelogImport
import TravelogStore

/// One MQTT message from an OwnTracks phone, stored: its topic `PREFIX/USER/DEVICE[/SUBTOPIC]`
/// names the Travelog user and device (the broker's ACL, `pattern write owntracks/%u/#`, is what
/// guarantees a phone publishes under its own user only: docs/SECURITY.md), the payload goes
/// through `OwnTracksIngest` as an HTTP post's body does. Returns only once what it carries is
/// durable; the subscriber acknowledges the message to the broker after that, and only then.
struct OwnTracksMQTTIngest: Sendable {
    let ingest: OwnTracksIngest
    let metrics: ServerMetrics?
    let logger: Logger
    /// Travelog user names by the topic's (`MQTTSettings.userMap`).
    var userMap: [String: String] = [:]
    /// Offers the device its user's regions after its message, when they changed (none: not offered).
    var commands: OwnTracksCommandPublisher? = nil
    /// A payload larger than this is set aside unread (a phone's message is a few hundred bytes).
    static let maximumPayloadBytes = 256 << 10
    static let route = "mqtt"

    /// What became of a message.
    enum Outcome: String, Sendable {
        /// Stored, or set aside for its user (the good and the wrong items of a message alike).
        case stored
        case setAside = "set_aside"
        /// Not for a Travelog user: acknowledged, logged, counted, nothing kept.
        case unknownUser = "unknown_user"
        /// Not a phone's message (a `…/cmd` topic, an empty retained-message deletion, a topic
        /// without user and device): acknowledged, nothing kept.
        case ignored
        /// The store failed: must not be acknowledged (the broker sends it again).
        case storeFailed = "store_failed"

        var isAcknowledged: Bool { self != .storeFailed }
    }

    func receive(topic: String, payload: [UInt8]) async -> Outcome {
        let outcome = await store(topic: topic, payload: payload)
        metrics?.recordMQTTMessage(outcome.rawValue)
        return outcome
    }

    private func store(topic: String, payload: [UInt8]) async -> Outcome {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard levels.count == 3 || levels.count == 4, !levels[1].isEmpty, !levels[2].isEmpty else {
            logger.notice("MQTT: '\(topic)' is not PREFIX/USER/DEVICE[/SUBTOPIC]: passed over")
            return .ignored
        }
        // Commands are for the phones; an empty payload deletes a retained message.
        if levels.count == 4 && levels[3] == "cmd" { return .ignored }
        if payload.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .ignored }
        // Travelog's own relayed friends' positions (`FriendRelay`), back through the subscription.
        if FriendRelay.isRelayed(payload) { return .ignored }
        let user: User?
        do {
            user = try await ingest.writer.store.user(named: userMap[levels[1]] ?? levels[1])
        } catch {
            logger.error("MQTT: '\(topic)' not stored, the store failed: \(error)")
            return .storeFailed
        }
        guard let user, !user.isDisabled else {
            logger.warning("MQTT: '\(topic)': no enabled Travelog user '\(userMap[levels[1]] ?? levels[1])': the message is not stored")
            return .unknownUser
        }
        var target = DeviceTarget.named(levels[2], userID: user.id, app: .owntracksMQTT)
        let body = payload.count > Self.maximumPayloadBytes ? nil : SpooledBody(bytes: payload)
        do throws(HistoryWriteError) {
            let outcome: HistoryWriter.Outcome
            if let body {
                outcome = try await ingest.receive(body, rawPrefix: topic, to: &target, route: Self.route)
            } else {
                let item = IncomingItem(.refused("the message is \(payload.count) bytes, more than the \(Self.maximumPayloadBytes) accepted"),
                                        position: "message", raw: .bytes(Array("\(topic)\n".utf8) + payload.prefix(RejectedItem.maximumRawBytes)))
                outcome = try await ingest.writer.write([item], to: &target, source: .owntracks, visitSource: .file,
                                                        route: Self.route, policy: .keepValid)
            }
            if let commands, let device = target.knownDevice ?? outcome.device {
                await commands.offerIfChanged(to: device, topicUser: levels[1])
            }
            return outcome.refused > 0 && outcome.stored.inserted + outcome.stored.duplicates == 0 ? .setAside : .stored
        } catch {
            logger.error("MQTT: '\(topic)' not stored, the store failed (the broker will send it again): \(error)")
            return .storeFailed
        }
    }
}
