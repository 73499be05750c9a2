import ArgumentParser
import Foundation
import Testing
@testable import TravelogCLI
import TravelogCore
import TravelogPostgres
@testable import TravelogSQLite
import TravelogStore
import TravelogTestSupport

/// `travelog backup` and `travelog restore` (issue 27): consistent copies of a live database, checked
/// before anything is replaced.
@Suite("travelog backup and restore")
struct BackupRestoreTests {
    /// A database with one user and device and `count` fixes a second apart from `start`.
    static func database(in folder: URL, count: Int, start: Int = 0) async throws -> (store: SQLiteLocationStore, device: DeviceID, user: UserID) {
        let path = folder.appendingPathComponent("travelog.sqlite").path
        let store = try SQLiteLocationStore(path: path)
        let user = try await store.addUser(named: "ada")
        let device = try await store.addDevice(named: "phone", userID: user.id)
        if count > 0 { _ = try await store.insert(fixes(device: device.id, range: start..<(start + count))) }
        return (store, device.id, user.id)
    }

    /// The store at `path` again, with its device.
    static func reopen(_ path: String) throws -> (store: SQLiteLocationStore, device: DeviceID, user: UserID) {
        let store = try SQLiteLocationStore(path: path)
        return (store, DeviceID(rawValue: 1), UserID(rawValue: 1))
    }

    static func fixes(device: DeviceID, range: Range<Int>) -> [StoredLocation] {
        range.map { index in
            let coordinate = Coordinate(validLatitude: 52 + Double(index % 1000) * 1e-4, longitude: 13 + Double(index / 1000) * 1e-3)!
            return StoredLocation(deviceID: device, location: Location(coordinate: coordinate, horizontalAccuracyMeters: 5,
                                                                       timestamp: Date(timeIntervalSince1970: 1_700_000_000 + Double(index))),
                                  source: .overland)
        }
    }

    /// The timestamps of every fix in a database file (opened as the server would).
    static func timestamps(_ path: String) async throws -> Set<Date> {
        let store = try SQLiteLocationStore(path: path)
        var all = Set<Date>()
        for user in try await store.users() {
            all.formUnion(try await store.locations(LocationQuery(userID: user.id)).map(\.location.timestamp))
        }
        return all
    }

    /// The fixes a writer had acknowledged, and a signal after each acknowledged batch.
    final class Acknowledged: @unchecked Sendable {
        private let lock = NSLock()
        private var dates: [Date] = []
        let batchStored = DispatchSemaphore(value: 0)

        func add(_ batch: [StoredLocation]) {
            lock.withLock { dates += batch.map(\.location.timestamp) }
            batchStored.signal()
        }

        var snapshot: Set<Date> { lock.withLock { Set(dates) } }
    }

