import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogAccounts
import TravelogServer
import TravelogStore

@Suite("Friends")
struct FriendRouteTests {
    static let ada = ShareRouteTests.ada, bob = ShareRouteTests.bob

    static func call(_ client: some TestClientProtocol, _ uri: String, _ method: HTTPRequest.Method = .get,
                     _ headers: HTTPFields, body: String? = nil) async throws -> (status: HTTPResponse.Status, json: Any?) {
        try await client.execute(uri: uri, method: method, headers: body == nil ? headers : ShareRouteTests.json(headers),
                                 body: body.map { ByteBuffer(string: $0) }) { ($0.status, $0.body.json) }
    }

    /// What the OwnTracks answer to a post lists: (topic, _type) of each message.
    static func ownTracksAnswer(_ client: some TestClientProtocol, token: String, user: String, latitude: Double,
                                longitude: Double, time: Int) async throws -> [(topic: String, type: String, latitude: Double?)] {
        let body = #"{"_type":"location","lat":\#(latitude),"lon":\#(longitude),"tst":\#(time),"tid":"ph","acc":8}"#
        return try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: Auth.basic(user, token),
                                        body: ByteBuffer(string: body)) { response in
            #expect(response.status == .ok, "\(response.body.text)")
            let messages = try #require(response.body.json as? [[String: Any]])
            return messages.map { ($0["topic"] as? String ?? "", $0["_type"] as? String ?? "", $0["lat"] as? Double) }
        }
    }

    @Test("an invitation, accepted, shows each other's latest position (phones' tokens too, never a read token's); bad requests are precise")
    func inviteAcceptAndSee() async throws {
        let fixture = try await ServerFixture.make()
        let (_, bobPhone) = try await fixture.app.accounts.addDevice(named: "iphone", userID: fixture.bob.id, app: .owntracks, scope: .write)
        let (_, adaPhone) = try await fixture.app.accounts.addDevice(named: "android", userID: fixture.ada.id, app: .owntracks, scope: .write)
        try await fixture.test { client in
            let invited = try await Self.call(client, "/api/v1/friends", .post, Self.ada, body: #"{"name":"bob"}"#)
            #expect(invited.status == .created && (invited.json as? [String: Any])?["state"] as? String == "invited")
            #expect(try await Self.call(client, "/api/v1/friends", .post, Self.ada, body: #"{"name":"bob"}"#).status == .conflict)
            #expect(try await Self.call(client, "/api/v1/friends", .post, Self.ada, body: #"{"name":"ada"}"#).status == .badRequest)
            #expect(try await Self.call(client, "/api/v1/friends", .post, Self.ada, body: #"{"name":"nobody"}"#).status == .notFound)
            #expect(try await Self.call(client, "/api/v1/friends", .post, Self.ada, body: #"{"name":""}"#).status == .badRequest)
            #expect(try await Self.call(client, "/api/v1/friends", .post, Self.ada, body: #"[]"#).status == .badRequest)
            let bobs = try #require(try await Self.call(client, "/api/v1/friends", .get, Self.bob).json as? [[String: Any]])
            #expect(bobs.map { $0["state"] as? String } == ["invitedYou"] && bobs.first?["name"] as? String == "ada")
            // Bob's phone reports; ada sees nothing of it before bob accepts.
            _ = try await Self.ownTracksAnswer(client, token: bobPhone, user: "bob", latitude: 48.2, longitude: 11.6, time: 1_714_644_000)
            #expect((try await Self.call(client, "/api/v1/friends/positions", .get, Self.ada).json as? [Any])?.isEmpty == true)
            #expect(try await Self.call(client, "/api/v1/friends/ada/decline", .post, Self.ada).status == .notFound)
            let accepted = try await Self.call(client, "/api/v1/friends/ada/accept", .post, Self.bob)
            #expect(accepted.status == .ok && (accepted.json as? [String: Any])?["state"] as? String == "friend")
            let positions = try #require(try await Self.call(client, "/api/v1/friends/positions", .get, Self.ada).json as? [[String: Any]])
            #expect(positions.count == 1 && positions.first?["name"] as? String == "bob")
            let devices = try #require(positions.first?["devices"] as? [[String: Any]])
            #expect(devices.map { $0["device"] as? String } == ["iphone"])
            #expect(devices.first?["latitude"] as? Double == 48.2 && devices.first?["accuracy"] as? Double == 8)
            #expect(devices.first?["time"] as? String == "2024-05-02T10:00:00Z")
            #expect(positions.first?["picture"] == nil)
            // A card with a face (PNG) becomes the friend's picture; a face that is no image is not handed on.
            for (face, picture) in [("iVBORw0KGgoAAAANSUhEUg==", "data:image/png;base64,iVBORw0KGgoAAAANSUhEUg=="), ("PHN2Zz48L3N2Zz4=", nil)] {
                try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: Auth.basic("bob", bobPhone),
                                         body: ByteBuffer(string: #"{"_type":"card","name":"Bob B","face":"\#(face)"}"#)) { #expect($0.status == .ok) }
                let seen = try #require(try await Self.call(client, "/api/v1/friends/positions", .get, Self.ada).json as? [[String: Any]])
                #expect(seen.first?["picture"] as? String == picture, "\(face)")
            }
            // A phone's token reads the positions (OwnTracks shows them); a read token reaches no friends' route.
            #expect(try await Self.call(client, "/api/v1/friends/positions", .get, Auth.bearer(adaPhone)).status == .ok)
            for (uri, method) in [("/api/v1/friends/positions", HTTPRequest.Method.get), ("/api/v1/friends", .get),
                                  ("/api/v1/friends/bob", .delete), ("/api/v1/friends/bob/path", .get)] {
                #expect(try await Self.call(client, uri, method, Auth.bearer(fixture.adaToken)).status == .forbidden, "\(uri)")
            }
            #expect(try await Self.call(client, "/api/v1/friends", .get, Auth.bearer(adaPhone)).status == .forbidden)
            #expect(try await Self.call(client, "/api/v1/friends/positions", .get, [:]).status == .unauthorized)
            // The OwnTracks answer to ada's phone lists bob's phone: card and location under owntracks/bob/iphone.
            let answer = try await Self.ownTracksAnswer(client, token: adaPhone, user: "ada", latitude: 52.5, longitude: 13.4, time: 1_714_644_100)
            #expect(answer.filter { $0.topic == "owntracks/bob/iphone" }.map(\.type) == ["card", "location"])
        }
    }

    @Test("history only where granted (403 before), through the friend's zones; a hidden zone keeps a fix off; removal applies at the next request")
    func historyZonesAndRemoval() async throws {
        let fixture = try await ServerFixture.make()
        let (_, bobPhone) = try await fixture.app.accounts.addDevice(named: "iphone", userID: fixture.bob.id, app: .owntracks, scope: .write)
        let (_, adaPhone) = try await fixture.app.accounts.addDevice(named: "android", userID: fixture.ada.id, app: .owntracks, scope: .write)
        try await fixture.test { client in
            _ = try await Self.call(client, "/api/v1/friends", .post, Self.bob, body: #"{"name":"ada"}"#)
            // Ada invites bob back: that accepts bob's invitation.
            let mutual = try await Self.call(client, "/api/v1/friends", .post, Self.ada, body: #"{"name":"bob"}"#)
            #expect(mutual.status == .ok && (mutual.json as? [String: Any])?["state"] as? String == "friend")
            for minute in 0..<10 {
                _ = try await Self.ownTracksAnswer(client, token: bobPhone, user: "bob", latitude: 48.2, longitude: 11.6 + Double(minute) / 100,
                                                   time: 1_714_644_000 + 60 * minute)
            }
            let path = "/api/v1/friends/bob/path?from=2024-05-02&to=2024-05-02&zoom=16"
            #expect(try await Self.call(client, path, .get, Self.ada).status == .forbidden)
            #expect(try await Self.call(client, "/api/v1/friends/nobody/path", .get, Self.ada).status == .notFound)
            let long = try await Self.call(client, "/api/v1/friends/\(String(repeating: "x", count: 300))/accept", .post, Self.ada)
            #expect(long.status == .notFound && (long.json as? [String: Any])?["error"] as? String == "no user '\(String(repeating: "x", count: 40))…' on this server")
            let granted = try await Self.call(client, "/api/v1/friends/ada/history", .put, Self.bob, body: #"{"shared":true}"#)
            #expect((granted.json as? [String: Any])?["sharesMyHistory"] as? Bool == true)
            #expect(try await Self.call(client, "/api/v1/friends/ada/history", .put, Self.bob, body: #"{"shared":"yes"}"#).status == .badRequest)
            func rawCount() async throws -> Int? {
                let answer = try await Self.call(client, path, .get, Self.ada)
                #expect(answer.status == .ok)
                return ((answer.json as? [String: Any])?["properties"] as? [String: Any])?["rawPointCount"] as? Int
            }
            #expect(try await rawCount() == 10)
            // Bob hides the end of his walk (11.67 to 11.69, 742 m a step): the path leaves those fixes out, and his latest fix (inside) is not shown.
            let zone = #"{"name":"Home","rule":"hide","circle":{"latitude":48.2,"longitude":11.69,"radiusMeters":1600}}"#
            #expect(try await Self.call(client, "/api/v1/zones", .post, Self.bob, body: zone).status == .created)
            #expect(try await rawCount() == 7)
            let positions = try #require(try await Self.call(client, "/api/v1/friends/positions", .get, Self.ada).json as? [[String: Any]])
            #expect((positions.first?["devices"] as? [Any])?.isEmpty == true)
            var answer = try await Self.ownTracksAnswer(client, token: adaPhone, user: "ada", latitude: 52.5, longitude: 13.4, time: 1_714_644_100)
            #expect(!answer.contains { $0.topic.hasPrefix("owntracks/bob/") })
            // Out of the zone again: shown at once.
            _ = try await Self.ownTracksAnswer(client, token: bobPhone, user: "bob", latitude: 48.25, longitude: 11.7, time: 1_714_645_000)
            answer = try await Self.ownTracksAnswer(client, token: adaPhone, user: "ada", latitude: 52.5, longitude: 13.4, time: 1_714_644_200)
            #expect(answer.first { $0.topic == "owntracks/bob/iphone" && $0.type == "location" }?.latitude == 48.25)
            // Ada ends it: bob's phone is gone from her next answer and positions, his path a 404.
            #expect(try await Self.call(client, "/api/v1/friends/bob", .delete, Self.ada).status == .noContent)
            answer = try await Self.ownTracksAnswer(client, token: adaPhone, user: "ada", latitude: 52.5, longitude: 13.4, time: 1_714_644_300)
            #expect(!answer.contains { $0.topic.hasPrefix("owntracks/bob/") })
            #expect((try await Self.call(client, "/api/v1/friends/positions", .get, Self.ada).json as? [Any])?.isEmpty == true)
            #expect(try await Self.call(client, path, .get, Self.ada).status == .notFound)
            #expect(try await Self.call(client, "/api/v1/friends/bob", .delete, Self.ada).status == .notFound)
            // An invitation declined leaves nothing.
            _ = try await Self.call(client, "/api/v1/friends", .post, Self.bob, body: #"{"name":"ada"}"#)
            #expect(try await Self.call(client, "/api/v1/friends/bob/decline", .post, Self.ada).status == .noContent)
            #expect((try await Self.call(client, "/api/v1/friends", .get, Self.bob).json as? [Any])?.isEmpty == true)
        }
    }
}
