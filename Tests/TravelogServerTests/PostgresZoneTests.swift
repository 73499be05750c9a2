import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TravelogAccounts
import TravelogPostgres
import TravelogServer
import TravelogStore

/// Privacy zones with two server processes on one PostgreSQL database (two stores on one schema):
/// a zone one of them adds applies to the other's very next request.
@Suite("Privacy zones on PostgreSQL, two servers")
struct PostgresZoneTests {
    @Test("a hide zone added through one server cuts the link's path read through the other; a drop zone added there drops the first's next write",
          .enabled(if: PostgresTwoServers.available, PostgresTwoServers.missing))
    func twoServers() async throws {
        let servers = try await PostgresTwoServers()
        let first = servers.first, second = servers.second
        let ada = try await first.accounts.addUser(named: "ada", password: ServerFixture.adaPassword)
        let token: String = try await first.makeApplication().test(.router) { client in
            try await ShareRouteTests.upload(client, ZoneRouteTests.walk)
            let made = try await ShareRouteTests.create(client, #"{"kind":"day","day":"2024-05-02"}"#)
            return try #require(made["token"] as? String)
        }
        try await second.makeApplication().test(.router) { client in
            let whole = try await ZoneRouteTests.sharedPath(client, token)
            #expect(whole.raw == 10)
        }
        try await first.makeApplication().test(.router) { client in _ = try await ZoneRouteTests.addZone(client) }
        try await second.makeApplication().test(.router) { client in
            let cut = try await ZoneRouteTests.sharedPath(client, token)
            #expect(cut.raw == 6 && cut.segments.count == 2)
            _ = try await ZoneRouteTests.addZone(client, #"{"name":"Far","rule":"drop","circle":{"latitude":48.2,"longitude":11.8,"radiusMeters":500}}"#)
        }
        try await first.makeApplication().test(.router) { client in
            try await ShareRouteTests.upload(client, "time,latitude,longitude\n2024-05-03T10:00:00Z,48.2,11.8\n2024-05-03T10:01:00Z,48.2,11.9\n")
        }
        #expect(try await first.store.locations(LocationQuery(userID: ada.id)).count == 11)
        #expect(try await first.store.zoneDrops(userID: ada.id) == [ZoneDropCount(day: "2024-05-03", count: 1)])
    }
}
