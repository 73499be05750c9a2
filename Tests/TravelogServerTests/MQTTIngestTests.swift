import Foundation
import Logging
import Testing
import TravelogCore
import TravelogStore
@testable import TravelogServer

@Suite("OwnTracks over MQTT: topics, settings")
struct MQTTIngestTests {
    static let location = #"{"_type":"location","tid":"ph","tst":1700000000,"lat":52.5,"lon":13.4,"acc":8}"#

    static func ingest(_ fixture: ServerFixture) -> OwnTracksMQTTIngest {
        OwnTracksMQTTIngest(ingest: OwnTracksIngest(writer: fixture.app.writer, regions: nil), metrics: nil,
                            logger: Logger(label: "mqtt-test"))
    }

    @Test("owntracks/USER/DEVICE stores under that user's device; a new device name makes the device (an owntracks-mqtt one), as over HTTP")
    func topicNamesUserAndDevice() async throws {
        let fixture = try await ServerFixture.make()
        let ingest = Self.ingest(fixture)
        #expect(await ingest.receive(topic: "owntracks/ada/phone", payload: Array(Self.location.utf8)) == .stored)
        #expect(await ingest.receive(topic: "owntracks/ada/tablet", payload: Array(Self.location.utf8)) == .stored)
        let phone = try await fixture.app.store.locations(LocationQuery(userID: fixture.ada.id, deviceIDs: [fixture.adaPhone.id]))
        #expect(phone.map(\.source) == [.owntracks])
        let tablet = try #require(try await fixture.app.store.device(named: "tablet", userID: fixture.ada.id))
        #expect(tablet.app == .owntracksMQTT)
        #expect(try await fixture.storedCount(fixture.bob) == 0)
    }

    @Test("an unknown user's message is stored nowhere; commands, empty payloads and other topics are passed over")
    func notStored() async throws {
        let fixture = try await ServerFixture.make()
        let ingest = Self.ingest(fixture)
        let payload = Array(Self.location.utf8)
        #expect(await ingest.receive(topic: "owntracks/mallory/phone", payload: payload) == .unknownUser)
        #expect(await ingest.receive(topic: "owntracks/ada/phone/cmd", payload: payload) == .ignored)
        #expect(await ingest.receive(topic: "owntracks/ada", payload: payload) == .ignored)
        #expect(await ingest.receive(topic: "owntracks//phone", payload: payload) == .ignored)
        #expect(await ingest.receive(topic: "owntracks/ada/phone", payload: []) == .ignored)
        #expect(try await fixture.storedCount(fixture.ada) == 0)
        #expect(try await fixture.storedCount(fixture.bob) == 0)
        #expect(try await fixture.app.store.rejectedItemCount(userID: fixture.ada.id) == 0)
    }

    @Test("a malformed, a binary and an oversized message are set aside with the topic before the payload")
    func setAside() async throws {
        let fixture = try await ServerFixture.make()
        let ingest = Self.ingest(fixture)
        #expect(await ingest.receive(topic: "owntracks/ada/phone", payload: Array(#"{"_type":"location","lat":"#.utf8)) == .setAside)
        #expect(await ingest.receive(topic: "owntracks/ada/phone", payload: [0xFF, 0x00, 0x7B, 0x10, 0x80]) == .setAside)
        let large = Array(repeating: UInt8(ascii: "x"), count: OwnTracksMQTTIngest.maximumPayloadBytes + 1)
        #expect(await ingest.receive(topic: "owntracks/ada/phone", payload: large) == .setAside)
        let items = try await fixture.app.store.rejectedItems(userID: fixture.ada.id, limit: 10)
        #expect(items.count == 3)
        #expect(items.allSatisfy { $0.route == "mqtt" && $0.raw.hasPrefix("owntracks/ada/phone\n") })
        #expect(items.contains { $0.reason == "message: the message is 262145 bytes, more than the 262144 accepted" })
        #expect(try await fixture.storedCount(fixture.ada) == 0)
    }

