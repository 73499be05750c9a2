import Foundation
import PostgresNIO
import Testing
@testable import TravelogPostgres
import TravelogStore

/// Upgrades on PostgreSQL (issue 27): a schema a newer Travelog migrated is refused and left as it
/// was; an older one's missing migrations run once. Every command and `serve` open the store this way
/// (`StoreOptions.openStore`). On the server `make test` starts, a schema per test.
@Suite("PostgreSQL upgrades")
struct PostgresUpgradeTests {
    /// The migrations recorded in a store's schema.
    static func recorded(_ store: PostgresLocationStore) async throws -> [String] {
        try await store.client.query("SELECT identifier FROM travelog_migrations ORDER BY identifier", logger: store.logger).collect()
            .map { try $0.decode(String.self) }
    }

    @Test("a schema a newer Travelog migrated is refused, and left as it was",
          .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: PostgresLocationStoreTests.skipped)))
    func newerRefused() async throws {
        let url = try #require(PostgresTestServer.url)
        let schema = PostgresTestServer.newSchemaName()
        let store = try await PostgresLocationStore(url: url, schema: schema, maximumConnections: 2)
        #expect(store.upgrade.isEmpty)
        try await store.client.query("INSERT INTO travelog_migrations (identifier) VALUES ('999_from_the_future')", logger: store.logger)
        let before = try await Self.recorded(store)
        await #expect {
            _ = try await PostgresLocationStore(url: url, schema: schema, maximumConnections: 2)
        } throws: { error in
            String(describing: error).contains("newer Travelog") && String(describing: error).contains("999_from_the_future")
        }
        #expect(try await Self.recorded(store) == before)
        store.close()
    }

    @Test("an older schema's missing migration runs once when opened, and is reported",
          .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: PostgresLocationStoreTests.skipped)))
    func olderUpgraded() async throws {
        let url = try #require(PostgresTestServer.url)
        let schema = PostgresTestServer.newSchemaName()
        let store = try await PostgresLocationStore(url: url, schema: schema, maximumConnections: 2)
        // Users' flags came in 008, after other migrations: a schema of the version before it.
        let last = "008_user_administrator_disabled"
        #expect(PostgresMigrations.all.map(\.identifier).contains(last))
        _ = try await store.addUser(named: "zoe")
        _ = try await store.addUser(named: "ada")
        try await store.client.query("ALTER TABLE users DROP COLUMN administrator, DROP COLUMN disabled", logger: store.logger)
        try await store.client.query("DELETE FROM travelog_migrations WHERE identifier = \(last)", logger: store.logger)
        store.close()
        let upgraded = try await PostgresLocationStore(url: url, schema: schema, maximumConnections: 2)
        #expect(upgraded.upgrade == [last])
        // The oldest user of the existing database is its administrator.
        #expect(try await upgraded.users().map { "\($0.name) \($0.isAdministrator)" } == ["ada false", "zoe true"])
        #expect(try await Self.recorded(upgraded) == PostgresMigrations.all.map(\.identifier).sorted())
        upgraded.close()
        let again = try await PostgresLocationStore(url: url, schema: schema, maximumConnections: 2)
        #expect(again.upgrade.isEmpty)
        again.close()
    }
}
