import ArgumentParser
import Foundation
import TravelogPostgres
import TravelogSQLite

/// `travelog restore FILE`: puts a backup in the database's place once it is checked (`SQLiteRestore`).
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Replace the SQLite database by a backup, once the backup is checked.",
        discussion: """
        The backup must pass PRAGMA integrity_check and be a Travelog database this version can open \
        (not written by a newer one; an older one's migrations run when it is next opened). A database a \
        running `travelog serve` holds is not replaced: stop the server first. The replaced database is \
        kept as DB.before-restore, and its map index folder is removed (the server builds it again).
        """)

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: ArgumentHelp("The backup to restore.", valueName: "file"))
    var file: String

    @Flag(help: "Only check the backup; change nothing.")
    var checkOnly = false

    func run() async throws {
        let database = storeOptions.databasePath
        if PostgresConnectionURL.isPostgresURL(database) {
            FileHandle.standardError.write(Data(BackupCommand.postgresAdvice(for: try PostgresConnectionURL(database)).utf8))
            throw ExitCode(2)
        }
        if checkOnly {
            let check = try SQLiteRestore.check(file)
            print("\(file) is sound: a Travelog database at migration \(check.lastMigration)"
                  + (check.pendingMigrations.isEmpty ? "" : "; opening it will apply \(check.pendingMigrations.joined(separator: ", "))"))
            return
        }
        let progress = ProgressBar(label: "restore")
        let outcome = try SQLiteRestore.restore(from: file, over: database) { step in
            progress.update(items: step.copiedPages, totalItems: step.totalPages, itemName: "pages")
        }
        progress.finish()
        print("Restored \(file) into \(database) (migration \(outcome.check.lastMigration))")
        if let aside = outcome.keptAside { print("  the replaced database is kept as \(aside)") }
        if outcome.removedHistoryIndex { print("  its map index was removed: the server builds it again") }
        if !outcome.check.pendingMigrations.isEmpty {
            print("  the next command or `travelog serve` applies the newer migrations: \(outcome.check.pendingMigrations.joined(separator: ", "))")
        }
    }
}
