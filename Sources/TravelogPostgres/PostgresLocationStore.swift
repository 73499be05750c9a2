import Foundation
import Logging
import PostgresNIO
import Synchronization
import TravelogCore
import TravelogStore

/// The store for operators who outgrow one file: PostgreSQL, through PostgresNIO's pooled client.
/// The same semantics as `SQLiteLocationStore` (the same conformance suites), on a schema of its own
/// (`PostgresMigrations`) where every table carries `user_id`.
///
/// Every concern of the store has an extension file of its own, as in the SQLite store.
public final class PostgresLocationStore: TravelogStore {
    /// The server and database, without the password.
    public let url: PostgresConnectionURL
    let client: PostgresClient
    let logger: Logger
    /// The LISTEN/NOTIFY channel of the store's schema (`StoredLocationFeed`).
    let liveChannel: String
    /// Where the monthly partitions of `locations` end, milliseconds (`PostgresPartitions`).
    let partitionsThroughMilliseconds = Mutex<Int64>(0)
    /// The user of each device the store has written for (`owners(of:)`).
    let deviceOwners = Mutex<[DeviceID: UserID]>([:])
    /// How long a request waits for a connection before failing (`withLease`).
    let leaseTimeout: Duration
    /// The schema PostGIS lives in, quoted for SQL (area queries name its operator and function).
    let postgisSchema: String
    /// The migrations opening applied to a database an older Travelog wrote (empty for a new
    /// database or one already current), for the caller to log.
    public let upgrade: [String]
    private let running: Task<Void, Never>

