import Foundation
import Logging
import Synchronization
import Testing
import TravelogAccounts
import TravelogCore
import TravelogStore
@testable import TravelogServer

/// `serve --mqtt-relay-friends`: what `FriendRelay` publishes, retained, for friends' OwnTracks apps in
/// MQTT mode, and what it takes off the broker again. (scripts/mqtt-test.sh runs it against Mosquitto.)
@Suite("Friends reporting over HTTP, relayed to MQTT phones")
struct FriendRelayTests {
    /// What a sweep published: (topic, payload as JSON or nil when empty, retained).
    final class Broker: Sendable {
        let sent = Mutex<[(topic: String, payload: Data, retain: Bool)]>([])

        var publish: FriendRelay.Publish {
            { [self] topic, payload, retain in
                sent.withLock { $0.append((topic, payload, retain)) }
                return true
            }
        }

        /// What was published since the last call; an empty payload's message is nil.
        func take() -> [(topic: String, message: [String: Any]?, retain: Bool)] {
            let taken = sent.withLock { sent in defer { sent = [] }; return sent }
            return taken.map { item in
                (item.topic, item.payload.isEmpty ? nil : (try? JSONSerialization.jsonObject(with: item.payload)) as? [String: Any], item.retain)
            }
        }
    }

    static func fix(_ latitude: Double, _ longitude: Double, at seconds: Double) -> Location {
        Location(coordinate: Coordinate(validLatitude: latitude, longitude: longitude)!, horizontalAccuracyMeters: 12,
                 timestamp: Date(timeIntervalSince1970: seconds))
    }

    static func store(_ fix: Location, device: Device, in store: any TravelogStore) async throws {
        _ = try await store.insert([StoredLocation(deviceID: device.id, location: fix, source: .api)])
    }

    @Test("an HTTP device of a user with a friend is published once, retained, card then position, marked; a new fix again; an MQTT phone and a user without friends never")
    func publishes() async throws {
        let fixture = try await ServerFixture.make()
        let store = fixture.app.store
        let relay = FriendRelay(store: store, logger: Logger(label: "relay-test"))
        let broker = Broker()
        // Without a friend, nothing.
        try await Self.store(Self.fix(52.52, 13.405, at: 1_700_000_000), device: fixture.adaPhone, in: store)
        #expect(try await relay.sweep(prefix: "owntracks", topicUsers: [:], publish: broker.publish).published.isEmpty)
        #expect(broker.take().isEmpty)

        try await Friends(store: store).invite("bob", userID: fixture.ada.id)
        try await Friends(store: store).accept("ada", userID: fixture.bob.id)
        let (mqttPhone, _) = try await fixture.app.accounts.addDevice(named: "mqttphone", userID: fixture.ada.id, app: .owntracksMQTT)
        try await Self.store(Self.fix(52.53, 13.41, at: 1_700_000_100), device: mqttPhone, in: store)
        let first = try await relay.sweep(prefix: "owntracks", topicUsers: ["ada": "ada-broker"], publish: broker.publish)
        #expect(first.published == ["owntracks/ada-broker/phone"])
        let sent = broker.take()
        #expect(sent.map(\.topic) == ["owntracks/ada-broker/phone/info", "owntracks/ada-broker/phone"])
        #expect(sent.allSatisfy { $0.retain && $0.message?[FriendRelay.markerField] as? String == FriendRelay.markerValue })
        #expect(sent.first?.message?["_type"] as? String == "card" && sent.first?.message?["name"] as? String == "ada")
        let location = try #require(sent.last?.message)
        #expect(location["_type"] as? String == "location" && location["tst"] as? Int == 1_700_000_000)
        #expect(location["lat"] as? Double == 52.52 && location["lon"] as? Double == 13.405 && location["acc"] as? Int == 12)
        // bob has a device but no fix: nothing of his.

        // A device whose name cannot be a topic level ("my/phone" would be another topic) is left out.
        let (slashed, _) = try await fixture.app.accounts.addDevice(named: "car/tracker", userID: fixture.ada.id, app: nil)
        try await Self.store(Self.fix(52.6, 13.5, at: 1_700_000_150), device: slashed, in: store)
        #expect(try await relay.sweep(prefix: "owntracks", topicUsers: ["ada": "ada-broker"], publish: broker.publish).published.isEmpty)
        #expect(!MosquittoACL.isTopicLevel("car/tracker") && !MosquittoACL.isTopicLevel("a b") && MosquittoACL.isTopicLevel("phone"))

        // Nothing new: nothing sent. A newer fix: sent again.
        #expect(try await relay.sweep(prefix: "owntracks", topicUsers: ["ada": "ada-broker"], publish: broker.publish).published.isEmpty)
        try await Self.store(Self.fix(52.54, 13.42, at: 1_700_000_200), device: fixture.adaPhone, in: store)
        try await relay.sweep(prefix: "owntracks", topicUsers: ["ada": "ada-broker"], publish: broker.publish)
        #expect(broker.take().last?.message?["tst"] as? Int == 1_700_000_200)
    }

