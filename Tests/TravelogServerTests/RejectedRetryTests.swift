import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import TravelogServer
import TravelogStore

/// Sending a rejected item again (`POST /api/v1/rejected/{id}/retry`): an encrypted OwnTracks
/// message set aside before its device's secret was set is stored once the secret is there, and
/// leaves the list; until then a retry says why, and changes nothing; items of other routes are not
/// offered a retry.
@Suite("Rejected items sent again")
struct RejectedRetryTests {
    static let plaintext = #"{"_type":"location","lat":52.52,"lon":13.405,"tst":1700000000,"acc":10}"#
    static let secret = "correct horse battery staple"

    struct Listed: Decodable {
        struct Item: Decodable { var id: Int64; var route: String; var reason: String; var retryable: Bool }
        var total: Int
        var items: [Item]
    }

    static func list(_ client: any TestClientProtocol, _ fixture: ServerFixture) async throws -> Listed {
        try await client.execute(uri: "/api/v1/rejected", method: .get, headers: Auth.basic("ada", ServerFixture.adaPassword)) { response in
            try JSONDecoder().decode(Listed.self, from: Data(String(buffer: response.body).utf8))
        }
    }

    static func retry(_ client: any TestClientProtocol, id: Int64, as headers: HTTPFields) async throws -> (HTTPResponse.Status, String) {
        try await client.execute(uri: "/api/v1/rejected/\(id)/retry", method: .post, headers: headers) { response in
            (response.status, String(buffer: response.body))
        }
    }

    @Test("an encrypted message refused for want of a secret is stored by a retry once the secret is set")
    func encryptedThenSecret() async throws {
        let fixture = try await ServerFixture.make()
        let secrets = try #require(fixture.app.store as? any OwnTracksSecretStore)
        let sealed = OwnTracksEncryption.encrypt(Array(Self.plaintext.utf8), secret: Self.secret)
        let person = Auth.basic("ada", ServerFixture.adaPassword)
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: Auth.basic("ada", fixture.adaToken),
                                     body: ByteBuffer(string: #"{"_type":"encrypted","data":"\#(sealed)"}"#)) { response in
                #expect(response.status == .ok)
            }
            // An Overland item with a bad time among good ones: refused by a rule that does not change.
            try await client.execute(uri: "/api/v1/overland", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer(string: #"{"locations":[{"type":"Feature","geometry":{"type":"Point","coordinates":[13.4,52.5]},"properties":{"timestamp":"yesterday"}}]}"#)) { response in
                #expect(response.status == .ok)
            }
            let listed = try await Self.list(client, fixture)
            let owntracks = try #require(listed.items.first { $0.route == "owntracks" })
            let overland = try #require(listed.items.first { $0.route == "overland" })
            #expect(owntracks.retryable && !overland.retryable)

            let (refused, why) = try await Self.retry(client, id: owntracks.id, as: person)
            #expect(refused == .unprocessableContent)
            #expect(why.contains("no OwnTracks secret is set"))
            try await secrets.setOwnTracksSecret("not the one", deviceID: fixture.adaPhone.id)
            let (wrong, wrongWhy) = try await Self.retry(client, id: owntracks.id, as: person)
            #expect(wrong == .unprocessableContent)
            #expect(wrongWhy.contains("wrong secret"))
            #expect(try await Self.list(client, fixture).total == 2, "a refused retry changes nothing")
            #expect(try await fixture.storedCount(fixture.ada) == 0)

            let (notOffered, _) = try await Self.retry(client, id: overland.id, as: person)
            #expect(notOffered == .conflict)
            // A device token reads the list but does not act for the person.
            let (byToken, _) = try await Self.retry(client, id: owntracks.id, as: Auth.bearer(fixture.adaToken))
            #expect(byToken == .forbidden)
            // Another user cannot reach ada's item.
            let (foreign, _) = try await Self.retry(client, id: owntracks.id, as: Auth.basic("bob", ServerFixture.bobPassword))
            #expect(foreign == .notFound)

            try await secrets.setOwnTracksSecret(Self.secret, deviceID: fixture.adaPhone.id)
            let (stored, answer) = try await Self.retry(client, id: owntracks.id, as: person)
            #expect(stored == .ok)
            #expect(answer.contains(#""stored":1"#))
            let after = try await Self.list(client, fixture)
            #expect(after.items.map(\.route) == ["overland"], "the stored item left the list")
            let (again, _) = try await Self.retry(client, id: owntracks.id, as: person)
            #expect(again == .notFound)
        }
        let stored = try await fixture.app.store.locations(LocationQuery(userID: fixture.ada.id))
        #expect(stored.map(\.location.timestamp.timeIntervalSince1970) == [1_700_000_000])
    }

    @Test("an MQTT message (topic on its first line) is sent again without its topic and stored")
    func mqttItem() async throws {
        let fixture = try await ServerFixture.make()
        let secrets = try #require(fixture.app.store as? any OwnTracksSecretStore)
        let sealed = OwnTracksEncryption.encrypt(Array(Self.plaintext.utf8), secret: Self.secret)
        let raw = "owntracks/ada/phone\n" + #"{"_type":"encrypted","data":"\#(sealed)"}"#
        _ = try await fixture.app.store.quarantine([NewRejectedItem(
            userID: fixture.ada.id, deviceID: fixture.adaPhone.id, route: "mqtt", reason: "message: cannot decrypt: wrong secret?",
            raw: raw, rawByteCount: raw.utf8.count, receivedAt: Date(), fingerprint: "mqtt-test")])
        try await secrets.setOwnTracksSecret(Self.secret, deviceID: fixture.adaPhone.id)
        try await fixture.test { client in
            let item = try #require(try await Self.list(client, fixture).items.first)
            #expect(item.retryable)
            let (status, _) = try await Self.retry(client, id: item.id, as: Auth.basic("ada", ServerFixture.adaPassword))
            #expect(status == .ok)
            #expect(try await Self.list(client, fixture).total == 0)
        }
        #expect(try await fixture.storedCount(fixture.ada) == 1)
    }
}
