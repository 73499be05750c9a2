import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a check of a database file found: a sound Travelog database this binary can open.
public struct SQLiteDatabaseCheck: Sendable, Equatable {
    /// The last migration the file has.
    public let lastMigration: String
    /// The migrations opening it will apply (an older Travelog's file).
    public let pendingMigrations: [String]
}

/// What a restore did.
public struct SQLiteRestoreOutcome: Sendable, Equatable {
    public let check: SQLiteDatabaseCheck
    /// Where the replaced database was kept (`<database>.before-restore`), `nil` when there was none.
    public let keptAside: String?
    /// Whether a map index folder was removed (it was the replaced database's).
    public let removedHistoryIndex: Bool
}

/// Checks a database file and puts a backup in a database's place.
public enum SQLiteRestore {
    /// Checks `path` without changing it: it passes `PRAGMA integrity_check`, has Travelog's
    /// migrations, and none this binary does not know.
    /// - Throws: `SQLiteBackupError` (`.corrupt`, `.notTravelog`, `.newer`, `.sqlite` for a file that is
    ///   not a database).
    public static func check(_ path: String) throws(SQLiteBackupError) -> SQLiteDatabaseCheck {
        guard FileManager.default.fileExists(atPath: path) else { throw .missing(path: path) }
        let connection = try SQLiteConnection(path: path, readOnly: true)
        defer { connection.close() }
        let problems = try connection.integrityProblems()
        guard problems.isEmpty else { throw .corrupt(path: path, problems: problems) }
        guard try connection.rows("SELECT name FROM sqlite_schema WHERE type = 'table' AND name = 'grdb_migrations'").count == 1 else {
            throw .notTravelog(path: path)
        }
        let applied = try connection.rows("SELECT identifier FROM grdb_migrations").compactMap { $0 }
        let unknown = SQLiteMigrations.unknown(among: applied)
        guard unknown.isEmpty else { throw .newer(path: path, unknownMigrations: unknown) }
        let known = SQLiteMigrations.all.map(\.identifier)
        guard let last = known.last(where: applied.contains) else { throw .notTravelog(path: path) }
        return SQLiteDatabaseCheck(lastMigration: last, pendingMigrations: known.filter { !applied.contains($0) })
    }

    /// Replaces the database at `database` by a copy of `backup`, once the backup passes `check`
    /// and no server holds the database (`SQLiteServerLock`). The replaced database is switched to
    /// a single file (its WAL checkpointed) and kept as `<database>.before-restore`; its map index
    /// folder (`<database>-history-index`) is removed, the server builds it again.
    /// - Throws: `SQLiteBackupError`; nothing is replaced when it throws before the final renames.
    public static func restore(from backup: String, over database: String,
                               progress: (SQLiteBackup.Progress) -> Void = { _ in }) throws(SQLiteBackupError) -> SQLiteRestoreOutcome {
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: database),
           URL(fileURLWithPath: backup).resolvingSymlinksInPath().path == URL(fileURLWithPath: database).resolvingSymlinksInPath().path {
            throw .sameFile(path: backup)
        }
        let check = try check(backup)
        let lock = try SQLiteServerLock.exclusive(database: database)
        defer { withExtendedLifetime(lock) {} }
        let incoming = database + ".restoring"
        try SQLiteBackup.copy(from: backup, to: incoming, progress: progress)
        var keptAside: String?
        if fileManager.fileExists(atPath: database) {
            do throws(SQLiteBackupError) {
                // The WAL's committed pages go into the file, which then stands alone.
                let current = try SQLiteConnection(path: database, readOnly: false)
                current.busyTimeoutMilliseconds(0)
                try current.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                guard try current.rows("PRAGMA journal_mode = DELETE") == ["delete"] else { throw SQLiteBackupError.inUse(path: database) }
                current.close()
            } catch .sqlite(_, let message) where message.contains("locked") || message.contains("busy") {
                SQLiteFiles.remove(incoming)
                throw .inUse(path: database)
            } catch {
                SQLiteFiles.remove(incoming)
                throw error
            }
            let aside = database + ".before-restore"
            SQLiteFiles.remove(aside)
            guard rename(database, aside) == 0 else {
                SQLiteFiles.remove(incoming)
                throw .io(path: database, errno: errno)
            }
            keptAside = aside
        }
        for stale in [database + "-wal", database + "-shm", database + "-journal"] { unlink(stale) }
        guard rename(incoming, database) == 0 else { throw .io(path: database, errno: errno) }
        try SQLiteFiles.syncFile(URL(fileURLWithPath: database).deletingLastPathComponent().path)
        let index = database + "-history-index"
        let removedIndex = fileManager.fileExists(atPath: index) && (try? fileManager.removeItem(atPath: index)) != nil
        return SQLiteRestoreOutcome(check: check, keptAside: keptAside, removedHistoryIndex: removedIndex)
    }
}
