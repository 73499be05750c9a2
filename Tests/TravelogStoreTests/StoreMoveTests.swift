import Foundation
import Testing
import TravelogCore
import TravelogPostgres
import TravelogSQLite
import TravelogStore
import TravelogTestSupport

/// Moving a whole database between stores (`StoreMove`): SQLite to SQLite always, and SQLite to
/// PostgreSQL and back when a test server is at hand.
@Suite("Moving a database between stores")
struct StoreMoveTests {
    static func sqlite(_ name: String) throws -> SQLiteLocationStore {
        try SQLiteLocationStore(path: TestDirectory.makeFolder("move").appendingPathComponent(name + ".sqlite").path)
    }

    @Test("a move copies every row of every table, verifies each table and the copy works as a store")
    func sqliteToSQLite() async throws {
        let source = try Self.sqlite("source")
        try await StoreMoveFixture.fill(source)
        let destination = try Self.sqlite("destination")
        let reports = try await StoreMove(from: source, to: destination, batchRowCount: 50).run()
        #expect(reports.map(\.table) == StoreTable.all.map(\.name))
        #expect(reports.allSatisfy { $0.matches })
        #expect(reports.first { $0.table == "locations" }?.source.rowCount == 425)
        #expect(try await StoreMoveFixture.dump(destination) == StoreMoveFixture.dump(source))
        try await Self.expectSameQueries(source, destination)
        // The copy goes on with new ids after the moved ones.
        #expect(try await destination.addUser(named: "carol").id == UserID(rawValue: 3))
    }

    @Test("an interrupted move goes on where it stopped and stores each row once")
    func resume() async throws {
        let source = try Self.sqlite("source")
        try await StoreMoveFixture.fill(source)
        let destination = try Self.sqlite("destination")
        let failing = FailingDestination(store: destination, appendsBeforeFailure: 6)
        await #expect(throws: StoreError.self) { try await StoreMove(from: source, to: failing, batchRowCount: 40).run() }
        let partial = try await destination.rowCount(of: StoreTable.locations)
        #expect(partial > 0 && partial < 425)
        let reports = try await StoreMove(from: source, to: destination, batchRowCount: 40).run()
        #expect(reports.allSatisfy { $0.matches })
        #expect(reports.first { $0.table == "locations" }?.copiedRowCount == 425 - partial)
        #expect(reports.first { $0.table == "users" }?.copiedRowCount == 0)
        #expect(try await StoreMoveFixture.dump(destination) == StoreMoveFixture.dump(source))
    }

    @Test("a destination that held rows of its own fails verification in those tables")
    func notEmpty() async throws {
        let source = try Self.sqlite("source")
        try await StoreMoveFixture.fill(source)
        let destination = try Self.sqlite("destination")
        _ = try await destination.addUser(named: "zoe")
        let reports = try await StoreMove(from: source, to: destination).run()
        #expect(reports.filter { !$0.matches }.map(\.table) == ["users"])
    }

    @Test("the checksum does not depend on the order of the rows, and tells rows apart")
    func checksum() {
        var forward = StoreTableChecksum(), backward = StoreTableChecksum(), other = StoreTableChecksum()
        let rows: [StoreRow] = [[1, "a", nil], [2, "a", 0.5], [1, "b", nil]]
        rows.forEach { forward.add($0) }
        rows.reversed().forEach { backward.add($0) }
        [[1, "a", nil], [2, "a", 0.5], [1, "b", 0]].forEach { other.add($0) }
        #expect(forward == backward)
        #expect(forward != other)
        #expect(forward.description.count == 16)
    }

