import Foundation
import Logging
import PostgresNIO
import Testing
import TravelogPostgres
import TravelogStore
import TravelogTestSupport

/// The property that lets the schema be distributed by user with Citus (docs/SCALING.md): every
/// query the PostgreSQL store runs is narrowed to one user by `user_id`, and joins stay within one
/// user. The store's queries are not listed by hand: the conformance suites run on a server of the
/// test's own with `pg_stat_statements`, and each statement it recorded is planned as a generic
/// plan (`plan_cache_mode = force_generic_plan`, so no parameter value hides a missing condition)
/// and its scans read (`PostgresPlanCheck`). A query that reads across users fails the test unless
/// `PostgresQueryPlanTests.acrossUsers` names it with the reason.
@Suite("PostgreSQL query plans", .serialized)
struct PostgresQueryPlanTests {
    /// Queries that read across users by nature, with the reason; docs/SCALING.md lists them too.
    /// Each entry is a piece of the statement's text (whitespace collapsed).
    /// Under Citus each runs on every shard (correct, slower); the remedy is in the reason.
    static let acrossUsers: [(statement: String, reason: String)] = [
        // Secrets that name no user: what a request presents is all there is to start from.
        ("FROM devices WHERE token_sha256 = $1",
         "a device token names no user: every upload starts from its digest (to do: tokens that carry the user id, or a token → user reference table)"),
        ("FROM sessions WHERE id_sha256 = $1",
         "a session cookie names no user: the page's requests and its logout start from its digest (to do: as for tokens)"),
        // The store protocols name these rows by their own id alone (the caller does not pass the user).
        ("FROM devices WHERE id = $1", "device(id:) and a device's owner: LocationStore takes a DeviceID alone (to do: pass the user)"),
        ("FROM devices WHERE id = ANY($1)", "the owners of a batch's devices: StoredLocation carries the device, not the user"),
        ("UPDATE devices SET app = $1 WHERE id = $2", "AccountStore.setApp(deviceID:) takes the device alone"),
        ("UPDATE devices SET token_sha256 = $1 WHERE id = $2", "AccountStore.setToken(deviceID:) takes the device alone"),
        ("FROM devices WHERE id = $2 ON CONFLICT (user_id, device_id)", "RegionStore.setOffered(deviceID:) takes the device alone"),
        ("FROM region_checkpoints WHERE device_id = $1", "region evaluation of a device reads its checkpoint by the device alone"),
        ("FROM region_states WHERE device_id = $1", "region evaluation of a device reads its states by the device alone"),
        ("FROM visits WHERE id = $1", "JournalStore.visit(id:) and editing a visit take the visit id alone"),
        ("FROM imports WHERE id = $1", "discardImport(_:) takes the import id alone"),
        ("WHERE id = $6 AND state = $8", "finishImport(_:) takes the import id alone"),
        ("UPDATE places SET name = $1 WHERE id = $2", "naming a place takes the place id alone"),
        ("UPDATE notification_deliveries SET attempts", "recordAttempt takes the delivery alone"),
        ("JOIN notification_channels c ON c.user_id = n.user_id AND c.id = n.channel_id WHERE n.id = ANY($1)",
         "the claimed deliveries with their channels, by delivery ids of any user (joined within one user)"),
        // Maintenance sweeps over every user by nature.
        ("FROM imports WHERE state = $2 AND heartbeat_ms < $1", "the sweep of abandoned imports of any user"),
        ("WHERE n.state = $3 AND coalesce(n.next_attempt_ms, $4) <= $1",
         "the outbox sender reads the due deliveries of every user (joined within one user)"),
        ("UPDATE notification_deliveries SET next_attempt_ms = $1 WHERE (user_id, id) IN",
         "the outbox sender claims due deliveries of every user (FOR UPDATE SKIP LOCKED)"),
    ]

    @Test("every query of the store suites filters on user_id, joins stay within one user, and the exceptions are the listed ones",
          .enabled(if: unavailableReason == nil, Comment(rawValue: unavailableReason ?? "")))
    func everyQueryIsPerUser() async throws {
        #expect(try PostgresQueryWorkload.missing() == [], "conformance tests missing from PostgresQueryWorkload")
        let cluster = try ThrowawayPostgresCluster(settings: [
            "fsync=off", "synchronous_commit=off", "max_connections=200",
            "shared_preload_libraries=pg_stat_statements", "pg_stat_statements.max=20000",
        ])
        defer { cluster.remove() }
        let url = try PostgresConnectionURL(cluster.url)
        let planSchema = PostgresTestServer.newSchemaName()
        let planStore = try await PostgresLocationStore(url: url, schema: planSchema, maximumConnections: 2)
        defer { planStore.close() }
        try await Self.session(url, schema: planSchema) { connection in
            try await connection.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements", logger: Self.logger)
            try await connection.query("SELECT pg_stat_statements_reset()", logger: Self.logger)
        }

        try await PostgresQueryWorkload.run(StoreFactory(name: "PostgreSQL with pg_stat_statements") {
            try await PostgresLocationStore(url: url, schema: PostgresTestServer.newSchemaName(), maximumConnections: 4)
        })

        let findings = try await Self.session(url, schema: planSchema) { connection in
            try await Self.findings(on: connection)
        }
        #expect(findings.evicted == 0, "pg_stat_statements dropped \(findings.evicted) entries: raise pg_stat_statements.max")
        #expect(findings.checked >= 40, "only \(findings.checked) statements recorded: did the workload run on this server?")
        var used = Set<Int>()
        for (statement, problem) in findings.problems {
            if let index = Self.acrossUsers.firstIndex(where: { statement.contains($0.statement) }) {
                used.insert(index)
            } else {
                Issue.record("reads across users (\(problem)): \(statement)")
            }
        }
        for (index, entry) in Self.acrossUsers.enumerated() where !used.contains(index) {
            Issue.record("acrossUsers lists a query no longer run, or now filtered on user_id: \(entry.statement)")
        }
    }

