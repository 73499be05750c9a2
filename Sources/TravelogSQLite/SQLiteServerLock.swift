import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who holds a SQLite database: `travelog serve` takes a shared `flock` on `<database>-server.lock`
/// (and writes its pid there) for as long as it runs; `travelog restore` takes it exclusively, so it
/// refuses a database a server holds and a server does not start in the middle of a restore. The
/// lock is a file of its own, not the database: closing any descriptor of the database file would
/// drop the POSIX locks SQLite holds on it in this process.
public final class SQLiteServerLock: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The lock file of a database.
    public static func lockPath(forDatabase database: String) -> String { database + "-server.lock" }

    /// The server's hold (several servers may share it).
    /// - Throws: `SQLiteBackupError.io`, or `.heldByServer` while a restore replaces the database.
    public static func server(database: String) throws(SQLiteBackupError) -> SQLiteServerLock {
        let lock: SQLiteServerLock
        do {
            lock = try take(database: database, operation: LOCK_SH)
        } catch .heldByServer {
            throw .restoreUnderWay(path: database)
        }
        let pid = Data("\(getpid())\n".utf8)
        _ = ftruncate(lock.descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(lock.descriptor, $0.baseAddress, $0.count, 0) }
        return lock
    }

    /// The exclusive hold a restore takes.
    /// - Throws: `SQLiteBackupError.heldByServer` (with the server's pid when it wrote one).
    public static func exclusive(database: String) throws(SQLiteBackupError) -> SQLiteServerLock {
        try take(database: database, operation: LOCK_EX)
    }

    private static func take(database: String, operation: Int32) throws(SQLiteBackupError) -> SQLiteServerLock {
        let path = lockPath(forDatabase: database)
        let folder = URL(fileURLWithPath: database).deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: folder.path) {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: OwnerOnlyFiles.directoryMode])
            } catch {
                throw .io(path: folder.path, errno: EACCES)
            }
        }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, OwnerOnlyFiles.fileMode)
        guard descriptor >= 0 else { throw .io(path: path, errno: errno) }
        guard flock(descriptor, operation | LOCK_NB) == 0 else {
            let code = errno
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = pread(descriptor, &buffer, buffer.count, 0)
            close(descriptor)
            guard code == EWOULDBLOCK else { throw .io(path: path, errno: code) }
            let pid = count > 0 ? Int32(String(decoding: buffer[0..<count], as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)) : nil
            throw .heldByServer(path: database, pid: pid)
        }
        return SQLiteServerLock(descriptor: descriptor)
    }
}
