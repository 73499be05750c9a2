import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TravelogAccounts
import TravelogPostgres
import TravelogServer
import TravelogStore

/// Friends with two server processes on one PostgreSQL database (two stores on one schema): a
/// friendship accepted, or ended, through one applies to the other's very next request.
@Suite("Friends on PostgreSQL, two servers")
struct PostgresFriendTests {
    @Test("accepted through one server, the friend's phone shows on the other; ended through the second, the first's next answer leaves it out",
          .enabled(if: PostgresTwoServers.available, PostgresTwoServers.missing))
    func twoServers() async throws {
        let servers = try await PostgresTwoServers()
        let first = servers.first, second = servers.second
        let ada = try await first.accounts.addUser(named: "ada", password: ServerFixture.adaPassword)
        let bob = try await first.accounts.addUser(named: "bob", password: ServerFixture.bobPassword)
        let (_, bobPhone) = try await first.accounts.addDevice(named: "iphone", userID: bob.id, app: .owntracks, scope: .write)
        let (_, adaPhone) = try await first.accounts.addDevice(named: "android", userID: ada.id, app: .owntracks, scope: .write)
        func bobsTopics(_ app: TravelogServerApp) async throws -> [String] {
            try await app.makeApplication().test(.router) { client in
                try await FriendRouteTests.ownTracksAnswer(client, token: adaPhone, user: "ada", latitude: 52.5, longitude: 13.4,
                                                           time: 1_714_644_100).map(\.topic).filter { $0.hasPrefix("owntracks/bob/") }
            }
        }
        try await first.makeApplication().test(.router) { client in
            _ = try await FriendRouteTests.ownTracksAnswer(client, token: bobPhone, user: "bob", latitude: 48.2, longitude: 11.6, time: 1_714_644_000)
            #expect(try await FriendRouteTests.call(client, "/api/v1/friends", .post, FriendRouteTests.ada, body: #"{"name":"bob"}"#).status == .created)
            #expect(try await FriendRouteTests.call(client, "/api/v1/friends/ada/accept", .post, FriendRouteTests.bob).status == .ok)
        }
        let shown = try await bobsTopics(second)
        #expect(shown == ["owntracks/bob/iphone", "owntracks/bob/iphone"])
        try await second.makeApplication().test(.router) { client in
            let ended = try await FriendRouteTests.call(client, "/api/v1/friends/ada", .delete, FriendRouteTests.bob)
            #expect(ended.status == .noContent)
        }
        let after = try await bobsTopics(first)
        #expect(after.isEmpty)
        try await first.makeApplication().test(.router) { client in
            let positions = try await FriendRouteTests.call(client, "/api/v1/friends/positions", .get, FriendRouteTests.ada)
            #expect((positions.json as? [Any])?.isEmpty == true)
        }
    }
}
