import Foundation
import TravelogPostgres
import TravelogStore

/// The PostgreSQL server the store suites run on: `$TRAVELOG_TEST_POSTGRES_URL`, which `make test`
/// sets to a throwaway cluster (`scripts/with-postgres.sh`). Each store gets a new schema of its
/// own (`travelog_test_…`), so tests running at once never see each other's rows.
enum PostgresTestServer {
    static let variable = "TRAVELOG_TEST_POSTGRES_URL"

    /// The server's address; `nil` (said once, on the standard error) when the variable is not set.
    static let url: PostgresConnectionURL? = {
        guard let text = ProcessInfo.processInfo.environment[variable], !text.isEmpty else {
            FileHandle.standardError.write(Data("""
                NOTE: \(variable) is not set: the store suites ran on the in-memory and SQLite stores only, \
                PostgreSQL was NOT tested (make test starts a throwaway server; or set \(variable)=postgres://…).\n
                """.utf8))
            return nil
        }
        do {
            return try PostgresConnectionURL(text)
        } catch {
            FileHandle.standardError.write(Data("NOTE: \(variable) is not usable (\(error)): PostgreSQL was NOT tested.\n".utf8))
            return nil
        }
    }()

    /// The PostgreSQL backend for the suites, or none without a server.
    static var factories: [StoreFactory] {
        guard url != nil else { return [] }
        return [StoreFactory(name: "PostgreSQL") { try await makeStore() }]
    }

    /// A store on a new, empty schema of the test server (or on `schema`).
    static func makeStore(schema: String = newSchemaName()) async throws -> PostgresLocationStore {
        guard let url else { throw StoreError.cannotOpen(path: variable, reason: "not set") }
        return try await PostgresLocationStore(url: url, schema: schema, maximumConnections: 4)
    }

    /// A schema name no test has used.
    static func newSchemaName() -> String {
        "travelog_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }
}
