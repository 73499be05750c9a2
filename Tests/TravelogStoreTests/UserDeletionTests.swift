import Foundation
import Logging
import PostgresNIO
import Testing
import TravelogCore
@testable import TravelogPostgres
@testable import TravelogSQLite
import TravelogStore
import TravelogTestSupport

/// Deleting a user leaves nothing of theirs in any table. The tables are read from the schema itself
/// (`sqlite_schema`, `information_schema`), so a table added later is checked without changing this
/// suite: a row is the deleted user's by its `user_id`, or by its `device_id` or `channel_id` among
/// the user's devices and channels (SQLite keeps `user_id` only where it was needed), and SQLite's
/// R*Tree of map-area boxes by the user's boxes. A table none of these reaches fails the test.
@Suite("Deleting a user leaves nothing of theirs")
struct UserDeletionTests {
    /// The move fixture's rows (every table of `StoreTable.all`, for ada and bob) with privacy zones,
    /// their drop counts and a friendship, which the fixture has none of.
    static var rows: [String: [StoreRow]] {
        var rows = StoreMoveFixture.rows
        rows["zones"] = [
            [1, 1, "Home", "circle", 525_200_000, 134_050_000, 150.0, nil, "hide", 1_000],
            [2, 2, "Office", "polygon", nil, nil, nil, "[[[13.4,52.5],[13.5,52.5],[13.5,52.6],[13.4,52.5]]]", "drop", 2_000],
        ]
        rows["zone_drops"] = [[1, "2024-05-03", 4], [2, "2024-05-04", 2]]
        // Bob invited ada: the row is ada's too (its friend_id), and goes with her.
        rows["friendships"] = [[2, 1, 1, 1_000, 2_000, .integer(1), .integer(0)]]
        return rows
    }

    /// Ada (user 1) owns devices 1 and 2 and channel 1; bob (user 2) device 3 and channel 2.
    static let ada = UserID(rawValue: 1), bob = UserID(rawValue: 2)
    static let adasDevices = "1, 2", adasChannels = "1"

    /// Tables of bookkeeping, not of users (PostGIS keeps its coordinate systems in spatial_ref_sys).
    static let bookkeeping: Set<String> = ["grdb_migrations", "travelog_migrations", "spatial_ref_sys"]

    /// What one table holds of ada: (ada's rows, all rows); `nil` when no column ties its rows to a user.
    typealias Census = [String: (ada: Int, all: Int)?]

    static func fill(_ store: any StoreTableAccess) async throws {
        let rows = Self.rows
        for table in StoreTable.all { try await store.append(rows[table.name] ?? [], to: table) }
        try await store.finishMove()
    }

    /// Bob becomes the enabled administrator, so that ada (the fixture's only one) may go; then ada is deleted.
    static func deleteAda(_ store: any TravelogStore) async throws {
        _ = try await store.setDisabled(false, userID: bob)
        _ = try await store.setAdministrator(true, userID: bob)
        try await store.deleteUser(id: ada)
        #expect(try await store.user(id: ada) == nil)
        #expect(try await store.user(id: bob)?.name.hasPrefix("bob") == true)
    }

    /// The condition that picks ada's rows of a table: by its columns that hold a user's id (`user_id`
    /// and any other with a foreign key to `users`, such as a friendship's other side), else by its
    /// device or channel; `nil` when none ties its rows to a user.
    static func adasRows(table: String, columns: Set<String>, userColumns: Set<String>, boxes: String) -> String? {
        if table == "users" { return "id = 1" }
        if table == "location_days_rtree" { return "id IN (\(boxes))" }
        let users = userColumns.union(columns.contains("user_id") ? ["user_id"] : [])
        if !users.isEmpty { return users.sorted().map { "\($0) = 1" }.joined(separator: " OR ") }
        if columns.contains("device_id") { return "device_id IN (\(adasDevices))" }
        if columns.contains("channel_id") { return "channel_id IN (\(adasChannels))" }
        return nil
    }