    @Test("into a hidden zone, or the friendship ended: the retained position and card are deleted from the broker")
    func clears() async throws {
        let fixture = try await ServerFixture.make()
        let store = fixture.app.store
        let relay = FriendRelay(store: store, logger: Logger(label: "relay-test"))
        let broker = Broker()
        try await Friends(store: store).invite("bob", userID: fixture.ada.id)
        try await Friends(store: store).accept("ada", userID: fixture.bob.id)
        try await Self.store(Self.fix(48.2, 11.645, at: 1_700_000_000), device: fixture.adaPhone, in: store)
        try await relay.sweep(prefix: "owntracks", topicUsers: [:], publish: broker.publish)
        #expect(broker.take().count == 2)

        let home = try ZoneDefinition(name: "Home", shape: .circle(Circle(center: Coordinate(latitude: 48.2, longitude: 11.645), radiusMeters: 300)),
                                      rule: .hide)
        _ = try await PrivacyZones(store: store).add(home, userID: fixture.ada.id)
        let hidden = try await relay.sweep(prefix: "owntracks", topicUsers: [:], publish: broker.publish)
        #expect(hidden.cleared == ["owntracks/ada/phone"])
        let cleared = broker.take()
        #expect(Set(cleared.map(\.topic)) == ["owntracks/ada/phone", "owntracks/ada/phone/info"])
        #expect(cleared.allSatisfy { $0.retain && $0.message == nil }, "an empty retained payload deletes the retained message")

        // Out of the zone again: shown; then the friendship ends: deleted again, and nothing more.
        try await Self.store(Self.fix(48.3, 11.7, at: 1_700_000_600), device: fixture.adaPhone, in: store)
        #expect(try await relay.sweep(prefix: "owntracks", topicUsers: [:], publish: broker.publish).published == ["owntracks/ada/phone"])
        _ = broker.take()
        try await Friends(store: store).remove("ada", userID: fixture.bob.id)
        #expect(try await relay.sweep(prefix: "owntracks", topicUsers: [:], publish: broker.publish).cleared == ["owntracks/ada/phone"])
        #expect(broker.take().allSatisfy { $0.message == nil })
        let last = try await relay.sweep(prefix: "owntracks", topicUsers: [:], publish: broker.publish)
        #expect(last.published.isEmpty && last.cleared.isEmpty)
    }

    @Test("a relayed message that comes back through the subscription is passed over: nothing stored, nothing set aside")
    func ownMessagesComeBack() async throws {
        let fixture = try await ServerFixture.make()
        let ingest = MQTTIngestTests.ingest(fixture)
        let message = OwnTracksFriends.messages(Self.fix(52.5, 13.4, at: 1_700_000_000), topic: "owntracks/ada/phone", device: "phone",
                                                cardName: "ada", face: nil)
        for payload in try message.map(FriendRelay.payload) {
            #expect(FriendRelay.isRelayed(Array(payload)))
            #expect(await ingest.receive(topic: "owntracks/ada/phone", payload: Array(payload)) == .ignored)
        }
        #expect(try await fixture.storedCount(fixture.ada) == 0)
        #expect(try await fixture.app.store.rejectedItemCount(userID: fixture.ada.id) == 0)
        // A phone's own message is not mistaken for one.
        #expect(!FriendRelay.isRelayed(Array(MQTTIngestTests.location.utf8)))
    }
}

