import Foundation
import Testing
import TravelogSQLite
import TravelogStore
import TravelogTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The database holds a person's whole history, password hashes and webhook secrets.
@Suite("Database files are their owner's only", .serialized)
struct OwnerOnlyFileTests {
    static func mode(_ path: String) -> mode_t? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o777 : nil
    }

    @Test("a new database, its WAL and -shm are 0600 and its new folder 0700, even under umask 000")
    func newDatabase() async throws {
        let folder = TestDirectory.makeFolder("perm").appendingPathComponent("data/travelog")
        let path = folder.appendingPathComponent("travelog.sqlite").path
        let previous = umask(0)
        defer { umask(previous) }
        let store = try SQLiteLocationStore(path: path)
        _ = try await store.addUser(named: "ada")
        #expect(Self.mode(path) == 0o600)
        #expect(Self.mode(path + "-wal") == 0o600)
        #expect(Self.mode(path + "-shm") == 0o600)
        #expect(Self.mode(folder.path) == 0o700)
    }

    @Test("an existing database made 0644 by an earlier version is 0600 once opened")
    func existingDatabase() async throws {
        let path = TestDirectory.makeFolder("perm").appendingPathComponent("travelog.sqlite").path
        _ = try await SQLiteLocationStore(path: path).addUser(named: "ada")
        #expect(chmod(path, 0o644) == 0)
        _ = try SQLiteLocationStore(path: path)
        #expect(Self.mode(path) == 0o600)
    }
}
