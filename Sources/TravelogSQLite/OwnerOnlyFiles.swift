import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The database holds everything private a person has (history, password hashes, webhook
/// secrets): its folder is made 0700 when created, and the file, its WAL and its shared-memory
/// index are 0600 whatever the umask. SQLite gives the WAL and `-shm` files the database file's
/// permissions, so creating the file first with 0600 covers them; files of an older version are
/// tightened when opened.
enum OwnerOnlyFiles {
    static let fileMode: mode_t = 0o600
    static let directoryMode: Int = 0o700

    /// Creates the database's folder (0700) and the empty file (0600) when missing, and takes
    /// group and other permissions off the file, its WAL and `-shm` when present.
    static func prepareDatabase(at path: String) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: directory.path) {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: directoryMode])
        }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path]) }
        close(descriptor)
        for file in [path, path + "-wal", path + "-shm", path + "-journal"] {
            restrict(file)
        }
    }

    /// Makes a regular file of ours 0600 (group and other permissions removed); anything else is
    /// left alone.
    static func restrict(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG), status.st_uid == geteuid() else { return }
        if status.st_mode & 0o077 != 0 { _ = chmod(path, status.st_mode & 0o700) }
    }
}