/// `serve --mqtt-home-assistant`: every device as a Home Assistant device tracker through MQTT discovery.
@Suite("Travelog's devices as Home Assistant device trackers")
struct HomeAssistantTrackersTests {
    @Test("a device with a fix: its discovery config (GPS, position from the attributes topic, no state topic) and its attributes, retained; again on a new fix; removed with the device or a disabled user")
    func trackers() async throws {
        let fixture = try await ServerFixture.make()
        let store = fixture.app.store
        let trackers = HomeAssistantTrackers(store: store, logger: Logger(label: "ha-test"), discoveryPrefix: "ha")
        let broker = FriendRelayTests.Broker()
        try await FriendRelayTests.store(FriendRelayTests.fix(60.1699, 24.9384, at: 1_700_000_000), device: fixture.adaPhone, in: store)
        let first = try await trackers.sweep(prefix: "owntracks", topicUsers: [:], publish: broker.publish)
        let id = HomeAssistantTrackers.objectID(fixture.adaPhone)
        #expect(first.published == [id], "bob's device has no fix: no tracker")
        let sent = broker.take()
        #expect(sent.map(\.topic) == ["ha/device_tracker/\(id)/config", "travelog/\(id)/attributes"])
        #expect(sent.allSatisfy { $0.retain })
        let config = try #require(sent.first?.message)
        #expect(config["unique_id"] as? String == id && config["name"] is NSNull)
        #expect((config["device"] as? [String: Any])?["name"] as? String == "ada · phone")
        #expect(config["json_attributes_topic"] as? String == "travelog/\(id)/attributes")
        #expect(config["source_type"] as? String == "gps" && config["state_topic"] == nil)
        #expect(((config["device"] as? [String: Any])?["identifiers"] as? [String]) == [id])
        let attributes = try #require(sent.last?.message)
        #expect(attributes["latitude"] as? Double == 60.1699 && attributes["longitude"] as? Double == 24.9384)
        #expect(attributes["gps_accuracy"] as? Int == 12 && attributes["time"] as? String == "2023-11-14T22:13:20Z")

        #expect(try await trackers.sweep(prefix: "owntracks", topicUsers: [:], publish: broker.publish).published.isEmpty)
        try await FriendRelayTests.store(FriendRelayTests.fix(60.17, 24.94, at: 1_700_000_060), device: fixture.adaPhone, in: store)
        try await trackers.sweep(prefix: "owntracks", topicUsers: [:], publish: broker.publish)
        #expect(broker.take().last?.message?["latitude"] as? Double == 60.17)

        // A disabled user's trackers go: attributes, then the config (which removes the entity).
        try await FriendRelayTests.store(FriendRelayTests.fix(52.5, 13.4, at: 1_700_000_000), device: fixture.bobPixel, in: store)
        let pixel = HomeAssistantTrackers.objectID(fixture.bobPixel)
        #expect(try await trackers.sweep(prefix: "owntracks", topicUsers: [:], publish: broker.publish).published == [pixel])
        _ = broker.take()
        _ = try await fixture.app.accounts.setDisabled(true, userID: fixture.bob.id)
        #expect(try await trackers.sweep(prefix: "owntracks", topicUsers: [:], publish: broker.publish).cleared == [pixel])
        let removed = broker.take()
        #expect(removed.map(\.topic) == ["travelog/\(pixel)/attributes", "ha/device_tracker/\(pixel)/config"])
        #expect(removed.allSatisfy { $0.retain && $0.message == nil })
    }
}
