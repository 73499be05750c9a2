import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TravelogAccounts
import TravelogServer
import TravelogStore

/// What a person takes back (a zone added, a link revoked, a friend removed) through one server
/// process is in force on another's very next request, on every route a non-owner reads positions
/// through: the link's page, path, journal and live position; the friend's positions, path and
/// OwnTracks answer.
@Suite("Withdrawals on PostgreSQL, two servers")
struct PostgresWithdrawalTests {
    typealias Friends = FriendRouteTests

    @Test("a zone added, a link revoked and a friend removed through server A hold on server B's next request",
          .enabled(if: PostgresTwoServers.available, PostgresTwoServers.missing))
    func withdrawnOnTheOther() async throws {
        let servers = try await PostgresTwoServers()
        let a = servers.first, b = servers.second
        let ada = try await a.accounts.addUser(named: "ada", password: ServerFixture.adaPassword)
        let bob = try await a.accounts.addUser(named: "bob", password: ServerFixture.bobPassword)
        let (_, adaPhone) = try await a.accounts.addDevice(named: "android", userID: ada.id, app: .owntracks, scope: .write)
        let (_, bobPhone) = try await a.accounts.addDevice(named: "iphone", userID: bob.id, app: .owntracks, scope: .write)
        let now = Int(Date().timeIntervalSince1970)
        let (dayToken, dayID, liveToken): (String, Int, String) = try await a.makeApplication().test(.router) { client in
            // Ada's walk of 2 May 2024 (48.2, 11.60 to 11.69), then, after a live link is made, a fix now at 11.645.
            for minute in 0..<10 {
                _ = try await Friends.ownTracksAnswer(client, token: adaPhone, user: "ada", latitude: 48.2,
                                                      longitude: 11.6 + Double(minute) / 100, time: 1_714_644_000 + 60 * minute)
            }
            let day = try await ShareRouteTests.create(client, #"{"kind":"day","day":"2024-05-02"}"#)
            let live = try await ShareRouteTests.create(client, #"{"kind":"live","forSeconds":3600}"#)
            // OwnTracks sends whole seconds: the fix is timed in the next second, so after the link's start.
            let next = Int(Date().timeIntervalSince1970) + 1
            while Date().timeIntervalSince1970 < Double(next) { try await Task.sleep(for: .milliseconds(50)) }
            _ = try await Friends.ownTracksAnswer(client, token: adaPhone, user: "ada", latitude: 48.2, longitude: 11.645, time: next)
            #expect(try await Friends.call(client, "/api/v1/friends", .post, Friends.ada, body: #"{"name":"bob"}"#).status == .created)
            #expect(try await Friends.call(client, "/api/v1/friends/ada/accept", .post, Friends.bob).status == .ok)
            #expect(try await Friends.call(client, "/api/v1/friends/bob/history", .put, Friends.ada, body: #"{"shared":true}"#).status == .ok)
            return (try #require(day["token"] as? String), try #require(day["id"] as? Int), try #require(live["token"] as? String))
        }
        let friendPath = "/api/v1/friends/ada/path?from=2024-05-02&to=2024-05-02&zoom=16"
        /// What bob and a link's visitor read through server B.
        struct Seen {
            var sharedRaw: Int?, sharedStatus: HTTPResponse.Status, latestFeatures: Int?, friendRaw: Int?, friendStatus: HTTPResponse.Status
            var adaDevices: Int?, ownTracksTopics: [String]
        }
        func seenOnB() async throws -> Seen {
            try await b.makeApplication().test(.router) { client in
                let shared = try await Friends.call(client, "/api/v1/s/\(dayToken)/path?zoom=16", .get, [:])
                let latest = try await Friends.call(client, "/api/v1/s/\(liveToken)/latest", .get, [:])
                let friend = try await Friends.call(client, friendPath, .get, Friends.bob)
                let positions = try await Friends.call(client, "/api/v1/friends/positions", .get, Friends.bob).json as? [[String: Any]]
                let answer = try await Friends.ownTracksAnswer(client, token: bobPhone, user: "bob", latitude: 52.5, longitude: 13.4, time: now)
                func raw(_ json: Any?) -> Int? { ((json as? [String: Any])?["properties"] as? [String: Any])?["rawPointCount"] as? Int }
                return Seen(sharedRaw: raw(shared.json), sharedStatus: shared.status,
                            latestFeatures: ((latest.json as? [String: Any])?["features"] as? [Any])?.count,
                            friendRaw: raw(friend.json), friendStatus: friend.status,
                            adaDevices: (positions?.first { $0["name"] as? String == "ada" }?["devices"] as? [Any])?.count,
                            ownTracksTopics: answer.map(\.topic).filter { $0.hasPrefix("owntracks/ada/") })
            }
        }
        var seen = try await seenOnB()
        #expect(seen.sharedRaw == 10 && seen.latestFeatures == 1 && seen.friendRaw == 10 && seen.adaDevices == 1)
        #expect(!seen.ownTracksTopics.isEmpty)

        // A hide zone around 11.645 (1,200 m: 11.63 to 11.66), added through A.
        try await a.makeApplication().test(.router) { client in _ = try await ZoneRouteTests.addZone(client) }
        seen = try await seenOnB()
        #expect(seen.sharedRaw == 6, "the link's path leaves the zone's fixes out")
        #expect(seen.latestFeatures == 0, "the live link withholds a position inside the zone")
        #expect(seen.friendRaw == 6, "the friend's path leaves the zone's fixes out")
        #expect(seen.adaDevices == 0, "the friend sees no device whose newest fix is inside")
        #expect(seen.ownTracksTopics.isEmpty, "the friend's phone gets no position inside")

        // The day's link revoked through A: gone on B.
        let revoked = try await a.makeApplication().test(.router) { client in
            try await Friends.call(client, "/api/v1/shares/\(dayID)", .delete, Friends.ada).status
        }
        #expect(revoked == .noContent)
        seen = try await seenOnB()
        #expect(seen.sharedStatus == .gone)
        let gone = try await b.makeApplication().test(.router) { client in
            [try await Friends.call(client, "/api/v1/s/\(dayToken)", .get, [:]).status,
             try await Friends.call(client, "/api/v1/s/\(dayToken)/journal", .get, [:]).status]
        }
        #expect(gone == [.gone, .gone])

        // Bob removed through A: on B he reads nothing of ada.
        let ended = try await a.makeApplication().test(.router) { client in
            try await Friends.call(client, "/api/v1/friends/bob", .delete, Friends.ada).status
        }
        #expect(ended == .noContent)
        seen = try await seenOnB()
        #expect(seen.friendStatus == .notFound && seen.adaDevices == nil && seen.ownTracksTopics.isEmpty)
    }
}
