import Foundation
import Logging
import PostgresNIO
import Testing
import TravelogCore
@testable import TravelogPostgres
import TravelogStore
import TravelogTestSupport

/// Map-area queries on PostgreSQL go through the GiST index on `(locations.position::geometry)`
/// (migration 006) as a prefilter (`PostgresAreaPrefilter`), and the exact filter on the integer
/// columns decides.
/// These tests hold the prefilter to being a superset of every box (large ones, across the 180th
/// meridian, at the poles), the index to being used, and a server without PostGIS to a message
/// that says what to install.
@Suite("PostgreSQL map-area index")
struct PostgresAreaIndexTests {
    static let skipped = PostgresLocationStoreTests.skipped
    static let logger = Logger(label: "travelog.test.area")

    /// Fixes on the edges that matter: the poles, the equator, ±180°, the quarter meridians, one
    /// step of 1e-7° either side of a box's edges, and the middle of a wide box's edge (where a
    /// great circle between its corners, which a geography's box would follow, runs far from it).
    static let latitudes: [Double] = [-90, -89.9999999, -60, -30.5, -30, -0.0000001, 0, 0.0000001,
                                      29.9999999, 30, 30.0000001, 30.5, 59.9999999, 60, 60.0000001, 85, 89.9999999, 90]
    static let longitudes: [Double] = [-180, -179.9999999, -170, -120, -90, -60.0000001, -60, -0.0000001, 0,
                                       0.0000001, 60, 60.0000001, 90, 120, 170, 179.9999999, 180]

    static let boxes: [CoordinateBox] = {
        var boxes = [
            CoordinateBox(south: 30, west: -60, north: 60, east: 60),       // wide: a great circle would bulge
            CoordinateBox(south: -30, west: -120, north: 30, east: 120),    // across the equator
            CoordinateBox(south: -80, west: -170, north: 80, east: 170),
            CoordinateBox(south: -60, west: 170, north: 60, east: -170),    // across the 180th meridian
            CoordinateBox(south: -30, west: 60, north: 30, east: -60),      // across it, 240° wide
            CoordinateBox(south: 85, west: -180, north: 90, east: 180),     // the north pole
            CoordinateBox(south: 60, west: 120, north: 90, east: -120),     // a pole and the 180th meridian
            CoordinateBox(south: -90, west: -90, north: -60, east: 90),     // the south pole, half around
            CoordinateBox(south: -90, west: -180, north: 90, east: 180),    // everything
            CoordinateBox(south: 0, west: 0, north: 0, east: 0),            // a point
            CoordinateBox(south: 30, west: 0, north: 30.5, east: 60),       // a thin band
            CoordinateBox(south: -0.0000001, west: 179.9999999, north: 0.0000001, east: -179.9999999),
            CoordinateBox(south: 10, west: 20, north: 5, east: 30),         // south of its north: empty
            CoordinateBox(south: 10, west: -200, north: 20, east: 200),     // longitudes beyond ±180
        ]
        var generator = SplitMix64(seed: 12)
        for _ in 0..<60 {
            let a = Double(generator.next() % 1801) / 10 - 90, b = Double(generator.next() % 1801) / 10 - 90
            let west = Double(generator.next() % 3601) / 10 - 180, east = Double(generator.next() % 3601) / 10 - 180
            boxes.append(CoordinateBox(south: min(a, b), west: west, north: max(a, b), east: east))
        }
        return boxes
    }()

    /// Every fix of `latitudes` × `longitudes`, and as many more at random, a minute apart.
    static func fixes(device: DeviceID) -> [StoredLocation] {
        var coordinates = latitudes.flatMap { latitude in longitudes.map { (latitude, $0) } }
        var generator = SplitMix64(seed: 7)
        for _ in 0..<coordinates.count {
            coordinates.append((Double(generator.next() % 1_800_000_001) / 1e7 - 90,
                                Double(generator.next() % 3_600_000_001) / 1e7 - 180))
        }
        return coordinates.enumerated().map { index, coordinate in
            StoredLocation(deviceID: device, location: LocationStoreConformanceTests.fix(
                coordinate.0, coordinate.1, secondsAfter: Double(index) * 60), source: .api)
        }
    }

