import Testing
import Foundation
import TravelogSQLite
import TravelogStore
import TravelogTestSupport

/// Every backend the conformance suite runs against.
struct StoreFactory: CustomTestStringConvertible, Sendable {
    let name: String
    let make: @Sendable () async throws -> any TravelogStore

    var testDescription: String { name }

    /// The in-memory and SQLite stores, and PostgreSQL when `TRAVELOG_TEST_POSTGRES_URL` names a
    /// server (a new schema per store; without it the suites say once that PostgreSQL was not tested).
    static let all: [StoreFactory] = [
        StoreFactory(name: "in-memory") { InMemoryLocationStore() },
        StoreFactory(name: "SQLite") { try SQLiteLocationStore(path: temporaryDatabasePath()) },
    ] + PostgresTestServer.factories

    static func temporaryDatabasePath() -> String {
        TestDirectory.url
            .appendingPathComponent("store-\(UUID().uuidString)")
            .appendingPathComponent("travelog.sqlite").path
    }
}
