import Foundation
import GRDBSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A consistent copy of a live database through SQLite's online backup API
/// (<https://sqlite.org/backup.html>), while a server writes to it.
///
/// The copy is of the database as it stood when the backup began: the source connection opens a
/// read transaction first, and `sqlite3_backup_step` copies `pagesPerStep` pages at a time within it
/// (a WAL reader's snapshot does not move, so writers are neither blocked nor make the copy start
/// over), pausing between steps so the copy does not take the disk from the writers. It is written to
/// a hidden temporary file in the target's folder (0600), switched to a single file
/// (`journal_mode = DELETE`), checked with `PRAGMA integrity_check`, synced, and only then renamed
/// into place and the folder synced: a crash at any moment leaves the old file or the new one, never
/// half of one. The map indices beside the database are a cache and are not copied.
public enum SQLiteBackup {
    /// How far a backup has come: pages copied of the total.
    public struct Progress: Sendable, Equatable {
        public let copiedPages: Int
        public let totalPages: Int
    }

    /// Copies the database at `source` to `destination` (replacing a file there atomically).
    /// - Parameters:
    ///   - pagesPerStep: pages copied in one step (4 KB each by default).
    ///   - pauseMilliseconds: the pause between steps.
    ///   - progress: called after each step.
    /// - Returns: the copy's size, bytes.
    /// - Throws: `SQLiteBackupError`.
    @discardableResult
    public static func copy(from source: String, to destination: String, pagesPerStep: Int32 = 1024,
                            pauseMilliseconds: UInt32 = 2,
                            progress: (Progress) -> Void = { _ in }) throws(SQLiteBackupError) -> Int {
        guard FileManager.default.fileExists(atPath: source) else { throw .missing(path: source) }
        let target = URL(fileURLWithPath: destination)
        let folder = target.deletingLastPathComponent().path
        let temporary = try SQLiteFiles.createTemporary(in: folder, for: target.lastPathComponent)
        do {
            let sourceConnection = try SQLiteConnection(path: source, readOnly: true)
            // The snapshot the whole copy reads from (see above).
            try sourceConnection.execute("BEGIN")
            try sourceConnection.execute("SELECT count(*) FROM sqlite_schema")
            let copy = try SQLiteConnection(path: temporary, readOnly: false)
            guard let backup = sqlite3_backup_init(copy.handle, "main", sourceConnection.handle, "main") else {
                throw SQLiteBackupError.sqlite(path: source, message: copy.errorMessage)
            }
            var code: Int32
            repeat {
                code = sqlite3_backup_step(backup, pagesPerStep)
                let total = Int(sqlite3_backup_pagecount(backup))
                progress(Progress(copiedPages: total - Int(sqlite3_backup_remaining(backup)), totalPages: total))
                if code == SQLITE_OK || code == SQLITE_BUSY || code == SQLITE_LOCKED { usleep(pauseMilliseconds * 1000) }
            } while code == SQLITE_OK || code == SQLITE_BUSY || code == SQLITE_LOCKED
            let finished = sqlite3_backup_finish(backup)
            guard code == SQLITE_DONE, finished == SQLITE_OK else {
                throw SQLiteBackupError.sqlite(path: source, message: copy.errorMessage)
            }
            try sourceConnection.execute("COMMIT")
            try copy.execute("PRAGMA journal_mode = DELETE")
            let problems = try copy.integrityProblems()
            guard problems.isEmpty else { throw SQLiteBackupError.corrupt(path: source, problems: problems) }
            copy.close()
            sourceConnection.close()
            try SQLiteFiles.syncFile(temporary)
            guard rename(temporary, destination) == 0 else { throw SQLiteBackupError.io(path: destination, errno: errno) }
            try SQLiteFiles.syncFile(folder)
        } catch let error as SQLiteBackupError {
            SQLiteFiles.remove(temporary)
            throw error
        } catch {
            SQLiteFiles.remove(temporary)
            throw .sqlite(path: source, message: String(describing: error))
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: destination)[.size] as? Int) ?? nil
        return size ?? 0
    }
}

/// Why a backup, a check or a restore failed.
public enum SQLiteBackupError: Error, Equatable, CustomStringConvertible {
    case missing(path: String)
    case sqlite(path: String, message: String)
    case io(path: String, errno: Int32)
    case corrupt(path: String, problems: [String])
    case notTravelog(path: String)
    /// The file was written by a newer Travelog: migrations this binary does not know.
    case newer(path: String, unknownMigrations: [String])
    /// A server holds the database (`SQLiteServerLock`).
    case heldByServer(path: String, pid: Int32?)
    case sameFile(path: String)
    /// `travelog restore` is replacing the database (a server does not start meanwhile).
    case restoreUnderWay(path: String)
    /// Another process has the database open (a command running, a server of an older version).
    case inUse(path: String)

    public var description: String {
        switch self {
        case .missing(let path): "\(path) does not exist"
        case .sqlite(let path, let message): "\(path): \(message)"
        case .io(let path, let code): "\(path): \(String(cString: strerror(code)))"
        case .corrupt(let path, let problems):
            "\(path) fails PRAGMA integrity_check: \(problems.prefix(5).joined(separator: "; "))"
        case .notTravelog(let path): "\(path) is a SQLite database but not a Travelog one (it has no Travelog migrations)"
        case .newer(let path, let unknown):
            "\(path) was written by a newer Travelog (migrations \(unknown.joined(separator: ", ")) are unknown to this one): install that version or newer; nothing was changed"
        case .heldByServer(let path, let pid):
            "a running travelog serve\(pid.map { " (pid \($0))" } ?? "") holds \(path): stop the server first (e.g. `systemctl stop travelog`), then restore"
        case .sameFile(let path): "\(path) is the database itself: choose another file"
        case .restoreUnderWay(let path): "travelog restore is replacing \(path): start the server when it is done"
        case .inUse(let path): "another process has \(path) open (a travelog command or server): stop it first, then restore"
        }
    }
}