    /// Checks the census before and after: ada had rows in every table the move fixture fills
    /// (and the derived ones), none are left anywhere, and every other row is still there.
    static func check(before: Census, after: Census, filled: Set<String>) {
        #expect(Set(before.keys) == Set(after.keys))
        #expect(before.count >= StoreTable.all.count, "the schema lists fewer tables than the move copies")
        for (table, counts) in after.sorted(by: { $0.key < $1.key }) {
            guard let counts, let earlier = before[table] ?? nil else {
                Issue.record("table \(table): no user_id, device_id or channel_id column ties its rows to a user: say here how they belong to one")
                continue
            }
            if filled.contains(table) { #expect(earlier.ada > 0, "ada had no rows in \(table) to delete: the test does not cover it") }
            #expect(counts.ada == 0, "table \(table) keeps \(counts.ada) rows of the deleted user")
            #expect(counts.all == earlier.all - earlier.ada, "table \(table): other users' rows changed (\(earlier.all - earlier.ada) → \(counts.all))")
        }
    }

    /// The tables the fixture gives rows of ada (a table added later is checked for leftovers all the
    /// same; its rows join the move fixture with its move).
    static var filledTables: Set<String> { Set(rows.filter { !$0.value.isEmpty }.map(\.key)) }

    // MARK: SQLite

    /// The census of a SQLite file; `boxes`: ada's map-area boxes' ids (read from `location_days` when `nil`).
    static func sqliteCensus(path: String, boxes known: [String]? = nil) throws -> (Census, boxes: [String]) {
        let connection = try SQLiteConnection(path: path, readOnly: true)
        defer { connection.close() }
        // The R*Tree's shadow tables (…_node, …_rowid, …_parent) are its own storage: its rows are counted through it.
        let tables = try connection.rows("""
            SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
            AND name NOT GLOB 'location_days_rtree_*' ORDER BY name
            """).compactMap { $0 }.filter { !bookkeeping.contains($0) }
        let boxes = try known ?? connection.rows("SELECT id FROM location_days WHERE device_id IN (\(adasDevices))").compactMap { $0 }
        var census: Census = [:]
        for table in tables {
            let columns = Set(try connection.rows("SELECT name FROM pragma_table_info('\(table)')").compactMap { $0 })
            let userColumns = Set(try connection.rows("""
                SELECT "from" FROM pragma_foreign_key_list('\(table)') WHERE "table" = 'users'
                """).compactMap { $0 })
            let all = Int(try connection.rows("SELECT count(*) FROM \(table)").first?.flatMap { $0 } ?? "") ?? -1
            guard let condition = adasRows(table: table, columns: columns, userColumns: userColumns, boxes: boxes.isEmpty ? "NULL" : boxes.joined(separator: ", ")) else {
                census[table] = .some(nil)
                continue
            }
            let ada = Int(try connection.rows("SELECT count(*) FROM \(table) WHERE \(condition)").first?.flatMap { $0 } ?? "") ?? -1
            census[table] = (ada, all)
        }
        return (census, boxes)
    }

    @Test("SQLite: every row of the deleted user goes, in every table of the schema (the map-area R*Tree too), and the other user's stay")
    func sqlite() async throws {
        let path = TestDirectory.makeFolder("deletion").appendingPathComponent("travelog.sqlite").path
        let store = try SQLiteLocationStore(path: path)
        try await Self.fill(store)
        let (before, boxes) = try Self.sqliteCensus(path: path)
        try await Self.deleteAda(store)
        let (after, _) = try Self.sqliteCensus(path: path, boxes: boxes)
        Self.check(before: before, after: after, filled: Self.filledTables.union(["location_days", "location_days_rtree"]))
    }

    @Test("a deleted user's id is never given to a new user, on SQLite (AUTOINCREMENT), PostgreSQL (a sequence) and in memory")
    func idsNeverReused() async throws {
        let path = TestDirectory.makeFolder("deletion-ids").appendingPathComponent("travelog.sqlite").path
        var stores: [(String, any TravelogStore)] = [("SQLite", try SQLiteLocationStore(path: path)), ("memory", InMemoryLocationStore())]
        if PostgresTestServer.url != nil { stores.append(("PostgreSQL", try await PostgresTestServer.makeStore())) }
        for (name, store) in stores {
            let first = try await store.addUser(named: "ada")
            let newest = try await store.addUser(named: "bob")
            try await store.deleteUser(id: newest.id)
            let next = try await store.addUser(named: "cy")
            #expect(next.id.rawValue > newest.id.rawValue, "\(name): cy got \(next.id.rawValue) after bob's \(newest.id.rawValue) was deleted")
            #expect(try await store.user(id: first.id)?.name == "ada", "\(name)")
        }
        // The rebuilt table kept every column and the other tables' ties to it.
        let store = try SQLiteLocationStore(path: path)
        let device = try await store.addDevice(named: "phone", userID: try #require(try await store.users().first { $0.name == "cy" }).id)
        #expect(try await store.devices(userID: device.userID).map(\.name) == ["phone"])
    }

    // MARK: PostgreSQL

    static func postgresCensus(url: PostgresConnectionURL, schema: String) async throws -> Census {
        try await PostgresQueryPlanTests.session(url, schema: schema) { connection in
            let tables = try await PostgresQueryPlanTests.values(connection, """
                SELECT table_name::text FROM information_schema.tables
                WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1
                """, as: String.self).filter { !bookkeeping.contains($0) }
            var census: Census = [:]
            for table in tables {
                let columns = Set(try await PostgresQueryPlanTests.values(connection, """
                    SELECT column_name::text FROM information_schema.columns
                    WHERE table_schema = current_schema() AND table_name = '\(table)'
                    """, as: String.self))
                let userColumns = Set(try await PostgresQueryPlanTests.values(connection, """
                    SELECT a.attname::text FROM pg_constraint c
                    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
                    WHERE c.contype = 'f' AND c.conrelid = '\(table)'::regclass AND c.confrelid = 'users'::regclass
                    """, as: String.self))
                let all = try await PostgresQueryPlanTests.values(connection, "SELECT count(*) FROM \(table)", as: Int64.self)
                guard let condition = adasRows(table: table, columns: columns, userColumns: userColumns, boxes: "NULL") else {
                    census[table] = .some(nil)
                    continue
                }
                let ada = try await PostgresQueryPlanTests.values(connection, "SELECT count(*) FROM \(table) WHERE \(condition)",
                                                                  as: Int64.self)
                census[table] = (Int(ada.first ?? -1), Int(all.first ?? -1))
            }
            return census
        }
    }

    @Test("PostgreSQL: every row of the deleted user goes, in every table and partition of the schema, and the other user's stay",
          .enabled(if: PostgresTestServer.url != nil, "no PostgreSQL server"))
    func postgres() async throws {
        let url = try #require(PostgresTestServer.url)
        let schema = PostgresTestServer.newSchemaName()
        let store = try await PostgresTestServer.makeStore(schema: schema)
        defer { store.close() }
        try await Self.fill(store)
        // Which process last worked on a device's journal: a table with no foreign key.
        _ = try await PostgresQueryPlanTests.session(url, schema: schema) { connection in
            try await connection.query("""
                INSERT INTO journal_runners (user_id, device_id, runner) VALUES (1, 1, 'a'), (1, 2, 'a'), (2, 3, 'b')
                """, logger: PostgresQueryPlanTests.logger)
        }
        let before = try await Self.postgresCensus(url: url, schema: schema)
        try await Self.deleteAda(store)
        let after = try await Self.postgresCensus(url: url, schema: schema)
        // The partitions of locations: ada's fixes sit in some of them, not in every one.
        let partitions = Set(before.keys.filter { $0.hasPrefix("locations_") })
        Self.check(before: before, after: after, filled: Self.filledTables.union(["journal_runners"]).subtracting(partitions))
    }
}
