import Foundation
import GRDBSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bare SQLite connection for the backup API and the checks of a file (GRDB's pools do not hand
/// out their handles for `sqlite3_backup_init`, and a check must not migrate or change the file).
final class SQLiteConnection {
    private(set) var handle: OpaquePointer?
    let path: String

    /// Opens `path`; read-only opens fail on a missing file instead of creating one.
    init(path: String, readOnly: Bool) throws(SQLiteBackupError) {
        self.path = path
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(handle)
            handle = nil
            throw .sqlite(path: path, message: message)
        }
        sqlite3_busy_timeout(handle, 10_000)
    }

    deinit { close() }

    func close() {
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// How long a statement waits for another connection's lock (10 s from the start).
    func busyTimeoutMilliseconds(_ milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    var errorMessage: String { handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed" }

    /// Runs statements, discarding rows.
    func execute(_ sql: String) throws(SQLiteBackupError) {
        _ = try rows(sql)
    }

    /// The first column of every row of one statement, as text (`nil` for NULL).
    func rows(_ sql: String) throws(SQLiteBackupError) -> [String?] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw .sqlite(path: path, message: errorMessage)
        }
        defer { sqlite3_finalize(statement) }
        var values: [String?] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return values }
            guard code == SQLITE_ROW else { throw .sqlite(path: path, message: errorMessage) }
            values.append(sqlite3_column_text(statement, 0).map { String(cString: $0) })
        }
    }

    /// `PRAGMA integrity_check`'s findings; empty when the file is sound.
    func integrityProblems() throws(SQLiteBackupError) -> [String] {
        let rows = try rows("PRAGMA integrity_check").compactMap { $0 }
        return rows == ["ok"] ? [] : rows
    }
}

/// File operations a backup and a restore share: temporary files beside the target, sync, removal.
enum SQLiteFiles {
    /// Creates an empty hidden file (0600) in `folder` for `name`, and returns its path.
    static func createTemporary(in folder: String, for name: String) throws(SQLiteBackupError) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .missing(path: folder)
        }
        for _ in 0..<16 {
            let path = folder + "/." + name + ".partial-" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
            let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, OwnerOnlyFiles.fileMode)
            if descriptor >= 0 {
                close(descriptor)
                return path
            }
            guard errno == EEXIST else { throw .io(path: path, errno: errno) }
        }
        throw .io(path: folder, errno: EEXIST)
    }

    /// `fsync` of a file or a folder (a folder's sync makes a rename in it durable).
    static func syncFile(_ path: String) throws(SQLiteBackupError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(path: path, errno: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw .io(path: path, errno: errno) }
    }

    /// Removes a file and the journal files SQLite may have left beside it.
    static func remove(_ path: String) {
        for file in [path, path + "-journal", path + "-wal", path + "-shm"] { unlink(file) }
    }
}