    @Test("an area query finds what the in-memory store finds: wide boxes, the 180th meridian, the poles",
          .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: skipped)))
    func sameAsInMemory() async throws {
        let postgres = try await PostgresTestServer.makeStore()
        defer { postgres.close() }
        let memory = InMemoryLocationStore()
        var users: [(any TravelogStore, UserID)] = []
        for store in [postgres, memory] as [any TravelogStore] {
            let ada = try await store.addUser(named: "ada")
            let phone = try await store.addDevice(named: "phone", userID: ada.id)
            _ = try await store.insert(Self.fixes(device: phone.id))
            users.append((store, ada.id))
        }
        for box in Self.boxes {
            let expected = try await memory.locations(LocationQuery(userID: users[1].1, area: box))
            let found = try await postgres.locations(LocationQuery(userID: users[0].1, area: box))
            #expect(found.map(\.location) == expected.map(\.location), "box \(box)")
        }
        #expect(try await memory.locations(LocationQuery(userID: users[1].1, area: Self.boxes[0])).count > 20)
    }

    /// A store in a schema of its own (named, for sessions that look at its plans) with ada and her phone.
    static func adasStore() async throws -> (url: PostgresConnectionURL, schema: String, store: PostgresLocationStore,
                                             ada: User, phone: Device) {
        let url = try #require(PostgresTestServer.url)
        let schema = PostgresTestServer.newSchemaName()
        let store = try await PostgresTestServer.makeStore(schema: schema)
        let ada = try await store.addUser(named: "ada")
        let phone = try await store.addDevice(named: "phone", userID: ada.id)
        return (url, schema, store, ada, phone)
    }

    @Test("the prefilter holds every fix of the box, in two envelopes across the 180th meridian",
          .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: skipped)))
    func prefilterIsASuperset() async throws {
        let (url, schema, store, ada, phone) = try await Self.adasStore()
        defer { store.close() }
        _ = try await store.insert(Self.fixes(device: phone.id))
        let postgis = store.postgisSchema
        let (misses, candidates, kept) = try await PostgresQueryPlanTests.session(url, schema: schema) { connection in
            var misses: [String] = [], candidates = 0, kept = 0
            for box in Self.boxes {
                guard let prefilter = PostgresAreaPrefilter.condition(box, postgis: postgis, parameter: { "(\($0))::float8" }) else {
                    // No envelope: then the exact filter keeps nothing either.
                    let found = try await Self.count(connection, """
                        SELECT count(*) FROM locations WHERE user_id = \(ada.id.rawValue) AND \(Self.exactFilter(box))
                        """)
                    if found != 0 { misses.append("\(found) in \(box), which has no envelope") }
                    continue
                }
                // The rows the exact filter keeps that the prefilter would not let through.
                let missed = try await Self.count(connection, """
                    SELECT count(*) FROM locations WHERE user_id = \(ada.id.rawValue) AND \(Self.exactFilter(box))
                    AND NOT \(prefilter)
                    """)
                if missed != 0 { misses.append("\(missed) in \(box)") }
                candidates += try await Self.count(connection, """
                    SELECT count(*) FROM locations WHERE user_id = \(ada.id.rawValue) AND \(prefilter)
                    """)
                kept += try await Self.count(connection, """
                    SELECT count(*) FROM locations WHERE user_id = \(ada.id.rawValue) AND \(Self.exactFilter(box))
                    """)
            }
            return (misses, candidates, kept)
        }
        #expect(misses == [], "fixes inside a box that its prefilter does not let through")
        // Planar boxes fit a latitude/longitude box: the candidates are the fixes kept, and those
        // within the margin of an edge (the fixtures put some 1e-7° outside).
        #expect(kept > 0 && candidates >= kept && candidates < kept + kept / 10, "\(candidates) candidates for \(kept)")
        #expect(PostgresAreaPrefilter.envelopes(of: CoordinateBox(south: -60, west: 170, north: 60, east: -170)).count == 2)
        #expect(PostgresAreaPrefilter.envelopes(of: CoordinateBox(south: 10, west: 20, north: 5, east: 30)).isEmpty)
    }

    @Test("an area query on one user's many rows reads the GiST index and is narrowed to the user",
          .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: skipped)))
    func usesTheIndex() async throws {
        let (url, schema, store, ada, phone) = try await Self.adasStore()
        defer { store.close() }
        let bob = try await store.addUser(named: "bob")
        let bobsPhone = try await store.addDevice(named: "phone", userID: bob.id)
        // 40,000 fixes of ada's spread over a 20° square, a few of bob's.
        var generator = SplitMix64(seed: 3)
        for batch in 0..<8 {
            _ = try await store.insert((0..<5_000).map { index in
                StoredLocation(deviceID: phone.id, location: LocationStoreConformanceTests.fix(
                    40 + Double(generator.next() % 200_000) / 10_000, Double(generator.next() % 200_000) / 10_000,
                    secondsAfter: Double(batch * 5_000 + index)), source: .api)
            })
        }
        _ = try await store.insert([StoredLocation(deviceID: bobsPhone.id, location: LocationStoreConformanceTests.fix(
            45, 5, secondsAfter: 0), source: .api)])
        let box = CoordinateBox(south: 45, west: 5, north: 45.2, east: 5.2)
        let query = PostgresLocationRows.select(LocationQuery(userID: ada.id, area: box), postgis: store.postgisSchema)
        let (plan, gistIndexes, tables) = try await PostgresQueryPlanTests.session(url, schema: schema) { connection in
            try await connection.query("ANALYZE locations", logger: Self.logger)
            let gist = try await PostgresQueryPlanTests.values(connection, """
                SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema() AND indexdef LIKE '%USING gist%'
                """, as: String.self)
            // locations and its partitions, which the plan scans.
            let tables = try await PostgresQueryPlanTests.values(connection, """
                SELECT DISTINCT table_name::text FROM information_schema.columns
                WHERE table_schema = current_schema() AND column_name = 'user_id'
                """, as: String.self)
            let rows = try await connection.query(PostgresQuery(unsafeSQL: "EXPLAIN (FORMAT JSON) " + query.sql, binds: query.binds),
                                                  logger: Self.logger).collect()
            return (try rows.map { try $0.decode(String.self) }.joined(), Set(gist), Set(tables))
        }
        let explain = try #require(try JSONSerialization.jsonObject(with: Data(plan.utf8)) as? [[String: Any]]).first ?? [:]
        let indexes = Self.indexNames(in: explain["Plan"] as? [String: Any] ?? [:])
        #expect(!gistIndexes.isEmpty)
        #expect(!indexes.isDisjoint(with: gistIndexes), "the plan reads \(indexes.sorted()), no GiST index: \(plan)")
        // The plan of the store's own query, with its values (PostgresQueryPlanTests reads the
        // generic plans, where the user is a parameter): every scan keeps to ada's rows.
        let scans = Self.scans(in: explain["Plan"] as? [String: Any] ?? [:], tables: tables)
        #expect(!scans.isEmpty)
        for (table, conditions) in scans {
            #expect(conditions.contains { $0.contains("user_id = '\(ada.id.rawValue)'::bigint") }, "\(table): \(conditions)")
        }
        #expect(try await store.locations(LocationQuery(userID: ada.id, area: box)).count > 0)
    }

    @Test("on a server without PostGIS, migration 005 stops with the package to install",
          .enabled(if: PostgresTestServer.url != nil, Comment(rawValue: skipped)))
    func withoutPostGIS() async throws {
        let url = try #require(PostgresTestServer.url)
        let migration = try #require(PostgresMigrations.all.first { $0.identifier == "005_locations_geography" })
        // The migration's own check, asked about an extension no server has.
        let check = migration.statements[0].replacingOccurrences(of: "'postgis'", with: "'travelog_no_such_extension'")
        #expect(check != migration.statements[0])
        let (message, major) = try await PostgresQueryPlanTests.session(url, schema: PostgresTestServer.newSchemaName()) { connection in
            let major = try await PostgresQueryPlanTests.values(connection, "SELECT current_setting('server_version_num')::integer / 10000",
                                                                as: Int32.self).first ?? 0
            do {
                try await connection.query(PostgresQuery(unsafeSQL: check), logger: Self.logger)
                return ("no error", major)
            } catch {
                return (PostgresLocationStore.message(error), major)
            }
        }
        #expect(message.contains("apt-get install postgresql-\(major)-postgis-3"), "\(message)")
        #expect(message.contains("Travelog needs PostGIS") && message.contains("SQLSTATE 0A000"), "\(message)")
    }

    /// The exact filter of `PostgresLocationRows.select`, values inlined.
    static func exactFilter(_ box: CoordinateBox) -> String {
        let joiner = box.west <= box.east ? "AND" : "OR"
        return "latitude_e7 BETWEEN \(StoragePrecision.e7(box.south)) AND \(StoragePrecision.e7(box.north)) "
            + "AND (longitude_e7 >= \(StoragePrecision.e7(box.west)) \(joiner) longitude_e7 <= \(StoragePrecision.e7(box.east)))"
    }

    static func count(_ connection: PostgresConnection, _ sql: String) async throws -> Int {
        Int(try await PostgresQueryPlanTests.values(connection, sql, as: Int64.self).first ?? -1)
    }

    /// The scans of `tables` in a plan, with the conditions each applies.
    static func scans(in node: [String: Any], tables: Set<String>) -> [(table: String, conditions: [String])] {
        var found: [(String, [String])] = []
        if let table = node["Relation Name"] as? String, tables.contains(table) {
            found.append((table, PostgresPlanCheck.conditionKeys.compactMap { node[$0] as? String }))
        }
        for child in node["Plans"] as? [[String: Any]] ?? [] { found += scans(in: child, tables: tables) }
        return found
    }

    /// The names of the indexes a plan reads.
    static func indexNames(in node: [String: Any]) -> Set<String> {
        var names = Set([node["Index Name"] as? String].compactMap { $0 })
        for child in node["Plans"] as? [[String: Any]] ?? [] { names.formUnion(indexNames(in: child)) }
        return names
    }
}
