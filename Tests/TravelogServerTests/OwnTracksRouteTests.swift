import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogCore
import TravelogSQLite
import TravelogAccounts
import TravelogServer
import TravelogStore

@Suite("OwnTracks HTTP mode")
struct OwnTracksRouteTests {
    static let location = #"{"_type":"location","lat":52.5,"lon":13.4,"tst":1700000000,"tid":"ph","acc":8,"vel":36,"cog":90,"alt":35,"batt":80}"#

    @Test("a location is stored with km/h turned into m/s, and the answer lists the other devices as friends")
    func storesAndAnswersFriends() async throws {
        let fixture = try await ServerFixture.make()
        let watch = try await fixture.app.accounts.addDevice(named: "watch", userID: fixture.ada.id, app: nil)
        try await fixture.test { client in
            // The watch reports first, so it is the phone's friend.
            try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: Auth.basic("ada", watch.token),
                                     body: ByteBuffer(#"{"_type":"location","lat":48.1,"lon":11.5,"tst":1700000100,"tid":"wa"}"#)) { response in
                #expect(response.status == .ok)
                #expect(response.body.text == "[]")
            }
            let headers = Auth.basic("ada", fixture.adaToken).adding("X-Limit-U", "ada").adding("X-Limit-D", "phone")
            try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: headers, body: ByteBuffer(Self.location)) { response in
                #expect(response.status == .ok)
                let messages = try #require(response.body.json as? [[String: Any]])
                let friend = try #require(messages.first { $0["_type"] as? String == "location" })
                #expect(friend["lat"] as? Double == 48.1)
                #expect(friend["tst"] as? Int == 1_700_000_100)
                #expect(friend["topic"] as? String == "owntracks/ada/watch")
                #expect(messages.contains { $0["_type"] as? String == "card" && $0["name"] as? String == "watch" })
            }
        }
        let stored = try await fixture.app.store.locations(LocationQuery(userID: fixture.ada.id, deviceIDs: [fixture.adaPhone.id]))
        #expect(stored.count == 1)
        #expect(stored.first?.source == .owntracks)
        #expect(stored.first?.location.speedMetersPerSecond == 10)  // 36 km/h
        #expect(stored.first?.location.horizontalAccuracyMeters == 8)
    }

    @Test("an array with transitions, waypoints and lwt is accepted; only locations are stored; an empty body is fine")
    func otherMessages() async throws {
        let fixture = try await ServerFixture.make()
        let body = "[" + Self.location + ","
            + #"{"_type":"transition","event":"enter","desc":"home","lat":52.5,"lon":13.4,"tst":1700000001,"wtst":1600000000,"acc":10,"t":"c","tid":"ph"},"#
            + #"{"_type":"waypoints","waypoints":[{"_type":"waypoint","desc":"home","lat":52.5,"lon":13.4,"rad":100,"tst":1600000000}]},"#
            + #"{"_type":"lwt","tst":1700000002}]"#
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: Auth.basic("ada", fixture.adaToken),
                                     body: ByteBuffer(body)) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: Auth.basic("ada", fixture.adaToken)) { response in
                #expect(response.status == .ok)
                #expect(response.body.text == "[]")
            }
        }
        #expect(try await fixture.storedCount(fixture.ada) == 1)
    }

    @Test("a wrong message is set aside, naming the item and the field; the good one is stored")
    func keepsGoodItems() async throws {
        let fixture = try await ServerFixture.make()
        let body = "[" + Self.location + #",{"_type":"location","lat":200,"lon":13.4,"tst":1700000005,"tid":"ph"}]"#
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: Auth.basic("ada", fixture.adaToken),
                                     body: ByteBuffer(body)) { response in
                #expect(response.status == .ok)
                #expect(response.body.json is [Any])
            }
        }
        #expect(try await fixture.storedCount(fixture.ada) == 1)
        let item = try #require(try await fixture.app.store.rejectedItems(userID: fixture.ada.id, limit: 5).first)
        #expect(item.reason.contains("item 1") && item.reason.contains("200"), "\(item.reason)")
        #expect(item.raw.contains(#""lat":200"#))
        #expect(item.route == "owntracks")
    }

    @Test("a retried message is not stored twice")
    func idempotent() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            for _ in 0..<3 {
                try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: Auth.basic("ada", fixture.adaToken),
                                         body: ByteBuffer(Self.location)) { #expect($0.status == .ok) }
            }
        }
        #expect(try await fixture.storedCount(fixture.ada) == 1)
    }

    @Test("X-Limit-U naming someone else is refused; a password login writes to the device X-Limit-D names")
    func limitHeaders() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/owntracks", method: .post,
                                     headers: Auth.basic("ada", fixture.adaToken).adding("X-Limit-U", "bob"),
                                     body: ByteBuffer(Self.location)) { #expect($0.status == .forbidden) }
            try await client.execute(uri: "/api/v1/owntracks", method: .post,
                                     headers: Auth.basic("ada", ServerFixture.adaPassword).adding("X-Limit-D", "tablet"),
                                     body: ByteBuffer(Self.location)) { #expect($0.status == .ok) }
        }
        let tablet = try #require(try await fixture.app.store.device(named: "tablet", userID: fixture.ada.id))
        #expect(try await fixture.app.store.locations(LocationQuery(userID: fixture.ada.id, deviceIDs: [tablet.id])).count == 1)
        #expect(try await fixture.storedCount(fixture.bob) == 0)
    }
}
