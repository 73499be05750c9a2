import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TravelogAccounts
import TravelogServer
import TravelogStore

/// The live stream (`GET /api/v1/live`) is the owner's alone: a friend's stream carries only the
/// friend's own fixes, and a share link's token opens no stream, so there is no open stream a zone,
/// a revoked link or an ended friendship would have to close or filter.
@Suite("The live stream is the owner's only")
struct LiveStreamOwnerOnlyTests {
    @Test("a friend who may see ada's position and history gets none of her fixes on his stream; a live link's token opens no stream")
    func noNonOwnerStream() async throws {
        let fixture = try await ServerFixture.make()
        let (_, adaPhone) = try await fixture.app.accounts.addDevice(named: "android", userID: fixture.ada.id, app: .owntracks, scope: .write)
        try await fixture.test(.live) { client in
            let friends = FriendRouteTests.self
            #expect(try await friends.call(client, "/api/v1/friends", .post, friends.ada, body: #"{"name":"bob"}"#).status == .created)
            #expect(try await friends.call(client, "/api/v1/friends/ada/accept", .post, friends.bob).status == .ok)
            #expect(try await friends.call(client, "/api/v1/friends/bob/history", .put, friends.ada, body: #"{"shared":true}"#).status == .ok)
            let live = try #require(try await ShareRouteTests.create(client, #"{"kind":"live","forSeconds":3600}"#)["token"] as? String)

            let port = try #require(client.port)
            let bob = try LiveAndMetricsTests.EventStreamReader(port: port, path: "/api/v1/live",
                                                                authorization: Auth.basic("bob", ServerFixture.bobPassword)[.authorization]!)
            let ada = try LiveAndMetricsTests.EventStreamReader(port: port, path: "/api/v1/live",
                                                                authorization: Auth.basic("ada", ServerFixture.adaPassword)[.authorization]!)
            #expect(await bob.wait(for: ": connected", seconds: 60))
            #expect(await ada.wait(for: ": connected", seconds: 60))
            let visitor = try LiveAndMetricsTests.EventStreamReader(port: port, path: "/api/v1/live", authorization: "Bearer \(live)")
            #expect(await visitor.wait(for: "401", seconds: 30))
            #expect(!visitor.received.contains(": connected"))

            _ = try await friends.ownTracksAnswer(client, token: adaPhone, user: "ada", latitude: 48.2, longitude: 11.645,
                                                  time: Int(Date().timeIntervalSince1970))
            #expect(await ada.wait(for: "11.6450000,48.2000000", seconds: 30), "the owner's stream carries it")
            #expect(try await friends.call(client, "/api/v1/friends/positions", .get, friends.bob).json.map { "\($0)" }?.contains("android") == true,
                    "bob may see ada's position by asking")
            #expect(await !bob.wait(for: "event: locations", seconds: 1), "but not on his stream")
            for uri in ["/api/v1/live?token=\(live)", "/api/v1/s/\(live)/live", "/api/v1/s/\(live)/events"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect([.unauthorized, .notFound].contains(response.status), "\(uri): \(response.status)")
                    #expect(!response.body.text.contains("48.2"))
                }
            }
        }
    }
}
