import Foundation
import Testing
import TravelogPostgres
import TravelogServer

/// Two server processes on one PostgreSQL database, as an operator runs them behind a balancer:
/// two stores, each with its own connections, on one fresh schema of the server `make test` starts.
struct PostgresTwoServers {
    /// Why a test that needs them did not run, for `.enabled(if:)`.
    static let missing: Comment = "TRAVELOG_TEST_POSTGRES_URL is not set: two servers on one PostgreSQL database were not tested"
    static var available: Bool { PostgresLiveFeedTests.server != nil }

    let first: TravelogServerApp
    let second: TravelogServerApp

    init() async throws {
        let url = try PostgresConnectionURL(try #require(PostgresLiveFeedTests.server))
        let schema = "travelog_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        func server() async throws -> TravelogServerApp {
            TravelogServerApp(store: try await PostgresLocationStore(url: url, schema: schema, maximumConnections: 4),
                              configuration: ServerConfiguration(port: 0, bcryptCost: 4), gazetteer: nil)
        }
        first = try await server()
        second = try await server()
    }
}