    @Test("what a connection read is stored at once, each message with the outcome it has alone: a phone's plain locations in one write, the others in their order")
    func batch() async throws {
        let fixture = try await ServerFixture.make()
        let ingest = Self.ingest(fixture)
        func location(_ seconds: Int, latitude: Double = 52.5) -> String {
            #"{"_type":"location","tid":"ph","tst":\#(1_700_000_000 + seconds),"lat":\#(latitude),"lon":13.4,"acc":8}"#
        }
        let messages: [(topic: String, payload: String, outcome: OwnTracksMQTTIngest.Outcome)] = [
            ("owntracks/ada/phone", location(1), .stored),
            ("owntracks/ada/phone", #"{"_type":"location","lat":"#, .setAside),
            ("owntracks/ada/phone", location(3, latitude: 95), .setAside),
            ("owntracks/bob/phone", location(4), .stored),
            ("owntracks/mallory/phone", location(5), .unknownUser),
            ("owntracks/ada/phone/cmd", location(6), .ignored),
            ("owntracks/ada/phone", location(7), .stored),
            ("owntracks/ada/phone", #"{"_type":"lwt","tst":1700000008}"#, .stored),
            ("owntracks/ada/phone", #"{"_type":"card","name":"Ada","tid":"ph"}"#, .stored),
            ("owntracks/ada/phone", "[\(location(10)),\(location(11))]", .stored),
            ("owntracks/ada/phone", location(1), .stored),
        ]
        let outcomes = await ingest.receive(messages.map { OwnTracksMQTTIngest.Message(topic: $0.topic, payload: Array($0.payload.utf8)) })
        #expect(outcomes == messages.map(\.outcome))
        let ada = try await fixture.app.store.locations(LocationQuery(userID: fixture.ada.id))
        #expect(ada.map { Int($0.location.timestamp.timeIntervalSince1970) - 1_700_000_000 } == [1, 7, 10, 11])
        #expect(try await fixture.storedCount(fixture.bob) == 1)
        let rejected = try await fixture.app.store.rejectedItems(userID: fixture.ada.id, limit: 10)
        #expect(rejected.count == 2)
        #expect(rejected.allSatisfy { $0.route == "mqtt" && $0.raw.hasPrefix("owntracks/ada/phone\n") })
        #expect(rejected.contains { $0.raw == "owntracks/ada/phone\n" + location(3, latitude: 95) })
        let cards = try #require(fixture.app.store as? any OwnTracksCardStore)
        let card = try await cards.ownTracksCard(deviceID: fixture.adaPhone.id)
        #expect(card?.name == "Ada")
    }

    @Test("a user map names the Travelog user for a topic's broker account; unmapped names stay their own")
    func userMap() async throws {
        let map = try MQTTSettings.userMap(parsing: "# broker account  Travelog user\nada-phone\tada\n\n  bobby   bob  # his old name\n")
        #expect(map == ["ada-phone": "ada", "bobby": "bob"])
        #expect(throws: MQTTSettingsError.invalidUserMap(line: 2, reason: "expected TOPIC-USER TRAVELOG-USER")) {
            try MQTTSettings.userMap(parsing: "a b\nonly-one\n")
        }
        #expect(throws: MQTTSettingsError.invalidUserMap(line: 2, reason: "'a' is mapped twice")) {
            try MQTTSettings.userMap(parsing: "a b\na c\n")
        }
        let fixture = try await ServerFixture.make()
        var ingest = Self.ingest(fixture)
        ingest.userMap = map
        #expect(await ingest.receive(topic: "owntracks/ada-phone/phone", payload: Array(Self.location.utf8)) == .stored)
        #expect(await ingest.receive(topic: "owntracks/bobby/phone", payload: Array(Self.location.utf8)) == .stored)
        #expect(await ingest.receive(topic: "owntracks/ada/phone", payload: Array(Self.location.utf8)) == .stored)
        #expect(await ingest.receive(topic: "owntracks/mallory/phone", payload: Array(Self.location.utf8)) == .unknownUser)
        #expect(try await fixture.storedCount(fixture.ada) == 1)  // the same fix twice: stored once
        #expect(try await fixture.storedCount(fixture.bob) == 1)
    }

    @Test("the broker URL: scheme, default ports, user and percent-encoded password, never shown")
    func settings() throws {
        let tls = try MQTTSettings(url: "mqtts://travelog:p%40ss%3Aword@broker.example.org")
        #expect(tls.useTLS && tls.port == 8883 && tls.host == "broker.example.org")
        #expect(tls.username == "travelog" && tls.password == "p@ss:word")
        #expect(tls.brokerDescription == "mqtts://travelog@broker.example.org:8883")
        #expect(tls.topics == ["owntracks/+/+", "owntracks/+/+/+"] && tls.clientID == "travelog")
        let plain = try MQTTSettings(url: "mqtt://127.0.0.1:1884")
        #expect(!plain.useTLS && plain.port == 1884 && plain.username == nil)
        #expect(throws: MQTTSettingsError.self) { try MQTTSettings(url: "http://broker") }
        #expect(throws: MQTTSettingsError.self) { try MQTTSettings(url: "mqtt://broker/owntracks") }
        #expect(throws: MQTTSettingsError.invalidTopic("owntracks/#/x")) { try MQTTSettings(url: "mqtt://b", topics: ["owntracks/#/x"]) }
        #expect(throws: MQTTSettingsError.invalidTopic("own+tracks/#")) { try MQTTSettings(url: "mqtt://b", topics: ["own+tracks/#"]) }
        #expect(throws: MQTTSettingsError.clientCertificateWithoutKeyOrTLS) {
            try MQTTSettings(url: "mqtts://b", certificateFile: "/c.pem")
        }
    }

    @Test("one connection subscribes to the plain filters as 'travelog'; several share them ($share/travelog/…) as travelog, travelog-2 …")
    func connections() throws {
        var settings = try MQTTSettings(url: "mqtt://b", clientID: "tl")
        #expect(settings.connections == 1 && settings.subscriptions == ["owntracks/+/+", "owntracks/+/+/+"])
        #expect(settings.clientID(connection: 0) == "tl")
        settings.connections = 3
        #expect(settings.subscriptions == ["$share/travelog/owntracks/+/+", "$share/travelog/owntracks/+/+/+"])
        #expect((0..<3).map { settings.clientID(connection: $0) } == ["tl", "tl-2", "tl-3"])
    }
}