    @Test("a backup taken while a writer keeps inserting holds every fix acknowledged before it began, and passes integrity_check")
    func backupDuringWrites() async throws {
        let folder = TestDirectory.makeFolder("backup")
        let (store, device, _) = try await Self.database(in: folder, count: 20_000)
        let acknowledged = Acknowledged()
        acknowledged.add(Self.fixes(device: device, range: 0..<20_000))
        let writer = Task {
            var next = 20_000
            while !Task.isCancelled {
                let batch = Self.fixes(device: device, range: next..<(next + 50))
                _ = try await store.insert(batch)
                acknowledged.add(batch)
                next += 50
            }
        }
        try await Task.sleep(for: .milliseconds(20))
        let before = acknowledged.snapshot
        let copy = folder.appendingPathComponent("copy.sqlite").path
        let stepsDuringWrites = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int, any Error>) in
            DispatchQueue.global().async {
                var steps = 0
                do {
                    try SQLiteBackup.copy(from: store.path, to: copy, pagesPerStep: 8) { _ in
                        // Until a few batches more are stored, the copy waits between its steps: writes
                        // land while it runs, whatever the speed of the machine.
                        if steps < 3 { _ = acknowledged.batchStored.wait(timeout: .now() + 30) }
                        steps += 1
                    }
                    continuation.resume(returning: steps)
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
        writer.cancel()
        _ = await writer.result
        let after = acknowledged.snapshot
        #expect(stepsDuringWrites > 3)
        #expect(after.count > before.count)
        #expect(try SQLiteRestore.check(copy).pendingMigrations.isEmpty)
        let copied = try await Self.timestamps(copy)
        #expect(before.isSubset(of: copied))
        #expect(copied.isSubset(of: after))
        let attributes = try FileManager.default.attributesOfItem(atPath: copy)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".partial-") }
        #expect(leftovers.isEmpty)
    }

    @Test("restore puts the backup in place, keeps the replaced database aside and removes its map index")
    func roundTrip() async throws {
        let folder = TestDirectory.makeFolder("restore")
        let path = try await Self.database(in: folder, count: 100).store.path
        let backup = folder.appendingPathComponent("backup.sqlite").path
        try await ImportExportCommandTests.run(["backup", "--db", path, backup])
        let (store, device, _) = try Self.reopen(path)
        _ = try await store.insert(Self.fixes(device: device, range: 100..<150))
        // While the store is open (as a running command has it), the database is not replaced.
        #expect(throws: SQLiteBackupError.inUse(path: path)) { _ = try SQLiteRestore.restore(from: backup, over: path) }
        _ = consume store
        let index = path + "-history-index"
        try FileManager.default.createDirectory(atPath: index, withIntermediateDirectories: true)
        try await ImportExportCommandTests.run(["restore", "--db", path, backup])
        #expect(try await Self.timestamps(path).count == 100)
        #expect(try await Self.timestamps(path + ".before-restore").count == 150)
        #expect(!FileManager.default.fileExists(atPath: index))
        #expect(!FileManager.default.fileExists(atPath: path + ".restoring"))
    }

    /// Restoring `file` over a database of 10 fixes fails with `expected`, and changes nothing.
    func refuses(_ file: (URL, String) throws -> String, _ expected: (SQLiteBackupError) -> Bool) async throws {
        let folder = TestDirectory.makeFolder("restore-refused")
        let path = try await Self.database(in: folder, count: 10).store.path
        let backup = folder.appendingPathComponent("backup.sqlite").path
        try SQLiteBackup.copy(from: path, to: backup)
        let candidate = try file(folder, backup)
        #expect {
            _ = try SQLiteRestore.restore(from: candidate, over: path)
        } throws: { error in
            (error as? SQLiteBackupError).map(expected) ?? false
        }
        #expect(try await Self.timestamps(path).count == 10)
        #expect(!FileManager.default.fileExists(atPath: path + ".before-restore"))
    }

    @Test("restore refuses a corrupt file")
    func refusesCorrupt() async throws {
        try await refuses({ _, backup in
            let handle = try #require(FileHandle(forUpdatingAtPath: backup))
            let size = try handle.seekToEnd()
            // Every page after the first two overwritten: the header stays readable, the b-trees do not.
            try handle.seek(toOffset: 8192)
            handle.write(Data(repeating: 0x5A, count: Int(size) - 8192))
            try handle.close()
            return backup
        }, { error in
            if case .corrupt = error { return true }
            if case .sqlite = error { return true }
            return false
        })
    }

    @Test("restore refuses a SQLite file that is not a Travelog database")
    func refusesForeign() async throws {
        try await refuses({ folder, _ in
            let path = folder.appendingPathComponent("other.sqlite").path
            let connection = try SQLiteConnection(path: path, readOnly: false)
            try connection.execute("CREATE TABLE notes (text TEXT)")
            connection.close()
            return path
        }, { if case .notTravelog = $0 { true } else { false } })
    }

    /// Marks a database as written by a newer Travelog: a migration this binary does not know.
    static func makeNewer(_ path: String) throws {
        let connection = try SQLiteConnection(path: path, readOnly: false)
        try connection.execute("INSERT INTO grdb_migrations (identifier) VALUES ('999_from_the_future')")
        try connection.execute("PRAGMA journal_mode = DELETE")
        connection.close()
    }

    @Test("restore refuses a database written by a newer Travelog")
    func refusesNewer() async throws {
        try await refuses({ _, backup in
            try Self.makeNewer(backup)
            return backup
        }, { $0 == .newer(path: $0.pathForNewer, unknownMigrations: ["999_from_the_future"]) })
    }

    @Test("restore refuses a database a running server holds, and goes ahead once it stopped")
    func refusesHeld() async throws {
        let folder = TestDirectory.makeFolder("restore-held")
        let path = try await Self.database(in: folder, count: 10).store.path
        let backup = folder.appendingPathComponent("backup.sqlite").path
        try SQLiteBackup.copy(from: path, to: backup)
        // What `travelog serve` takes before it opens the database.
        var hold: SQLiteServerLock? = try SQLiteServerLock.server(database: path)
        #expect(throws: SQLiteBackupError.heldByServer(path: path, pid: getpid())) {
            _ = try SQLiteRestore.restore(from: backup, over: path)
        }
        await #expect(throws: (any Error).self) { try await ImportExportCommandTests.run(["restore", "--db", path, backup]) }
        #expect(!FileManager.default.fileExists(atPath: path + ".before-restore"))
        withExtendedLifetime(hold) {}
        hold = nil
        let outcome = try SQLiteRestore.restore(from: backup, over: path)
        #expect(outcome.keptAside == path + ".before-restore")
        // A restore under way keeps a server from starting.
        let restoring = try SQLiteServerLock.exclusive(database: path)
        #expect(throws: SQLiteBackupError.restoreUnderWay(path: path)) { _ = try SQLiteServerLock.server(database: path) }
        withExtendedLifetime(restoring) {}
    }

    @Test("every command refuses a database a newer Travelog wrote, and leaves it unchanged")
    func newerDatabaseRefused() async throws {
        let folder = TestDirectory.makeFolder("newer")
        let source = try await Self.database(in: folder, count: 10).store.path
        let path = folder.appendingPathComponent("newer.sqlite").path
        try SQLiteBackup.copy(from: source, to: path)
        try Self.makeNewer(path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
            _ = try SQLiteLocationStore(path: path)
        } throws: { error in
            String(describing: error).contains("written by a newer Travelog") && String(describing: error).contains("999_from_the_future")
        }
        for arguments in [["stats", "--db", path], ["user", "list", "--db", path], ["serve", "--db", path, "--port", "0"]] {
            await #expect(throws: (any Error).self, "\(arguments)") { try await ImportExportCommandTests.run(arguments) }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("an older database's missing migrations run once when it is opened, and are reported")
    func olderDatabaseUpgraded() async throws {
        let folder = TestDirectory.makeFolder("older")
        let source = try await Self.database(in: folder, count: 10).store.path
        let path = folder.appendingPathComponent("older.sqlite").path
        try SQLiteBackup.copy(from: source, to: path)
        // 008 (an index) is undone: later migrations add tables and columns, which cannot run twice.
        let last = try #require(SQLiteMigrations.all.first { $0.identifier == "008_visit_ends" })
        let connection = try SQLiteConnection(path: path, readOnly: false)
        try connection.execute("DROP INDEX visits_device_end")
        try connection.execute("DELETE FROM grdb_migrations WHERE identifier = '\(last.identifier)'")
        connection.close()
        #expect(try SQLiteRestore.check(path).pendingMigrations == [last.identifier])
        #expect(try SQLiteLocationStore(path: path).upgrade == SQLiteUpgrade(applied: [last.identifier]))
        #expect(try SQLiteLocationStore(path: path).upgrade == nil)
        #expect(try SQLiteRestore.check(path).pendingMigrations.isEmpty)
        #expect(try await Self.timestamps(path).count == 10)
    }

    @Test("backup --dir --keep N keeps the newest N timestamped backups and nothing else is touched")
    func rotation() async throws {
        let folder = TestDirectory.makeFolder("rotation")
        let (store, _, _) = try await Self.database(in: folder, count: 10)
        let dir = folder.appendingPathComponent("backups").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: dir + "/notes.txt"))
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for hour in 0..<5 {
            _ = try BackupCommand.backUp(database: store.path, file: nil, dir: dir, keep: 3, now: start.addingTimeInterval(Double(hour) * 3600))
        }
        // What a backup killed mid-way leaves, and one under way (written a moment ago).
        let killed = dir + "/.travelog-20260101T000000Z.sqlite.partial-abc"
        let underWay = dir + "/.travelog-20260101T000001Z.sqlite.partial-def"
        for path in [killed, underWay] { try Data("partial".utf8).write(to: URL(fileURLWithPath: path)) }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: killed)
        _ = try BackupCommand.backUp(database: store.path, file: nil, dir: dir, keep: 3, now: start.addingTimeInterval(4 * 3600))
        #expect(!FileManager.default.fileExists(atPath: killed))
        #expect(FileManager.default.fileExists(atPath: underWay))
        try FileManager.default.removeItem(atPath: underWay)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        let kept: [String] = (2..<5).map { (hour: Int) -> String in SQLiteBackupRotation.fileName(at: start.addingTimeInterval(Double(hour) * 3600)) }
        #expect(names == ["notes.txt"] + kept)
        try await ImportExportCommandTests.run(["backup", "--db", store.path, "--dir", dir, "--keep", "1"])
        #expect(SQLiteBackupRotation.backups(in: dir).count == 1)
        // An existing folder as FILE is the same as --dir.
        try await ImportExportCommandTests.run(["backup", "--db", store.path, dir, "--keep", "1"])
        #expect(SQLiteBackupRotation.backups(in: dir).count == 1)
        #expect(FileManager.default.fileExists(atPath: dir + "/notes.txt"))
        #expect(throws: (any Error).self) { try BackupCommand.parse(["--keep", "2", "x.sqlite"]) }
        #expect(throws: (any Error).self) { try BackupCommand.parse(["x.sqlite", "--dir", dir]) }
        #expect(throws: (any Error).self) { try BackupCommand.parse([]) }
    }

    @Test("serve's backup schedule writes backups into its folder and keeps the newest N")
    func schedule() async throws {
        let folder = TestDirectory.makeFolder("schedule")
        let (store, _, _) = try await Self.database(in: folder, count: 10)
        let dir = folder.appendingPathComponent("scheduled").path
        let schedule = BackupSchedule(database: store.path, folder: dir, intervalSeconds: 1, keep: 2)
        let task = Task { await schedule.run() }
        // Waits (up to a minute, however slow the machine) until the schedule has rotated: the first
        // backup it took is gone and two newer ones are kept. A new backup lands before the oldest is
        // removed (so there are never fewer than two whole ones), so for that moment there are three.
        var first: String?
        var rotated = false
        for _ in 0..<600 where !rotated {
            try await Task.sleep(for: .milliseconds(100))
            let backups = SQLiteBackupRotation.backups(in: dir)
            #expect(backups.count <= 3)
            if first == nil { first = backups.first }
            rotated = first.map { backups.count == 2 && !backups.contains($0) } ?? false
        }
        task.cancel()
        _ = await task.value
        #expect(rotated)
        for backup in SQLiteBackupRotation.backups(in: dir) { #expect(try SQLiteRestore.check(backup).pendingMigrations.isEmpty) }
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--backup-every", "24h"]) }
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--backup-every", "soon", "--backup-dir", dir]) }
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--db", "postgres://u@h/d", "--backup-every", "1h", "--backup-dir", dir]) }
        #expect(BackupInterval.seconds("24h") == 86400)
        #expect(BackupInterval.seconds("90") == 90)
    }

    @Test("for PostgreSQL, backup explains pg_dump and pg_restore for that address without its password")
    func postgresAdvice() async throws {
        let advice = BackupCommand.postgresAdvice(for: try .init("postgres://ada:s3cret@db.example:5433/travel?sslmode=require&schema=tl"))
        #expect(advice.contains("pg_dump --format=custom --schema=tl --file="))
        #expect(advice.contains("'postgresql://ada@db.example:5433/travel?sslmode=require'"))
        #expect(advice.contains("pg_restore --clean --if-exists --no-owner --schema=tl --dbname='postgresql://ada@db.example:5433/travel?sslmode=require'"))
        #expect(!advice.contains("s3cret"))
        for command in ["backup", "restore"] {
            await #expect(throws: ExitCode(2)) {
                try await ImportExportCommandTests.run([command, "--db", "postgres://ada:s3cret@db.example/travel", "copy.dump"])
            }
        }
    }
}

extension SQLiteBackupError {
    /// The path of a `.newer` error (for comparing the rest).
    var pathForNewer: String {
        if case .newer(let path, _) = self { return path }
        return ""
    }
}
