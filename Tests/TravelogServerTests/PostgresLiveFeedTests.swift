import Foundation
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
}
