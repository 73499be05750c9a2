import Foundation
import PostgresNIO
import Testing
import TravelogCore
@testable import TravelogPostgres
import TravelogStore

/// What the PostgreSQL store promises beyond the conformance suites: its addresses, migrations that
/// several processes may run at once, and a schema that can be distributed by user.
@Suite("PostgreSQL store")
struct PostgresLocationStoreTests {
    static let skipped = "TRAVELOG_TEST_POSTGRES_URL is not set: PostgreSQL was not tested (make test starts a server)"

    @Test("a postgres:// address gives its parts; the password never shows; anything else is refused")
    func addresses() throws {
        let url = try PostgresConnectionURL("postgres://ada:p%40ss@db.example:5433/travelog?sslmode=disable")
        #expect(url.host == "db.example")
        #expect(url.port == 5433)
        #expect(url.username == "ada")
        #expect(url.password == "p@ss")
        #expect(url.database == "travelog")
        #expect(url.tlsMode == "disable")
        #expect(!url.description.contains("p@ss") && !url.description.contains("p%40ss"))
        let defaults = try PostgresConnectionURL("postgresql://travelog@localhost")
        #expect(defaults.port == 5432 && defaults.database == "travelog" && defaults.tlsMode == "prefer" && defaults.schema == nil)
        let schema = try PostgresConnectionURL("postgres://travelog@localhost/db?schema=club&sslmode=require")
        #expect(schema.schema == "club")
        #expect(schema.description == "postgres://travelog@localhost:5432/db?sslmode=require&schema=club")
        #expect(!PostgresConnectionURL.isPostgresURL("/var/lib/travelog.sqlite"))
        #expect(throws: StoreError.self) { try PostgresConnectionURL("mysql://ada@host/db") }
        #expect(throws: StoreError.self) { try PostgresConnectionURL("postgres://ada@host/db?sslmode=verify-full") }
    }

