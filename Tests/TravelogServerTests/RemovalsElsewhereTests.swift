import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import TravelogAccounts
import TravelogCore
import TravelogPostgres
import TravelogSQLite
import TravelogServer
import TravelogStore
import TravelogTestSupport

/// Fixes deleted by another process on the same database (what `travelog zones add --drop` and
/// `travelog retention run` do while a server runs) leave the running server's map: its tile index
/// notices the store's count of deletions within a second, and the path and statistics read the
/// store anyway.
@Suite("Deletions by another process reach a running server")
struct RemovalsElsewhereTests {
    /// A database two stores open, as two processes would: (the server's, the other process's).
    struct Database: CustomTestStringConvertible, Sendable {
        let name: String
        let open: @Sendable () async throws -> (any TravelogStore, any TravelogStore)
        var testDescription: String { name }
    }

    static let databases: [Database] = [
        Database(name: "SQLite") {
            let path = TestDirectory.url.appendingPathComponent("removals-\(UUID().uuidString)/travelog.sqlite").path
            return (try SQLiteLocationStore(path: path), try SQLiteLocationStore(path: path))
        },
    ] + (PostgresTwoServers.available ? [
        Database(name: "PostgreSQL") {
            let url = try PostgresConnectionURL(try #require(PostgresLiveFeedTests.server))
            let schema = "travelog_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            return (try await PostgresLocationStore(url: url, schema: schema, maximumConnections: 4),
                    try await PostgresLocationStore(url: url, schema: schema, maximumConnections: 4))
        },
    ] : [])

    @Test("the fixes another process deletes inside a zone are gone from the server's next bounds, tiles, path and statistics", arguments: databases)
    func deletedElsewhere(database: Database) async throws {
        let (served, other) = try await database.open()
        let app = TravelogServerApp(store: served, configuration: ServerConfiguration(port: 0, bcryptCost: 4), gazetteer: nil)
        let ada = try await app.accounts.addUser(named: "ada", password: ServerFixture.adaPassword)
        let day = "from=2024-05-02&to=2024-05-02"
        try await app.makeApplication().test(.router) { client in
            try await ShareRouteTests.upload(client, ZoneRouteTests.walk)
            func bounds() async throws -> Int? {
                try await client.execute(uri: "/api/v1/tiles/bounds?\(day)", method: .get, headers: ShareRouteTests.ada) {
                    ($0.body.json as? [String: Any])?["locationCount"] as? Int
                }
            }
            // The tile holding the walk (zoom 12), and its ETag.
            let tile = Tile(containing: try Coordinate(latitude: 48.2, longitude: 11.645), zoom: 12)
            let tileURI = "/api/v1/tiles/path/12/\(tile.x)/\(tile.y).png?\(day)"
            let etag = try await client.execute(uri: tileURI, method: .get, headers: ShareRouteTests.ada) { response in
                #expect(response.status == .ok)
                return response.headers[.eTag]
            }
            #expect(try await bounds() == 10)

            // The other process: what `travelog zones add Home --circle 48.2,11.645,1200 --drop --yes` deletes.
            let zone = try ZoneDefinition(name: "Home", shape: .circle(Circle(center: Coordinate(latitude: 48.2, longitude: 11.645),
                                                                               radiusMeters: 1200)), rule: .drop)
            let deleted = try await PrivacyZones(store: other).deleteStoredFixes(inside: zone, userID: ada.id)
            #expect(deleted.count == 4)

            // The path and the statistics read the store: at once.
            let raw = try await client.execute(uri: "/api/v1/path?\(day)&zoom=16", method: .get, headers: ShareRouteTests.ada) {
                (($0.body.json as? [String: Any])?["properties"] as? [String: Any])?["rawPointCount"] as? Int
            }
            #expect(raw == 6)
            let stats = try await client.execute(uri: "/api/v1/stats?\(day)", method: .get, headers: ShareRouteTests.ada) {
                (($0.body.json as? [String: Any])?["total"] as? [String: Any])?["locations"] as? Int
            }
            #expect(stats == 6)
            // The tile index within a second or so (a bound for a loaded machine, not a speed check).
            var count = try await bounds()
            let deadline = Date().addingTimeInterval(30)
            while count != 6, Date() < deadline {
                try await Task.sleep(for: .milliseconds(100))
                count = try await bounds()
            }
            #expect(count == 6)
            try await client.execute(uri: tileURI, method: .get, headers: ShareRouteTests.ada.adding("If-None-Match", try #require(etag))) {
                #expect($0.status == .ok, "the tile is drawn anew, not 304")
                #expect($0.headers[.eTag] != etag)
            }
        }
    }
}