    @Test("SQLite to PostgreSQL and back keeps every row of every table", .enabled(if: PostgresTestServer.url != nil, "no PostgreSQL server"))
    func throughPostgres() async throws {
        let source = try Self.sqlite("source")
        try await StoreMoveFixture.fill(source)
        let postgres = try await PostgresTestServer.makeStore()
        defer { postgres.close() }
        #expect(try await StoreMove(from: source, to: postgres, batchRowCount: 64).run().allSatisfy { $0.matches })
        #expect(try await StoreMoveFixture.dump(postgres) == StoreMoveFixture.dump(source))
        try await Self.expectSameQueries(source, postgres)
        let back = try Self.sqlite("back")
        #expect(try await StoreMove(from: postgres, to: back, batchRowCount: 64).run().allSatisfy { $0.matches })
        #expect(try await StoreMoveFixture.dump(back) == StoreMoveFixture.dump(source))
        try await Self.expectSameQueries(source, back)
        // PostgreSQL's id counters were moved past the moved ids.
        #expect(try await postgres.addUser(named: "carol").id == UserID(rawValue: 3))
    }

    @Test("a move into PostgreSQL builds the indexes of locations after the rows, also when run again after an interruption",
          .enabled(if: PostgresTestServer.url != nil, "no PostgreSQL server"))
    func postgresDeferredIndexes() async throws {
        let url = try #require(PostgresTestServer.url)
        let source = try Self.sqlite("source")
        try await StoreMoveFixture.fill(source)
        let schema = PostgresTestServer.newSchemaName()
        let postgres = try await PostgresTestServer.makeStore(schema: schema)
        defer { postgres.close() }
        // Every index of locations and of its partitions, and whether it is valid (usable).
        let indexesSQL = """
            SELECT c.relname || ' on ' || t.relname || (CASE WHEN i.indisvalid THEN ' valid' ELSE ' INVALID' END)
            FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
            WHERE t.relnamespace = current_schema()::regnamespace AND t.relname LIKE 'locations%' ORDER BY 1
            """
        let indexes = try await PostgresLocationStoreTests.strings(url, schema, indexesSQL)
        #expect(indexes.count >= 6 && indexes.allSatisfy { $0.hasSuffix(" valid") })
        let failing = FailingDestination(store: postgres, appendsBeforeFailure: 8)
        await #expect(throws: StoreError.self) { try await StoreMove(from: source, to: failing, batchRowCount: 40).run() }
        let partial = try await postgres.rowCount(of: StoreTable.locations)
        #expect(partial > 0 && partial < 425)
        let during = try await PostgresLocationStoreTests.strings(url, schema, indexesSQL)
        // B-trees other than the unique key and the GiST index wait, with their definitions; the
        // others (the unique key, BRIN) are kept up.
        let waitingSorted = try await PostgresLocationStoreTests.strings(url, schema, """
            SELECT c.relname::text FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
            JOIN pg_am a ON a.oid = c.relam
            WHERE t.relnamespace = current_schema()::regnamespace AND t.relname LIKE 'locations%' AND NOT i.indisunique
            AND a.amname IN ('btree', 'gist')
            """)
        #expect(waitingSorted.isEmpty)
        #expect(during.count < indexes.count && during.allSatisfy { indexes.contains($0) })
        let waiting = try await PostgresLocationStoreTests.strings(url, schema, "SELECT name FROM move_deferred_indexes ORDER BY name")
        #expect(waiting.contains("locations_by_import") && waiting.contains("locations_position"), "\(waiting)")
        #expect(try await StoreMove(from: source, to: postgres, batchRowCount: 40).run().allSatisfy { $0.matches })
        #expect(try await PostgresLocationStoreTests.strings(url, schema, indexesSQL) == indexes)
        let leftOver = "SELECT relname::text FROM pg_class WHERE relname = 'move_deferred_indexes' AND relnamespace = current_schema()::regnamespace"
        #expect(try await PostgresLocationStoreTests.strings(url, schema, leftOver).isEmpty)
        // The moved tables were analyzed (the planner's statistics of this schema's tables).
        let analyzed = try await PostgresLocationStoreTests.strings(url, schema, """
            SELECT DISTINCT tablename::text FROM pg_stats WHERE schemaname = current_schema() AND tablename IN ('locations', 'devices')
            ORDER BY 1
            """)
        #expect(analyzed == ["devices", "locations"])
        #expect(try await StoreMoveFixture.dump(postgres) == StoreMoveFixture.dump(source))
    }

