import ArgumentParser
import Foundation
import TravelogPostgres
import TravelogSQLite

/// `travelog backup FILE` or `travelog backup --dir DIR [--keep N]`: a consistent copy of the SQLite
/// database while the server runs (`SQLiteBackup`); for PostgreSQL, how to use `pg_dump`.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the SQLite database while the server runs, consistently (SQLite's online backup).",
        discussion: """
        `travelog backup FILE` writes the copy to FILE; `travelog backup --dir DIR --keep 7` (or \
        `travelog backup DIR --keep 7` for an existing folder) writes DIR/travelog-YYYYMMDDTHHMMSSZ.sqlite \
        and removes all but the newest 7 such files. The copy is the \
        database as it stood when the backup began, checked with PRAGMA integrity_check, and renamed into \
        place only when complete (owner-only permissions). The map indices beside the database are a \
        cache and are left out. For PostgreSQL it prints the pg_dump and pg_restore commands to use. \
        `travelog serve --backup-every 24h --backup-dir DIR` takes them on a schedule.
        """)

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: ArgumentHelp("The file to write (replaced atomically when it exists).", valueName: "file"))
    var file: String?

    @Option(help: ArgumentHelp("A folder for timestamped backups, instead of FILE.", valueName: "dir"))
    var dir: String?

    @Option(help: ArgumentHelp("With --dir: keep the newest N backups there, remove older ones.", valueName: "n"))
    var keep: Int?

    @Option(help: ArgumentHelp("Pages (4 KB each) copied between pauses; fewer leave the disk to the server more often.", valueName: "n"))
    var stepPages: Int32 = 1024

    @Option(help: ArgumentHelp("The pause between steps, milliseconds.", valueName: "ms"))
    var stepPauseMs: UInt32 = 2

    @Flag(help: "Print JSON.")
    var json = false

    /// The folder of timestamped backups: `--dir`, or FILE when it is an existing folder.
    var folder: String? {
        if let dir { return dir }
        var isDirectory: ObjCBool = false
        guard let file, FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        return file
    }

    func validate() throws {
        guard (file == nil) != (dir == nil) else { throw ValidationError("give either FILE (a folder for timestamped backups) or --dir DIR") }
        if let keep {
            guard folder != nil else { throw ValidationError("--keep goes with a folder: --dir DIR, or an existing folder as FILE") }
            guard keep >= 1 else { throw ValidationError("--keep \(keep): expected 1 or more") }
        }
        guard stepPages >= 1 else { throw ValidationError("--step-pages \(stepPages): expected 1 or more") }
        guard stepPauseMs <= 10_000 else { throw ValidationError("--step-pause-ms \(stepPauseMs): expected at most 10000") }
    }

    func run() async throws {
        let database = storeOptions.databasePath
        if PostgresConnectionURL.isPostgresURL(database) {
            FileHandle.standardError.write(Data(Self.postgresAdvice(for: try PostgresConnectionURL(database)).utf8))
            throw ExitCode(2)
        }
        let started = Date()
        let progress = ProgressBar(label: "backup")
        let folder = folder
        let result = try Self.backUp(database: database, file: folder == nil ? file : nil, dir: folder, keep: keep,
                                     pagesPerStep: stepPages, pauseMilliseconds: stepPauseMs) { step in
            progress.update(items: step.copiedPages, totalItems: step.totalPages, itemName: "pages")
        }
        progress.finish()
        let seconds = Date().timeIntervalSince(started)
        if json {
            let object: [String: Any] = ["database": database, "backup": result.path, "bytes": result.bytes,
                                         "seconds": (seconds * 1000).rounded() / 1000, "removed": result.removed]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print("Backed up \(database) to \(result.path) (\(ProgressBar.bytes(result.bytes)), \(String(format: "%.1f", seconds)) s)")
            for path in result.removed { print("  removed the older backup \(path)") }
        }
    }

    /// What one backup wrote and removed.
    struct Result: Sendable {
        let path: String
        let bytes: Int
        let removed: [String]
    }

    /// Backs the database up to `file`, or into `dir` under a timestamped name and rotated to `keep`.
    static func backUp(database: String, file: String?, dir: String?, keep: Int?, now: Date = Date(),
                       pagesPerStep: Int32 = 1024, pauseMilliseconds: UInt32 = 2,
                       progress: (SQLiteBackup.Progress) -> Void = { _ in }) throws -> Result {
        if let dir {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        let path = file ?? ((dir ?? ".") + "/" + SQLiteBackupRotation.fileName(at: now))
        if URL(fileURLWithPath: path).standardizedFileURL == URL(fileURLWithPath: database).standardizedFileURL {
            throw SQLiteBackupError.sameFile(path: path)
        }
        let bytes = try SQLiteBackup.copy(from: database, to: path, pagesPerStep: pagesPerStep,
                                          pauseMilliseconds: pauseMilliseconds, progress: progress)
        let removed = dir.flatMap { dir in keep.map { SQLiteBackupRotation.prune(in: dir, keep: $0) } } ?? []
        return Result(path: path, bytes: bytes, removed: removed)
    }

    /// How to back up and restore a PostgreSQL database, with the commands for this address (no password).
    static func postgresAdvice(for url: PostgresConnectionURL) -> String {
        let address = "postgresql://\(url.username)@\(url.host):\(url.port)/\(url.database)"
            + (url.tlsMode == "prefer" ? "" : "?sslmode=\(url.tlsMode)")
        let schema = url.schema.map { " --schema=\($0)" } ?? ""
        return """
        travelog backup copies SQLite databases; \(url.description) is PostgreSQL: use its own tools, \
        which copy a consistent snapshot while the server runs.
          back up:  pg_dump --format=custom\(schema) --file=travelog-$(date -u +%Y%m%dT%H%M%SZ).dump '\(address)'
          restore:  stop travelog serve, then
                    pg_restore --clean --if-exists --no-owner\(schema) --dbname='\(address)' travelog-….dump
        The password comes from ~/.pgpass or $PGPASSWORD (it is not printed here).

        """
    }
}