    /// Connects to the database at `url` and applies pending migrations (several processes may
    /// start at once: the first migrates, the others wait for it).
    /// - Parameter schema: a schema of its own to create and use instead of the user's default one
    ///   (letters, digits and `_`; the tests give each store a new one); the address's when `nil`.
    /// - Parameter leaseTimeout: how long a request waits for a connection while the database is
    ///   down or every connection is busy before it fails (the server answers 503).
    /// - Throws: `StoreError.cannotOpen` when the server cannot be reached or the schema migrated.
    public init(url: PostgresConnectionURL, schema: String? = nil, maximumConnections: Int = 20,
                leaseTimeout: Duration = .seconds(10)) async throws(StoreError) {
        self.url = url
        self.leaseTimeout = leaseTimeout
        let schema = schema ?? url.schema
        liveChannel = String(("travelog_live_" + (schema ?? "default")).prefix(63))
        if let schema, schema.isEmpty || !schema.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }) {
            throw .cannotOpen(path: url.description, reason: "'\(schema)' is not a plain schema name")
        }
        var configuration = url.clientConfiguration(searchPath: schema)
        configuration.options.maximumConnections = maximumConnections
        let client = PostgresClient(configuration: configuration)
        self.client = client
        logger = Logger(label: "travelog.postgres")
        running = Task { await client.run() }
        do {
            upgrade = try await PostgresMigrator(client: client, logger: logger).migrate(creatingSchema: schema)
            let rows = try await client.query("""
                SELECT quote_ident(n.nspname) FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
                WHERE e.extname = 'postgis'
                """, logger: logger).collect()
            guard let row = rows.first else {
                throw StoreError.cannotOpen(path: url.description,
                                            reason: "migration 005 is recorded but PostGIS is not in the database (was the extension dropped?)")
            }
            postgisSchema = try row.decode(String.self)
        } catch let error as StoreError {
            running.cancel()
            throw error
        } catch {
            running.cancel()
            throw .cannotOpen(path: url.description, reason: Self.message(error))
        }
        await createPartitionsIfDue()
    }

    deinit { running.cancel() }

    /// Closes the connections; the store cannot be used afterwards.
    public func close() { running.cancel() }

    // MARK: Accounts

    static let deviceColumns = "id, user_id, name, created_at_ms, app, token_scope"

    public func addUser(named name: String) async throws(StoreError) -> User {
        let name = try AccountName.validated(name)
        let now = StoragePrecision.milliseconds(Date())
        // Users' writes one at a time (they are rare): the first user of an empty store is its
        // administrator, however many are added at once.
        return try await transaction("adding a user") { connection in
            try await Self.lockUsers(connection, logger: logger)
            let rows: [PostgresRow]
            do {
                rows = try await connection.run("""
                    INSERT INTO users (name, created_at_ms, administrator)
                    VALUES (\(name), \(now), NOT EXISTS (SELECT 1 FROM users)) RETURNING \(unescaped: Self.userColumns)
                    """, logger: logger).collect()
            } catch where Self.isUniqueViolation(error) {
                throw StoreError.userExists(name: name)
            }
            return try Self.user(Self.decodeFirst(rows, "adding a user"))
        }
    }

    public func user(named name: String) async throws(StoreError) -> User? {
        try await rows("reading a user", "SELECT \(unescaped: Self.userColumns) FROM users WHERE name = \(name)").first.map(Self.user)
    }

    public func user(id: UserID) async throws(StoreError) -> User? {
        try await rows("reading a user", "SELECT \(unescaped: Self.userColumns) FROM users WHERE id = \(id.rawValue)").first.map(Self.user)
    }

    public func users() async throws(StoreError) -> [User] {
        try await rows("listing users", "SELECT \(unescaped: Self.userColumns) FROM users ORDER BY name COLLATE \"C\"").map(Self.user)
    }

    public func addDevice(named name: String, userID: UserID) async throws(StoreError) -> Device {
        let name = try AccountName.validated(name)
        let now = StoragePrecision.milliseconds(Date())
        let rows: [PostgresRow]
        do {
            // Inserting from the user's row: no row (no id back) when there is no such user.
            rows = try await withLease { connection in
                try await connection.run("""
                    INSERT INTO devices (user_id, name, created_at_ms)
                    SELECT id, \(name), \(now) FROM users WHERE id = \(userID.rawValue) RETURNING id
                    """, logger: logger).collect()
            }
        } catch where Self.isUniqueViolation(error) {
            throw .deviceExists(name: name)
        } catch {
            throw Self.storeError(error, "adding a device")
        }
        guard let row = rows.first else { throw .unknownUser(userID) }
        let id = try Self.decode(row, as: Int64.self, "adding a device")
        return Device(id: DeviceID(rawValue: id), userID: userID, name: name, createdAt: StoragePrecision.date(milliseconds: now))
    }

    public func device(named name: String, userID: UserID) async throws(StoreError) -> Device? {
        try await rows("reading a device", """
            SELECT \(unescaped: Self.deviceColumns) FROM devices WHERE user_id = \(userID.rawValue) AND name = \(name)
            """).first.map(Self.device)
    }

    public func device(id: DeviceID) async throws(StoreError) -> Device? {
        try await rows("reading a device", "SELECT \(unescaped: Self.deviceColumns) FROM devices WHERE id = \(id.rawValue)")
            .first.map(Self.device)
    }

    public func devices(userID: UserID) async throws(StoreError) -> [Device] {
        try await rows("listing devices", """
            SELECT \(unescaped: Self.deviceColumns) FROM devices WHERE user_id = \(userID.rawValue) ORDER BY name COLLATE "C"
            """).map(Self.device)
    }

    static let userColumns = "id, name, created_at_ms, administrator, disabled"

    static func user(_ row: PostgresRow) throws(StoreError) -> User {
        let (id, name, created, administrator, disabled) = try decode(row, as: (Int64, String, Int64, Bool, Bool).self, "reading a user")
        return User(id: UserID(rawValue: id), name: name, createdAt: StoragePrecision.date(milliseconds: created),
                    isAdministrator: administrator, isDisabled: disabled)
    }

    static func device(_ row: PostgresRow) throws(StoreError) -> Device {
        let (id, userID, name, created, app, scope) = try decode(row, as: (Int64, Int64, String, Int64, String?, String).self,
                                                                 "reading a device")
        return Device(id: DeviceID(rawValue: id), userID: UserID(rawValue: userID), name: name,
                      createdAt: StoragePrecision.date(milliseconds: created), app: app.flatMap(DeviceApp.init(rawValue:)),
                      tokenScope: TokenScope(rawValue: scope) ?? .write)
    }
}