    @Test("PostgreSQL stores every double and text a move carries as it was, and reads them back",
          .enabled(if: PostgresTestServer.url != nil, "no PostgreSQL server"))
    func postgresValues() async throws {
        let postgres = try await PostgresTestServer.makeStore()
        defer { postgres.close() }
        let users = try #require(StoreTable.all.first { $0.name == "users" })
        let places = try #require(StoreTable.all.first { $0.name == "places" })
        try await postgres.append([[1, "ada", 1_000, nil, .integer(1), .integer(0)]], to: users)
        let reals: [Double] = [-0.0, 0.1, 1e-7, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
                               -.pi, 1e22, 123_456_789.123_456_79, .infinity, -.infinity, .nan]
        let names: [StoreValue] = ["\\N", "\\.", "tab\there", "line\r\nbreak", "back\\slash\\", "", .null, "ünï 🚲", "a\u{1}b"]
        let rows: [StoreRow] = reals.indices.map { index in
            [1, .integer(Int64(index + 1)), names[index % names.count], .integer(Int64(index)), 0, .real(reals[index])]
        }
        try await postgres.append(rows, to: places)
        // Read in pages of 5: arrays of each page's columns, pages after each other's last key.
        var read: [StoreRow] = []
        while true {
            let page = try await postgres.rows(of: places, device: nil, after: read.last.map { places.key(of: $0) }, limit: 5)
            read += page
            if page.count < 5 { break }
        }
        #expect(read.count == rows.count)
        for (stored, sent) in zip(read, rows) {
            #expect(Array(stored.prefix(5)) == Array(sent.prefix(5)))
            guard case .real(let back) = stored[5], case .real(let real) = sent[5] else {
                Issue.record("radius \(stored[5]) is not a real")
                continue
            }
            #expect(back.bitPattern == real.bitPattern || (back.isNaN && real.isNaN), "\(real) came back as \(back)")
        }
        // A value of the wrong kind is refused before anything is sent.
        await #expect(throws: StoreError.self) { try await postgres.append([[1, 99, "x", "not a number", 0, 1.0]], to: places) }
        #expect(try await postgres.rowCount(of: places) == rows.count)
    }

    /// The stores answer the same to the queries that read derived data (day boxes, summaries).
    static func expectSameQueries(_ one: any TravelogStore, _ other: any TravelogStore) async throws {
        let ada = UserID(rawValue: 1)
        let area = CoordinateBox(south: 52.5, west: 13.3, north: 52.53, east: 13.5)
        let query = LocationQuery(userID: ada, area: area)
        let expected = try await one.locations(query)
        #expect(!expected.isEmpty)
        #expect(try await other.locations(query) == expected)
        #expect(try await other.deviceSummaries(userID: ada) == one.deviceSummaries(userID: ada))
    }
}

/// A destination that fails after some batches, as an interrupted move does.
final class FailingDestination: StoreTableAccess, @unchecked Sendable {
    let store: any StoreTableAccess
    private var appendsLeft: Int
    private let lock = NSLock()

    init(store: any StoreTableAccess, appendsBeforeFailure: Int) {
        self.store = store
        appendsLeft = appendsBeforeFailure
    }

    func append(_ rows: [StoreRow], to table: StoreTable) async throws(StoreError) {
        let left = lock.withLock { appendsLeft -= 1; return appendsLeft }
        guard left >= 0 else { throw .database(operation: "moving", message: "interrupted") }
        try await store.append(rows, to: table)
    }

    func rows(of table: StoreTable, device: StoreTableDevice?, after key: StoreRow?, limit: Int) async throws(StoreError) -> [StoreRow] {
        try await store.rows(of: table, device: device, after: key, limit: limit)
    }

    func lastKey(of table: StoreTable, device: StoreTableDevice?) async throws(StoreError) -> StoreRow? {
        try await store.lastKey(of: table, device: device)
    }

    func rowCount(of table: StoreTable) async throws(StoreError) -> Int { try await store.rowCount(of: table) }

    func prepareMove() async throws(StoreError) { try await store.prepareMove() }

    func finishMove() async throws(StoreError) { try await store.finishMove() }
}