    @Test("two processes starting at once migrate the database once",
          .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: skipped)))
    func concurrentMigrations() async throws {
        let url = try #require(PostgresTestServer.url)
        let schema = PostgresTestServer.newSchemaName()
        async let first = PostgresLocationStore(url: url, schema: schema, maximumConnections: 2)
        async let second = PostgresLocationStore(url: url, schema: schema, maximumConnections: 2)
        let (a, b) = try await (first, second)
        let ada = try await a.addUser(named: "ada")
        #expect(try await b.user(named: "ada") == ada)
        let applied = try await Self.strings(url, schema, "SELECT identifier FROM travelog_migrations ORDER BY identifier")
        #expect(applied == PostgresMigrations.all.map(\.identifier).sorted())
        #expect(applied.starts(with: ["001_accounts_and_locations", "002_journal_notifications_quarantine", "003_regions",
                                      "004_locations_without_device_key", "005_locations_geography",
                                      "006_locations_position_planar_index", "007_journal_runners",
                                      "008_user_administrator_disabled"]))
        a.close()
        b.close()
    }

    @Test("every table but users carries user_id, and every partition of locations does too",
          .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: skipped)))
    func everyTableHasUserID() async throws {
        let url = try #require(PostgresTestServer.url)
        let schema = PostgresTestServer.newSchemaName()
        let store = try await PostgresTestServer.makeStore(schema: schema)
        let tables = try await Self.strings(url, schema, """
            SELECT c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') ORDER BY 1
            """)
        #expect(tables.contains("locations") && tables.contains("locations_default") && tables.contains("devices"))
        let withoutUser = try await Self.strings(url, schema, """
            SELECT c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
                AND c.relname NOT IN ('users', 'travelog_migrations')
                AND NOT EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'user_id')
                -- An extension's own tables (PostGIS's spatial_ref_sys, when migration 005 created the extension
                -- in this schema because it was the first in the cluster to need it) are not Travelog's.
                AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
            ORDER BY 1
            """)
        #expect(withoutUser == [])
        store.close()
    }

    @Test("fixes of this month go to a monthly partition made ahead with the next three, older ones to the default",
          .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: skipped)))
    func monthlyPartitions() async throws {
        let url = try #require(PostgresTestServer.url)
        let schema = PostgresTestServer.newSchemaName()
        let store = try await PostgresTestServer.makeStore(schema: schema)
        let ada = try await store.addUser(named: "ada")
        let phone = try await store.addDevice(named: "phone", userID: ada.id)
        let now = Date()
        let recent = Location(coordinate: Coordinate(validLatitude: 52.5, longitude: 13.4)!, horizontalAccuracyMeters: 8,
                              timestamp: now.addingTimeInterval(-60))
        let old = Location(coordinate: Coordinate(validLatitude: 52.5, longitude: 13.4)!, horizontalAccuracyMeters: 8,
                           timestamp: Date(timeIntervalSince1970: 1_600_000_000))
        _ = try await store.insert([StoredLocation(deviceID: phone.id, location: recent, source: .api),
                                    StoredLocation(deviceID: phone.id, location: old, source: .api)])
        let months = (0...PostgresPartitions.monthsAhead).map { PostgresPartitions.month(containing: recent.timestamp, offset: $0).name }
        let partitions = try await Self.strings(url, schema, """
            SELECT c.relname::text FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = 'locations'::regclass ORDER BY 1
            """)
        #expect(partitions == ["locations_default"] + months)
        let homes = try await Self.strings(url, schema, "SELECT tableoid::regclass::text FROM locations ORDER BY timestamp_ms")
        #expect(homes == ["locations_default", months[0]])
        #expect(try await store.locations(LocationQuery(userID: ada.id)).count == 2)
        store.close()
    }

    @Test("two processes working on one device take turns; on another device they need not wait",
          .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: skipped)))
    func deviceWorkTakesTurns() async throws {
        let schema = PostgresTestServer.newSchemaName()
        let first = try await PostgresTestServer.makeStore(schema: schema)
        let second = try await PostgresTestServer.makeStore(schema: schema)
        let overlap = Overlap()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, store) in [first, second, first, second, first, second].enumerated() {
                group.addTask {
                    try await store.exclusively(deviceID: DeviceID(rawValue: 7)) {
                        overlap.enter()
                        try await Task.sleep(for: .milliseconds(30 + index))
                        overlap.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(overlap.maximum == 1)
        // Another device's work runs while the first device's is held.
        let other = try await first.exclusively(deviceID: DeviceID(rawValue: 7)) {
            try await second.exclusively(deviceID: DeviceID(rawValue: 8)) { 8 }
        }
        #expect(other == 8)
        first.close()
        second.close()
    }

    /// How many bodies ran at once, at most.
    final class Overlap: @unchecked Sendable {
        private let lock = NSLock()
        private var inside = 0
        private(set) var maximum = 0

        func enter() { lock.withLock { inside += 1; maximum = max(maximum, inside) } }
        func leave() { lock.withLock { inside -= 1 } }
    }

    @Test("two server processes sending from one outbox never take the same delivery",
          .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: skipped)))
    func twoSenders() async throws {
        let schema = PostgresTestServer.newSchemaName()
        let first = try await PostgresTestServer.makeStore(schema: schema)
        let second = try await PostgresTestServer.makeStore(schema: schema)
        let ada = try await first.addUser(named: "ada")
        _ = try await first.addChannel(userID: ada.id, kind: .ntfy(url: URL(string: "https://ntfy.example/a")!, token: nil))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<60 {
            let message = NotificationMessage(event: "arrival", key: "visit-arrival:\(index)", title: "Arrived", message: "Home",
                                              occurredAt: now)
            _ = try await first.enqueue(message, userID: ada.id, at: now)
        }
        // Both claim at once, again and again, until nothing is due.
        func drain(_ store: PostgresLocationStore) async throws -> [DeliveryID] {
            var taken: [DeliveryID] = []
            while true {
                let claimed = try await store.claimDueDeliveries(at: now, leaseUntil: now.addingTimeInterval(60), limit: 7, among: nil)
                if claimed.isEmpty { return taken }
                taken += claimed.map(\.id)
            }
        }
        async let byFirst = drain(first)
        async let bySecond = drain(second)
        let (a, b) = try await (byFirst, bySecond)
        #expect(Set(a).isDisjoint(with: b))
        #expect(a.count + b.count == 60)
        first.close()
        second.close()
    }

    /// The first column of a query's rows, as text, on a connection whose search path is `schema`.
    static func strings(_ url: PostgresConnectionURL, _ schema: String?, _ sql: String) async throws -> [String] {
        let client = PostgresClient(configuration: url.clientConfiguration(searchPath: schema))
        return try await withThrowingTaskGroup(of: [String]?.self) { group in
            group.addTask { await client.run(); return nil }
            var result: [String] = []
            for try await value in try await client.query(PostgresQuery(unsafeSQL: sql)).decode(String.self) {
                result.append(value)
            }
            group.cancelAll()
            return result
        }
    }
}
