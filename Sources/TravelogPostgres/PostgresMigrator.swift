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
    func migrate(creatingSchema schema: String?) async throws {
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
    }
}
