import Foundation
import GRDB
import TravelogCore
import TravelogStore

/// The embedded default store: one SQLite file (WAL, `synchronous = FULL`, so a committed insert
/// survives a crash or a power cut), through GRDB.
public final class SQLiteLocationStore: TravelogStore {
    /// The database file's path.
    public let path: String
    let pool: DatabasePool
    /// A read-only connection of its own for the lookups every authenticated request makes (a token's
    /// device and user, a session, a user), read on the caller's thread: the pool's asynchronous read
    /// hops to a reader's queue and back, two thread wake-ups that cost about 0.13 ms of a 0.8 ms
    /// request over a kept-alive connection here. Each lookup is one indexed row; concurrent ones
    /// wait for each other, never for the pool's long reads.
    let credentialReader: DatabaseQueue
    /// A connection for checkpoints run beside the writer (`checkpointBesideWriter()`).
    let checkpointer: DatabaseQueue
    /// Batches of locations and devices' reports waiting for the writer, stored together (group commit).
    let insertQueue = SQLiteInsertQueue()
    /// Regions as last decoded, by the row they came from (every stored batch reads its user's regions).
    let decodedRegions = DecodedRegionCache()
    /// The migrations opening applied to a database an older Travelog wrote (`nil` for a new
    /// database or one already current), for the caller to log.
    public let upgrade: SQLiteUpgrade?

