import Logging
import PostgresNIO

/// Applies `PostgresMigrations` that a database has not had yet, each in its own transaction,
/// recorded in `travelog_migrations`. A transaction-scoped advisory lock makes processes that start
/// at once take turns: the first migrates, the others then find nothing to do.
struct PostgresMigrator {
    let client: PostgresClient
    let logger: Logger

    /// An arbitrary key of Travelog's own for `pg_advisory_xact_lock`.
    static let lockKey: Int64 = 0x7472_6176_656C_6F67

    /// Migrates; with `schema`, creates it first (the connections' search path names it already).
    /// A database a newer Travelog migrated (identifiers this binary does not know) is refused
    /// before anything is written.
    /// - Returns: the migrations applied to a database that had some already (an older version's),
    ///   empty for a new or current one.
    @discardableResult
    func migrate(creatingSchema schema: String?) async throws -> [String] {
        let before = try await appliedIdentifiers()
        let known = PostgresMigrations.all.map(\.identifier)
        let unknown = before.filter { !known.contains($0) }.sorted()
        guard unknown.isEmpty else { throw PostgresMigrationError.newer(unknownMigrations: unknown) }
        for migration in PostgresMigrations.all {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(Self.lockKey))", logger: logger)
                if let schema {
                    try await connection.query("CREATE SCHEMA IF NOT EXISTS \(unescaped: schema)", logger: logger)
                }
                try await connection.query("""
                    CREATE TABLE IF NOT EXISTS travelog_migrations (
                        identifier text PRIMARY KEY,
                        applied_at timestamptz NOT NULL DEFAULT now())
                    """, logger: logger)
                let done = try await connection.query(
                    "SELECT 1 FROM travelog_migrations WHERE identifier = \(migration.identifier)", logger: logger
                ).collect()
                guard done.isEmpty else { return }
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO travelog_migrations (identifier) VALUES (\(migration.identifier))",
                                           logger: logger)
            }
        }
        return before.isEmpty ? [] : known.filter { !before.contains($0) }
    }

    /// The migrations recorded in the schema the connections see, none before the first.
    private func appliedIdentifiers() async throws -> [String] {
        let exists = try await client.query("SELECT to_regclass('travelog_migrations') IS NOT NULL", logger: logger).collect()
        guard try exists.first?.decode(Bool.self) == true else { return [] }
        return try await client.query("SELECT identifier FROM travelog_migrations", logger: logger).collect()
            .map { try $0.decode(String.self) }
    }
}

/// Why a PostgreSQL database was not migrated.
enum PostgresMigrationError: Error, CustomStringConvertible {
    /// A newer Travelog migrated the database: migrations this binary does not know.
    case newer(unknownMigrations: [String])

    var description: String {
        switch self {
        case .newer(let unknown):
            "written by a newer Travelog (migrations \(unknown.joined(separator: ", ")) are unknown to this one): install that version or newer; nothing was changed"
        }
    }
}
