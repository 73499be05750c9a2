import Foundation
import Logging
import TravelogAccounts
import TravelogCore
import TravelogStore

/// Friends who report over HTTP, seen by friends whose phones use MQTT (issue 31, item 4;
/// `serve --mqtt-relay-friends`): the latest position and the card of each device of a user who has
/// an accepted friend — the devices that do not publish to the broker themselves — published
/// *retained* under the device's own topic (`owntracks/USER/DEVICE`, the card on `…/info`), as an
/// OwnTracks phone publishes, so a friend's OwnTracks app subscribed to `owntracks/+/+` shows them as
/// it shows MQTT friends. (The other way round, MQTT phones in the HTTP answer, was already there:
/// `OwnTracksFriends`.) Who may read them is the broker's ACL: `travelog mqtt acl` lets friends only.
///
/// The same rules as every other friend's view (`FriendPositions`): a device whose latest fix lies in
/// one of its owner's privacy zones shows nothing, and then, like a friendship ended or a device
/// deleted, its retained messages are taken off the broker (an empty retained payload). A sweep every
/// ``BrokerFeeds/interval`` publishes what changed; the process that subscribes publishes, through its connection.
///
/// Travelog's own messages come back through its subscription (`owntracks/+/+`, and the broker sends
/// retained ones again after a restart): each carries ``markerField`` and the subscriber passes them
/// over (`OwnTracksMQTTIngest`), so a relayed fix is never stored as a phone's, nor brought back after
/// its deletion.
actor FriendRelay {
    /// The field every relayed message carries (OwnTracks ignores fields it does not know).
    static let markerField = "_travelog"
    static let markerValue = "relay"
    /// The marker as it appears in a payload written with sorted keys and no spaces.
    static let markerBytes = Array(#""\#(markerField)":"\#(markerValue)""#.utf8)
    typealias Publish = BrokerFeeds.Publish

    let store: any TravelogStore
    let logger: Logger
    /// What this process left retained on the broker.
    private var retained = RetainedTopics()

    init(store: any TravelogStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// A relayed message the broker holds retained, sent by the broker on subscribing: left by an
    /// earlier run (perhaps for a friendship that has ended since), so the next sweep deletes it
    /// unless it is still to be shown.
    func found(topic: String) {
        retained.found(topic: topic, key: topic.hasSuffix("/info") ? String(topic.dropLast(5)) : topic)
    }

    /// Whether a payload is one of Travelog's relayed messages.
    static func isRelayed(_ payload: [UInt8]) -> Bool {
        payload.containsBytes(markerBytes)
    }

    /// One pass: publishes each shown device's card and position when they changed, and clears what is
    /// no longer shown. Returns the topics published and cleared.
    /// - Parameters:
    ///   - prefix: the topics' first level (`owntracks`).
    ///   - topicUsers: broker names by Travelog user name (`--mqtt-user-map` read backwards).
    @discardableResult
    func sweep(prefix: String, topicUsers: [String: String], publish: Publish) async throws -> (published: [String], cleared: [String]) {
        var wanted: [String: [RetainedTopics.Message]] = [:]
        let friends = Friends(store: store)
        for user in try await store.users() where !user.isDisabled {
            let accepted: Int
            do throws(FriendError) { accepted = try await friends.accepted(userID: user.id).count } catch { continue }
            guard accepted > 0 else { continue }
            let hiding = try await PrivacyZones(store: store).visibility(userID: user.id)
            let topicUser = topicUsers[user.name] ?? user.name
            // A name with '/', '+', '#' or a space would name another topic, or none (as the ACL leaves it out).
            guard MosquittoACL.isTopicLevel(topicUser) else { continue }
            for device in try await store.devices(userID: user.id) where device.app != .owntracksMQTT && MosquittoACL.isTopicLevel(device.name) {
                let latest = try await store.locations(LocationQuery(userID: user.id, deviceIDs: [device.id], limit: 1, newestFirst: true))
                guard let fix = latest.first?.location, !hiding.contains(fix.coordinate) else { continue }
                let topic = "\(prefix)/\(topicUser)/\(device.name)"
                let card = try await (store as? any OwnTracksCardStore)?.ownTracksCard(deviceID: device.id)
                let messages = OwnTracksFriends.messages(fix, topic: topic, device: device.name,
                                                         cardName: card?.name ?? user.name, face: card?.face)
                guard messages.count == 2 else { continue }
                wanted[topic] = [.init(topic: "\(topic)/info", payload: try Self.payload(messages[0])),
                                 .init(topic: topic, payload: try Self.payload(messages[1]))]
            }
        }
        let (sent, cleared) = retained.apply(wanted, publish: publish)
        if !sent.isEmpty || !cleared.isEmpty {
            logger.info("MQTT: friends' positions relayed to the broker: \(sent.count) published, \(cleared.count) cleared")
        }
        return (sent, cleared)
    }

    /// A message with the marker, its keys sorted (so the marker reads as ``markerBytes``).
    static func payload(_ message: [String: Any]) throws -> Data {
        var marked = message
        marked[markerField] = markerValue
        return try JSONSerialization.data(withJSONObject: marked, options: [.sortedKeys, .withoutEscapingSlashes])
    }
}

extension FriendRelay: BrokerFeed {
    var name: String { "friends' positions" }
}
