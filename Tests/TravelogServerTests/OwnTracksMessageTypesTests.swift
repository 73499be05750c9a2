import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import NIOCore
import Testing
import TravelogCore
import TravelogImport
import TravelogStore
@testable import TravelogServer

/// Every OwnTracks message type, on the HTTP route and through the MQTT subscriber's ingest alike
/// (one path: `OwnTracksIngest`): locations stored, waypoints become regions, transitions kept as
/// the device's, the card kept per device, and lwt, status, cmd, configuration and steps passed
/// over without being set aside.
@Suite("OwnTracks message types on HTTP and MQTT")
struct OwnTracksMessageTypesTests {
    static let face = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
    /// (payload, MQTT subtopic) as the apps send them (booklet, docs/tech/json.md; the Android app's fixtures).
    static let messages: [(String, String?)] = [
        (#"{"_type":"location","tid":"ph","tst":1700000000,"lat":52.5,"lon":13.4,"acc":8,"batt":80,"bs":2,"conn":"w","m":2,"SSID":"home","BSSID":"aa:bb:cc:dd:ee:ff","inregions":["home"],"inrids":["5a1b"],"t":"u","created_at":1700000001}"#, nil),
        (#"{"_type":"waypoint","desc":"home","lat":52.5,"lon":13.4,"rad":150,"tst":1600000000}"#, "waypoint"),
        (#"{"_type":"waypoints","waypoints":[{"_type":"waypoint","desc":"work","lat":52.52,"lon":13.41,"rad":100,"tst":1600000100}]}"#, "waypoints"),
        (#"{"_type":"transition","acc":3,"desc":"home","event":"leave","lat":52.51,"lon":13.41,"t":"c","tid":"ph","tst":1700000300,"wtst":1600000000}"#, "event"),
        (#"{"_type":"card","name":"Ada L.","face":"\#(face)","tid":"AL"}"#, "info"),
        (#"{"_type":"lwt","tst":1700000400}"#, nil),
        (#"{"_type":"status","android":{"hib":1,"bo":1,"loc":0,"ps":0,"wifi":1}}"#, "status"),
        (#"{"_type":"steps","tst":1700000500,"steps":1234,"from":1699990000,"to":1700000500}"#, "step"),
        (#"{"_type":"configuration","mode":0}"#, "dump"),
    ]

    static func mqttIngest(_ fixture: ServerFixture) -> OwnTracksMQTTIngest {
        let regions = OwnTracksRegionSync(store: fixture.app.store, evaluator: fixture.app.writer.regions)
        return OwnTracksMQTTIngest(ingest: OwnTracksIngest(writer: fixture.app.writer, regions: regions), metrics: nil,
                                   logger: Logger(label: "mqtt-test"))
    }

    /// What a device was left with: (locations, regions, reported transitions, card, rejected items).
    static func outcome(_ fixture: ServerFixture, device name: String) async throws
        -> (locations: Int, regions: [String], transitions: Int, card: OwnTracksCard?, rejected: [String]) {
        let store = fixture.app.store
        let device = try #require(try await store.device(named: name, userID: fixture.ada.id))
        let locations = try await store.locations(LocationQuery(userID: fixture.ada.id, deviceIDs: [device.id])).count
        let regions = try await store.regions(userID: fixture.ada.id).map(\.definition.name).sorted()
        let transitions = try await store.transitions(userID: fixture.ada.id, regionID: nil, from: nil, to: nil)
            .map(\.transition).filter { $0.deviceID == device.id }
        let card = try await (store as? any OwnTracksCardStore)?.ownTracksCard(deviceID: device.id)
        let rejected = try await store.rejectedItems(userID: fixture.ada.id, limit: 100).map(\.reason)
        return (locations, regions, transitions.filter { $0.source == .reported }.count, card, rejected)
    }

    /// What the first message says of the phone itself, as its device's last report keeps it.
    static let status = PhoneStatus(trackerID: "ph", connection: .wifi, wifiName: "home", wifiAccessPoint: "aa:bb:cc:dd:ee:ff",
                                    monitoringMode: .move, regions: ["home"], regionIDs: ["5a1b"], trigger: .manual,
                                    createdAt: Date(timeIntervalSince1970: 1_700_000_001))

    static func phoneStatus(_ fixture: ServerFixture, device name: String) async throws -> PhoneStatus? {
        let store = try #require(fixture.app.store as? any DeviceStore)
        let device = try #require(try await fixture.app.store.device(named: name, userID: fixture.ada.id))
        return try await store.deviceStates(userID: fixture.ada.id)[device.id]?.lastReport?.phoneStatus
    }

    @Test("over MQTT, each type on its topic: one location, two regions, the leave, the card; nothing set aside")
    func mqtt() async throws {
        let fixture = try await ServerFixture.make()
        let ingest = Self.mqttIngest(fixture)
        for (payload, subtopic) in Self.messages {
            let topic = "owntracks/ada/phone" + (subtopic.map { "/\($0)" } ?? "")
            #expect(await ingest.receive(topic: topic, payload: Array(payload.utf8)) == .stored, "\(topic): \(payload)")
        }
        let result = try await Self.outcome(fixture, device: "phone")
        #expect(result.rejected == [])
        #expect(result.locations == 1)
        #expect(result.regions == ["home", "work"])
        #expect(result.transitions == 1)
        #expect(result.card == (try OwnTracksCard(name: "Ada L.", face: Self.face)))
        #expect(try await Self.phoneStatus(fixture, device: "phone") == Self.status)
    }

    @Test("over HTTP, the same messages in one body give the same; a card alone makes its device")
    func http() async throws {
        let fixture = try await ServerFixture.make()
        let body = "[" + Self.messages.map(\.0).joined(separator: ",") + "]"
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: Auth.basic("ada", fixture.adaToken),
                                     body: ByteBuffer(string: body)) { response in
                #expect(response.status == .ok)
            }
            // A card is what an MQTT phone publishes first; on HTTP a new device named by X-Limit-D.
            var headers = Auth.basic("ada", ServerFixture.adaPassword)
            headers[HTTPField.Name("X-Limit-D")!] = "tablet"
            try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: headers,
                                     body: ByteBuffer(string: #"{"_type":"card","name":"Ada's tablet"}"#)) { response in
                #expect(response.status == .ok)
            }
        }
        let result = try await Self.outcome(fixture, device: "phone")
        #expect(result.rejected == [])
        #expect(result.locations == 1)
        #expect(result.regions == ["home", "work"])
        #expect(result.transitions == 1)
        #expect(result.card == (try OwnTracksCard(name: "Ada L.", face: Self.face)))
        #expect(try await Self.outcome(fixture, device: "tablet").card == (try OwnTracksCard(name: "Ada's tablet", face: nil)))
        #expect(try await Self.phoneStatus(fixture, device: "phone") == Self.status)
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/devices", method: .get, headers: Auth.basic("ada", ServerFixture.adaPassword)) { response in
                let devices = try #require(response.body.json as? [[String: Any]])
                let phone = try #require(devices.first { $0["name"] as? String == "phone" }?["lastReport"] as? [String: Any])
                let status = try #require(phone["phone"] as? [String: Any])
                #expect(status["trackerID"] as? String == "ph")
                #expect(status["connection"] as? String == "wifi")
                #expect(status["wifi"] as? String == "home")
                #expect(status["monitoringMode"] as? String == "move")
                #expect(status["regions"] as? [String] == ["home"] && status["regionIDs"] as? [String] == ["5a1b"])
                #expect(status["trigger"] as? String == "manual" && status["createdAt"] as? String == "2023-11-14T22:13:21Z")
                #expect(status["summary"] as? String == #"Wi-Fi "home" · move mode · in home"#)
            }
        }
    }

    @Test("a card without name and face, or with a face too large, is set aside with the reason; the kept one stays")
    func badCards() async throws {
        let fixture = try await ServerFixture.make()
        let ingest = Self.mqttIngest(fixture)
        #expect(await ingest.receive(topic: "owntracks/ada/phone/info", payload: Array(#"{"_type":"card","name":"Ada"}"#.utf8)) == .stored)
        #expect(await ingest.receive(topic: "owntracks/ada/phone/info", payload: Array(#"{"_type":"card","tid":"AL"}"#.utf8)) == .setAside)
        let huge = String(repeating: "A", count: OwnTracksCard.maximumFaceLength + 1)
        #expect(await ingest.receive(topic: "owntracks/ada/phone/info", payload: Array(#"{"_type":"card","face":"\#(huge)"}"#.utf8)) == .setAside)
        let result = try await Self.outcome(fixture, device: "phone")
        #expect(result.card == (try OwnTracksCard(name: "Ada", face: nil)))
        #expect(result.rejected.sorted() == ["message: card: a face of 200001 characters, more than the 200000 kept",
                                             "message: card: neither a name nor a face"])
    }

    @Test("the HTTP answer's friends carry the card each device sent (name and face), else the device's name")
    func friendsShowCards() async throws {
        let fixture = try await ServerFixture.make()
        let ingest = Self.mqttIngest(fixture)
        #expect(await ingest.receive(topic: "owntracks/ada/watch", payload: Array(#"{"_type":"location","tst":1700000000,"lat":1,"lon":2}"#.utf8)) == .stored)
        #expect(await ingest.receive(topic: "owntracks/ada/watch/info", payload: Array(#"{"_type":"card","name":"Ada's watch","face":"\#(Self.face)"}"#.utf8)) == .stored)
        #expect(await ingest.receive(topic: "owntracks/ada/tablet", payload: Array(#"{"_type":"location","tst":1700000000,"lat":3,"lon":4}"#.utf8)) == .stored)
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: Auth.basic("ada", fixture.adaToken),
                                     body: ByteBuffer(string: "")) { response in
                #expect(response.status == .ok)
                let messages = try #require(response.body.json as? [[String: Any]])
                let cards = messages.filter { $0["_type"] as? String == "card" }
                let watch = try #require(cards.first { $0["topic"] as? String == "owntracks/ada/watch" })
                #expect(watch["name"] as? String == "Ada's watch")
                #expect(watch["face"] as? String == Self.face)
                let tablet = try #require(cards.first { $0["topic"] as? String == "owntracks/ada/tablet" })
                #expect(tablet["name"] as? String == "tablet")
                #expect(tablet["face"] == nil)
            }
        }
    }
}
