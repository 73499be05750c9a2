import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogAccounts
import TravelogPostgres
@testable import TravelogServer
import TravelogStore

/// Several server processes on one PostgreSQL database: a page connected to one sees what another
/// stored (LISTEN/NOTIFY), on the server that `make test` starts.
@Suite("Live stream across servers on PostgreSQL")
struct PostgresLiveFeedTests {
    static let server = ProcessInfo.processInfo.environment["TRAVELOG_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

    @Test("a location stored through server B reaches a page connected to server A",
          .enabled(if: server != nil, "TRAVELOG_TEST_POSTGRES_URL is not set: the live stream across servers was not tested"))
    func acrossServers() async throws {
        let url = try PostgresConnectionURL(try #require(Self.server))
        let schema = "travelog_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let configuration = ServerConfiguration(port: 0, bcryptCost: 4)
        let first = TravelogServerApp(store: try await PostgresLocationStore(url: url, schema: schema, maximumConnections: 4),
                                      configuration: configuration)
        let second = TravelogServerApp(store: try await PostgresLocationStore(url: url, schema: schema, maximumConnections: 4),
                                       configuration: configuration)
        #expect(first.liveRelay != nil)
        let ada = try await first.accounts.addUser(named: "ada", password: ServerFixture.adaPassword)
        let (_, token) = try await first.accounts.addDevice(named: "phone", userID: ada.id, app: nil, scope: .write)
        try await first.makeApplication().test(.live) { client in
            let page = try LiveAndMetricsTests.EventStreamReader(port: try #require(client.port), path: "/api/v1/live",
                                             authorization: Auth.basic("ada", ServerFixture.adaPassword)[.authorization]!)
            #expect(await page.wait(for: ": connected", seconds: 60))
            try await second.makeApplication().test(.router) { other in
                // Until the first server listens (it starts with the page's server), a batch may go unheard.
                var heard = false
                for attempt in 0..<20 where !heard {
                    let latitude = 47.0 + Double(attempt) / 100
                    try await other.execute(uri: "/api/v1/overland", method: .post, headers: Auth.bearer(token),
                                            body: ByteBuffer(overlandBatch(count: 3, latitude: latitude))) { #expect($0.status == .ok) }
                    heard = await page.wait(for: String(format: ",%.7f,40]", latitude), seconds: 3)
                }
                #expect(heard)
                #expect(page.received.contains("\"device\":\"phone\""))
            }
        }
    }

    @Test("fixes stored through server B join server A's tile index: its bounds, tiles and share links count them; an older one makes A build the index anew",
          .enabled(if: server != nil, "TRAVELOG_TEST_POSTGRES_URL is not set: the tile index across servers was not tested"))
    func tileIndexAcrossServers() async throws {
        let servers = try await PostgresTwoServers()
        let ada = try await servers.first.accounts.addUser(named: "ada", password: ServerFixture.adaPassword)
        let (_, token) = try await servers.first.accounts.addDevice(named: "phone", userID: ada.id, app: nil, scope: .write)
        let person = Auth.basic("ada", ServerFixture.adaPassword)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        try await servers.first.makeApplication().test(.live) { client in
            let page = try LiveAndMetricsTests.EventStreamReader(port: try #require(client.port), path: "/api/v1/live",
                                                                 authorization: person[.authorization]!)
            #expect(await page.wait(for: ": connected", seconds: 60))
            let shareToken = try await client.execute(uri: "/api/v1/shares", method: .post, headers: ShareRouteTests.json(person),
                                                      body: ByteBuffer(#"{"kind":"range","from":"2023-11-01","to":"2023-11-30"}"#)) { response in
                #expect(response.status == .created)
                return (response.body.json as? [String: Any])?["token"] as? String ?? ""
            }
            let owner = "/api/v1/tiles/bounds?from=2023-11-01&to=2023-11-30", shared = "/api/v1/s/\(shareToken)/bounds"
            try await servers.second.makeApplication().test(.router) { other in
                // Until the first server listens (it starts with the page's server), a batch may go unheard.
                var stored = 0, heard = false
                for attempt in 0..<20 where !heard {
                    try await other.execute(uri: "/api/v1/overland", method: .post, headers: Auth.bearer(token),
                                            body: ByteBuffer(overlandBatch(count: 3, start: start.addingTimeInterval(Double(attempt) * 10),
                                                                           latitude: 47.0 + Double(attempt) / 100))) { #expect($0.status == .ok) }
                    stored += 3
                    heard = await page.wait(for: String(format: ",%.7f,40]", 47.0 + Double(attempt) / 100), seconds: 3)
                }
                #expect(heard)
                // A's index, built now from the store, holds all of them; B's next batches join it as they land.
                #expect(try await Self.count(client, owner, headers: person) == stored)
                for batch in 0..<3 {
                    try await other.execute(uri: "/api/v1/overland", method: .post, headers: Auth.bearer(token),
                                            body: ByteBuffer(overlandBatch(count: 3, start: start.addingTimeInterval(3600 + Double(batch) * 10),
                                                                           latitude: 48.0))) { #expect($0.status == .ok) }
                    stored += 3
                    #expect(try await Self.settled(client, owner, headers: person, at: stored) == stored, "batch \(batch)")
                }
                #expect(try await Self.settled(client, shared, at: stored) == stored)
                // A fix before the device's last one (a late retry): the index is built anew, with it.
                try await other.execute(uri: "/api/v1/overland", method: .post, headers: Auth.bearer(token),
                                        body: ByteBuffer(overlandBatch(count: 2, start: start.addingTimeInterval(1800), latitude: 46.0))) {
                    #expect($0.status == .ok)
                }
                stored += 2
                #expect(try await Self.settled(client, owner, headers: person, at: stored) == stored)
                #expect(try await Self.settled(client, shared, at: stored) == stored)
            }
        }
    }

    static func count(_ client: some TestClientProtocol, _ uri: String, headers: HTTPFields = [:]) async throws -> Int {
        try await client.execute(uri: uri, method: .get, headers: headers) { response in
            #expect(response.status == .ok, "\(uri): \(response.body.text)")
            return (response.body.json as? [String: Any])?["locationCount"] as? Int ?? -1
        }
    }

    /// The count of a bounds answer once it is `expected`, or what it is after 60 s (a bound, not a wait: every
    /// test runs at once and shares two cores).
    static func settled(_ client: some TestClientProtocol, _ uri: String, headers: HTTPFields = [:], at expected: Int) async throws -> Int {
        var found = try await count(client, uri, headers: headers)
        for _ in 0..<1_200 where found != expected {
            try await Task.sleep(for: .milliseconds(50))
            found = try await count(client, uri, headers: headers)
        }
        return found
    }
}