    /// Why the test cannot run here (no PostgreSQL, or no `pg_stat_statements` in its contrib
    /// modules), or `nil`.
    static let unavailableReason: String? = {
        if let reason = ThrowawayPostgresCluster.unavailableReason { return reason }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        if versions.contains(where: { FileManager.default.fileExists(atPath: "/usr/lib/postgresql/\($0)/lib/pg_stat_statements.so") }) {
            return nil
        }
        return "PostgreSQL's pg_stat_statements module is not installed: the query plans were not checked"
    }()

    static let logger = Logger(label: "travelog.test.plans")

    struct Findings {
        /// Statements planned.
        var checked = 0
        /// Statement (whitespace collapsed) and what is wrong with it.
        var problems: [(String, String)] = []
        /// Entries `pg_stat_statements` dropped for want of room (then statements went unchecked).
        var evicted = 0
    }

    /// Plans every statement recorded on the test database and reads each plan.
    static func findings(on connection: PostgresConnection) async throws -> Findings {
        var findings = Findings()
        findings.evicted = try await values(connection, "SELECT dealloc FROM pg_stat_statements_info", as: Int64.self)
            .first.map(Int.init) ?? 0
        let userTables = Set(try await values(connection, """
            SELECT DISTINCT table_name::text FROM information_schema.columns
            WHERE table_schema = current_schema() AND column_name = 'user_id'
            """, as: String.self))
        let recorded = try await values(connection, """
            SELECT DISTINCT query FROM pg_stat_statements
            WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
            """, as: String.self).map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        // The staging tables of bulk writes are temporary: made here as the store made them.
        for statement in recorded where statement.uppercased().hasPrefix("CREATE TEMP") {
            _ = try? await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
        try await connection.query("SET plan_cache_mode = force_generic_plan", logger: logger)
        for statement in recorded.sorted() where statement.contains(#/^(?i)(SELECT|INSERT|UPDATE|DELETE|WITH)\b/#)
            && !statement.contains("pg_stat_statements") {
            findings.checked += 1
            do {
                let scans = try await scans(of: statement, on: connection, userTables: userTables)
                if let problem = PostgresPlanCheck.problem(scans) { findings.problems.append((statement, problem)) }
            } catch {
                findings.problems.append((statement, "could not be planned: \(String(reflecting: error))"))
            }
        }
        return findings
    }

    /// The scans of user tables in the generic plan of `statement`.
    static func scans(of statement: String, on connection: PostgresConnection,
                      userTables: Set<String>) async throws -> [PostgresPlanCheck.Scan] {
        try await connection.query("DEALLOCATE ALL", logger: logger)
        try await connection.query(PostgresQuery(unsafeSQL: "PREPARE travelog_plan AS \(statement)"), logger: logger)
        let parameterCount = try await values(connection, """
            SELECT cardinality(parameter_types) FROM pg_prepared_statements WHERE name = 'travelog_plan'
            """, as: Int32.self).first ?? 0
        let nulls = Array(repeating: "NULL", count: Int(parameterCount)).joined(separator: ", ")
        let explain = "EXPLAIN (FORMAT JSON) EXECUTE travelog_plan" + (parameterCount > 0 ? "(\(nulls))" : "")
        let text = try await values(connection, explain, as: String.self).joined()
        let plans = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] ?? []
        return plans.flatMap { PostgresPlanCheck.scans(in: $0, userTables: userTables) }
    }

    static func values<Value: PostgresDecodable>(_ connection: PostgresConnection, _ sql: String,
                                                as type: Value.Type) async throws -> [Value] {
        var result: [Value] = []
        for try await value in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(Value.self) {
            result.append(value)
        }
        return result
    }

    /// Runs `body` on one connection (one session: prepared statements and settings stay) to the
    /// server, with `schema` as the search path.
    static func session<T: Sendable>(_ url: PostgresConnectionURL, schema: String,
                                     _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        var configuration = url.clientConfiguration(searchPath: schema)
        configuration.options.maximumConnections = 1
        let client = PostgresClient(configuration: configuration)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { await client.run(); return nil }
            defer { group.cancelAll() }
            return try await client.withConnection { try await body($0) }
        }
    }
}