    /// Opens (creating if needed) the database at `path` and applies pending migrations. The file,
    /// its WAL and `-shm` are readable by their owner only (`OwnerOnlyFiles`).
    /// A database written by a newer Travelog (migrations this binary does not know) is refused
    /// before anything is written to it.
    /// - Throws: `StoreError.cannotOpen` when the file cannot be opened or migrated, or is newer.
    public init(path: String) throws(StoreError) {
        self.path = path
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // The writer keeps 64 MB of page cache (the default is 2 MB), so a large batch spills few
            // pages before its commit. A reader (up to five) keeps 4 MB: its big reads scan a range
            // once (the journal after an import reads every new row, a window at a time on whichever
            // reader is free), and the operating system's cache serves the rest; at 16 MB each, the
            // readers' caches added up to 80 MB to a 37M-location import.
            try db.execute(sql: db.configuration.readonly ? "PRAGMA cache_size = -4096" : "PRAGMA cache_size = -65536")
        }
        do {
            // A newer version's file is refused before the pool opens it (which would set WAL mode).
            let existing = FileManager.default.fileExists(atPath: path) ? try SQLiteMigrations.applied(atPath: path) : []
            let unknown = SQLiteMigrations.unknown(among: existing)
            guard unknown.isEmpty else {
                throw SQLiteBackupError.newer(path: path, unknownMigrations: unknown.sorted())
            }
            try OwnerOnlyFiles.prepareDatabase(at: path)
            pool = try DatabasePool(path: path, configuration: configuration)
            let applied = try pool.read { try SQLiteMigrations.migrator.appliedIdentifiers($0) }
            try SQLiteMigrations.migrator.migrate(pool)
            var readOnly = configuration
            readOnly.readonly = true
            credentialReader = try DatabaseQueue(path: path, configuration: readOnly)
            checkpointer = try DatabaseQueue(path: path, configuration: configuration)
            let pending = SQLiteMigrations.all.map(\.identifier).filter { !applied.contains($0) }
            upgrade = applied.isEmpty || pending.isEmpty ? nil : SQLiteUpgrade(applied: pending)
        } catch let error as SQLiteBackupError {
            throw .cannotOpen(path: path, reason: error.description)
        } catch {
            throw .cannotOpen(path: path, reason: String(describing: error))
        }
    }

    // MARK: Accounts

    public func addUser(named name: String) async throws(StoreError) -> User {
        let name = try AccountName.validated(name)
        let now = Date()
        return try await write("adding a user") { db throws(StoreError) in
            do {
                // In the write transaction: the first user of an empty store is its administrator.
                try db.execute(sql: "INSERT INTO users (name, created_at_ms, administrator) VALUES (?, ?, NOT EXISTS (SELECT 1 FROM users))",
                               arguments: [name, StoragePrecision.milliseconds(now)])
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                throw .userExists(name: name)
            } catch {
                throw .database(operation: "adding a user", message: String(describing: error))
            }
            let id = db.lastInsertedRowID
            let administrator = (try? Bool.fetchOne(db, sql: "SELECT administrator FROM users WHERE id = ?", arguments: [id])) ?? nil
            return User(id: UserID(rawValue: id), name: name,
                        createdAt: StoragePrecision.date(milliseconds: StoragePrecision.milliseconds(now)),
                        isAdministrator: administrator ?? false)
        }
    }

    public func user(named name: String) async throws(StoreError) -> User? {
        try await read("reading a user") { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.userColumns) FROM users WHERE name = ?", arguments: [name])
                .map(Self.user)
        }
    }

    public func user(id: UserID) async throws(StoreError) -> User? {
        try readCredentials("reading a user") { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.userColumns) FROM users WHERE id = ?"), arguments: [id.rawValue])
                .map(Self.user)
        }
    }

    public func users() async throws(StoreError) -> [User] {
        try await read("listing users") { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.userColumns) FROM users ORDER BY name").map(Self.user)
        }
    }

    public func addDevice(named name: String, userID: UserID) async throws(StoreError) -> Device {
        let name = try AccountName.validated(name)
        let now = StoragePrecision.milliseconds(Date())
        return try await write("adding a device") { db throws(StoreError) in
            do {
                guard try Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE id = ?", arguments: [userID.rawValue]) != nil
                else { throw StoreError.unknownUser(userID) }
                try db.execute(sql: "INSERT INTO devices (user_id, name, created_at_ms) VALUES (?, ?, ?)",
                               arguments: [userID.rawValue, name, now])
            } catch let error as StoreError {
                throw error
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                throw .deviceExists(name: name)
            } catch {
                throw .database(operation: "adding a device", message: String(describing: error))
            }
            return Device(id: DeviceID(rawValue: db.lastInsertedRowID), userID: userID, name: name,
                          createdAt: StoragePrecision.date(milliseconds: now))
        }
    }

    public func device(named name: String, userID: UserID) async throws(StoreError) -> Device? {
        try await read("reading a device") { db in
            try Row.fetchOne(db, sql: "SELECT id, user_id, name, created_at_ms, app, token_scope FROM devices WHERE user_id = ? AND name = ?",
                             arguments: [userID.rawValue, name]).map(Self.device)
        }
    }

    public func device(id: DeviceID) async throws(StoreError) -> Device? {
        try await read("reading a device") { db in
            try Row.fetchOne(db, sql: "SELECT id, user_id, name, created_at_ms, app, token_scope FROM devices WHERE id = ?",
                             arguments: [id.rawValue]).map(Self.device)
        }
    }

    public func devices(userID: UserID) async throws(StoreError) -> [Device] {
        try await read("listing devices") { db in
            try Row.fetchAll(db, sql: "SELECT id, user_id, name, created_at_ms, app, token_scope FROM devices WHERE user_id = ? ORDER BY name",
                             arguments: [userID.rawValue]).map(Self.device)
        }
    }

    static let userColumns = "id, name, created_at_ms, administrator, disabled"

    static func user(_ row: Row) -> User {
        User(id: UserID(rawValue: row[0]), name: row[1], createdAt: StoragePrecision.date(milliseconds: row[2]),
             isAdministrator: row[3], isDisabled: row[4])
    }

    static func device(_ row: Row) -> Device {
        Device(id: DeviceID(rawValue: row[0]), userID: UserID(rawValue: row[1]), name: row[2],
               createdAt: StoragePrecision.date(milliseconds: row[3]),
               app: (row[4] as String?).flatMap(DeviceApp.init(rawValue:)),
               // By name: some queries add their own columns after `app` and leave this one out.
               tokenScope: (row["token_scope"] as String?).flatMap(TokenScope.init(rawValue:)) ?? .write)
    }

    // MARK: Plumbing

    /// Runs a write transaction, mapping database failures to `StoreError.database`.
    func write<T: Sendable>(_ operation: String,
                            _ body: @escaping @Sendable (Database) throws(StoreError) -> T) async throws(StoreError) -> T {
        do {
            return try await pool.write { db in try body(db) }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .database(operation: operation, message: String(describing: error))
        }
    }

    /// Runs a small read on ``credentialReader``, on the caller's thread, mapping database failures to
    /// `StoreError.database`.
    func readCredentials<T>(_ operation: String, _ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try credentialReader.read { db in try body(db) }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .database(operation: operation, message: String(describing: error))
        }
    }

    /// Runs a read, mapping database failures to `StoreError.database`.
    func read<T: Sendable>(_ operation: String, _ body: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try await pool.read { db in try body(db) }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .database(operation: operation, message: String(describing: error))
        }
    }
}

/// The migrations applied to an older Travelog's database as it was opened.
public struct SQLiteUpgrade: Sendable, Equatable {
    public let applied: [String]
}
