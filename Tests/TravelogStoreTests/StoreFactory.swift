import Testing
import Foundation
import TravelogSQLite
import TravelogStore
import TravelogTestSupport

/// Every backend the conformance suite runs against.
struct StoreFactory: CustomTestStringConvertible, Sendable {
    let name: String
    let make: @Sendable () throws -> any TravelogStore

    var testDescription: String { name }

    static let all: [StoreFactory] = [
        StoreFactory(name: "in-memory") { InMemoryLocationStore() },
        StoreFactory(name: "SQLite") { try SQLiteLocationStore(path: temporaryDatabasePath()) },
    ]

    /// The backends of the `LocationStore` and `AccountStore` suites: these, and PostgreSQL when
    /// `TRAVELOG_TEST_POSTGRES_URL` names a server (its store keeps nothing else yet, so the
    /// journal, notification, quarantine and region suites run on `all` only).
    static let locationAndAccount: [LocationAccountStoreFactory] =
        all.map { factory in LocationAccountStoreFactory(name: factory.name) { try factory.make() } }
        + PostgresTestServer.factories

    static func temporaryDatabasePath() -> String {
        TestDirectory.url
            .appendingPathComponent("store-\(UUID().uuidString)")
            .appendingPathComponent("travelog.sqlite").path
    }
}
