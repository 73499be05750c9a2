import Foundation
import GRDB

/// The tracker's on-disk queue: every fix it decided to keep, as the Overland feature it will
/// upload, until a server acknowledged it.
///
/// One SQLite file in WAL mode with `synchronous=FULL`: an `enqueue` is on disk when it returns,
/// so a `kill -9` or a power cut (as far as the disk keeps what was synced) loses nothing that was
/// queued. Fixes leave only through `acknowledge`, after the server's `{"result":"ok"}`.
///
/// Size limit: at most `capacity` fixes. Beyond it the oldest are dropped (a tracker that cannot
/// reach its server for weeks keeps the most recent history, which is the part still wanted
/// live), the count is kept in the file and `travelog track status` shows it, and `enqueue`
/// returns how many were dropped so the tracker can warn. At the default of a million fixes
/// (about 300 MB) a receiver at 1 Hz is covered for 11 days with no filter, years with one.
public final class TrackerQueue: Sendable {
    /// A million fixes.
    public static let defaultCapacity = 1_000_000

    /// One queued fix.
    public struct Item: Hashable, Sendable {
        public var id: Int64
        /// The Overland GeoJSON feature, one line of JSON.
        public var feature: String
    }

    public let path: String
    public let capacity: Int
    private let database: DatabasePool

    /// Opens (creating when needed) the queue at `path`, readable by its owner only.
    /// - Throws: GRDB's `DatabaseError` when the file cannot be opened.
    public init(path: String, capacity: Int = defaultCapacity) throws {
        self.path = path
        self.capacity = max(1, capacity)
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        configuration.busyMode = .timeout(10)
        database = try DatabasePool(path: path, configuration: configuration)
        try Self.migrator.migrate(database)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            chmod(path + suffix, 0o600)
        }
    }

    /// Frozen migrations in plain SQL.
    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("1 queue and state") { db in
            try db.execute(sql: """
                CREATE TABLE queued_fix (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    fix_time REAL NOT NULL,
                    feature TEXT NOT NULL
                );
                CREATE TABLE tracker_state (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                );
                """)
        }
        return migrator
    }

    /// Queues fixes (oldest first) and remembers the last as the last fix.
    /// - Returns: how many of the oldest queued fixes were dropped to stay within `capacity`.
    @discardableResult
    public func enqueue(_ fixes: [(time: Date, feature: String)]) throws -> Int {
        guard let last = fixes.last else { return 0 }
        return try database.write { db in
            for fix in fixes {
                try db.execute(sql: "INSERT INTO queued_fix (fix_time, feature) VALUES (?, ?)",
                               arguments: [fix.time.timeIntervalSince1970, fix.feature])
            }
            try Self.setState(db, "last_fix", last.feature)
            try Self.setState(db, "last_fix_received_at", String(Date().timeIntervalSince1970))
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM queued_fix") ?? 0
            let excess = count - capacity
            guard excess > 0 else { return 0 }
            try db.execute(sql: "DELETE FROM queued_fix WHERE id IN (SELECT id FROM queued_fix ORDER BY id LIMIT ?)",
                           arguments: [excess])
            let previous = try String.fetchOne(db, sql: "SELECT value FROM tracker_state WHERE key = 'dropped'").flatMap(Int.init) ?? 0
            let dropped = previous + excess
            try Self.setState(db, "dropped", String(dropped))
            return excess
        }
    }

    /// The oldest queued fixes, at most `limit`.
    public func oldest(limit: Int) throws -> [Item] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT id, feature FROM queued_fix ORDER BY id LIMIT ?", arguments: [limit])
                .map { Item(id: $0["id"], feature: $0["feature"]) }
        }
    }

    /// Removes fixes the server acknowledged and records the upload.
    public func acknowledge(_ items: [Item], at date: Date = Date()) throws {
        guard let last = items.last else { return }
        try database.write { db in
            try db.execute(sql: "DELETE FROM queued_fix WHERE id <= ?", arguments: [last.id])
            try Self.setState(db, "last_upload_at", String(date.timeIntervalSince1970))
            try Self.setState(db, "last_upload_count", String(items.count))
            try db.execute(sql: "DELETE FROM tracker_state WHERE key = 'last_upload_error'")
        }
    }

    /// Records why the last upload failed (shown by `status`).
    public func recordUploadFailure(_ reason: String, at date: Date = Date()) throws {
        try database.write { db in
            try Self.setState(db, "last_upload_error", reason)
            try Self.setState(db, "last_upload_error_at", String(date.timeIntervalSince1970))
        }
    }

    /// Records what the tracker's source is doing (connected, reconnecting…).
    public func recordSourceState(_ text: String) throws {
        try database.write { db in try Self.setState(db, "source_state", text) }
    }

    /// Records the last heading reported (shown by `status`).
    public func recordHeading(_ text: String) throws {
        try database.write { db in try Self.setState(db, "last_heading", text) }
    }

    /// What `travelog track status` shows.
    public func status() throws -> TrackerStatus {
        try database.read { db in
            let state = Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT key, value FROM tracker_state")
                .map { (row: Row) -> (String, String) in (row["key"], row["value"]) })
            func date(_ key: String) -> Date? { state[key].flatMap(Double.init).map(Date.init(timeIntervalSince1970:)) }
            let queued = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM queued_fix") ?? 0
            let oldest = try Double.fetchOne(db, sql: "SELECT fix_time FROM queued_fix ORDER BY id LIMIT 1")
            return TrackerStatus(queuedCount: queued, capacity: capacity,
                                 oldestQueuedFixTime: oldest.map(Date.init(timeIntervalSince1970:)),
                                 droppedCount: state["dropped"].flatMap(Int.init) ?? 0,
                                 lastFixFeature: state["last_fix"], lastFixReceivedAt: date("last_fix_received_at"),
                                 lastUploadAt: date("last_upload_at"), lastUploadCount: state["last_upload_count"].flatMap(Int.init),
                                 lastUploadError: state["last_upload_error"], lastUploadErrorAt: date("last_upload_error_at"),
                                 sourceState: state["source_state"], lastHeading: state["last_heading"])
        }
    }

    private static func setState(_ db: Database, _ key: String, _ value: String) throws {
        try db.execute(sql: "INSERT INTO tracker_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                       arguments: [key, value])
    }
}
