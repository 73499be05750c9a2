import Foundation
import Logging
import ServiceLifecycle
import Testing
import TravelogCore
import TravelogPostgres
import TravelogRender
import TravelogSQLite
import TravelogStore
import TravelogTestSupport
@testable import TravelogServer

@Suite("History tile indices saved next to the database, or in a folder of their own for PostgreSQL")
struct HistoryIndexSavingTests {
    /// A database the saved indices belong to: a SQLite file, or a new schema of the PostgreSQL
    /// test server (`TRAVELOG_TEST_POSTGRES_URL`, when set).
    struct Backend: CustomTestStringConvertible, Sendable {
        let name: String
        /// A new database; `open` of the result opens it again, on a connection of its own.
        let make: @Sendable (URL) -> @Sendable () async throws -> any TravelogStore
        var testDescription: String { name }

        static let all: [Backend] = [
            Backend(name: "SQLite") { folder in
                let path = folder.appendingPathComponent("travelog.sqlite").path
                return { try SQLiteLocationStore(path: path) }
            },
        ] + (ProcessInfo.processInfo.environment["TRAVELOG_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }.map { server in
            [Backend(name: "PostgreSQL") { _ in
                let schema = "travelog_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
                return { try await PostgresLocationStore(url: PostgresConnectionURL(server), schema: schema, maximumConnections: 4) }
            }]
        } ?? [])
    }

    struct Setup {
        /// Opens the database again (as another process does).
        let open: @Sendable () async throws -> any TravelogStore
        let directory: URL
        let user: User
        let phone: Device
    }

    static let start = Date(timeIntervalSince1970: 1_709_251_200)  // 2024-03-01

    /// Tiles on their own connection to the database (as a server process of its own has), logging only errors.
    static func tiles(_ setup: Setup) async throws -> HistoryTiles {
        var logger = Logger(label: "history-index-test")
        logger.logLevel = .error
        return HistoryTiles(store: try await setup.open(), indexDirectory: setup.directory, logger: logger)
    }

    /// A fix a minute walking east from Berlin, for the given minutes after ``start``.
    static func walk(minutes: Range<Int>, device: DeviceID) -> [StoredLocation] {
        minutes.map { minute in
            let location = Location(coordinate: Coordinate(validLatitude: 52.52, longitude: 13.40 + Double(minute) * 0.0005)!,
                                    timestamp: start.addingTimeInterval(Double(minute) * 60))
            return StoredLocation(deviceID: device, location: location, source: .fileImport)
        }
    }

    /// A database with 500 fixes of ada's phone, and the folder of its saved indices.
    static func setUp(_ backend: Backend) async throws -> Setup {
        let folder = TestDirectory.makeFolder("history-index")
        let open = backend.make(folder)
        let store = try await open()
        let user = try await store.addUser(named: "ada")
        let phone = try await store.addDevice(named: "phone", userID: user.id)
        _ = try await store.insert(walk(minutes: 0..<500, device: phone.id))
        return Setup(open: open, directory: folder.appendingPathComponent("history-index"), user: user, phone: phone)
    }

    /// A server start on the database (a connection of its own, as another process has): its
    /// tiles, and how they obtained the user's index (`fixesSinceSave` is `nil` when it was built).
    static func serverStart(_ setup: Setup) async throws -> (tiles: HistoryTiles, obtained: ObtainedIndex) {
        let tiles = try await Self.tiles(setup)
        return (tiles, try await tiles.obtainIndex(userID: setup.user.id))
    }

    /// Builds (or reads) the index as a page would, and saves it as the server does.
    static func buildAndSave(_ setup: Setup) async throws {
        let tiles = try await Self.tiles(setup)
        _ = try await tiles.withIndex(userID: setup.user.id) { $0.index.fixCount }
        tiles.saveIndex(userID: setup.user.id)
    }

    static func count(_ obtained: ObtainedIndex, minutes: Range<Int>) -> Int {
        obtained.loaded.index.summary(filter: .init(from: start.addingTimeInterval(Double(minutes.lowerBound) * 60),
                                                    to: start.addingTimeInterval(Double(minutes.upperBound - 1) * 60))).fixCount
    }

    @Test("a restart reads the saved index instead of building it from the store", arguments: Backend.all)
    func restartReusesSavedIndex(backend: Backend) async throws {
        let setup = try await Self.setUp(backend)
        let (_, first) = try await Self.serverStart(setup)
        #expect(first.fixesSinceSave == nil)  // nothing saved yet: built
        try await Self.buildAndSave(setup)
        #expect(FileManager.default.fileExists(atPath: setup.directory.appendingPathComponent("user-\(setup.user.id.rawValue).index").path))
        let (_, again) = try await Self.serverStart(setup)
        #expect(again.fixesSinceSave == 0)
        #expect(again.loaded.index.fixCount == 500)
        #expect(again.loaded.index.summary(filter: .init()) == first.loaded.index.summary(filter: .init()))
        #expect(again.loaded.deviceIndices == first.loaded.deviceIndices)
    }

    @Test("locations stored while the server was down, by another process, of a device old or new, show after the restart",
          arguments: Backend.all)
    func laterLocationsWhileDown(backend: Backend) async throws {
        let setup = try await Self.setUp(backend)
        try await Self.buildAndSave(setup)
        // `travelog import` into the same database while no server runs.
        let other = try await setup.open()
        _ = try await other.insert(Self.walk(minutes: 500..<600, device: setup.phone.id))
        let watch = try await other.addDevice(named: "watch", userID: setup.user.id)
        _ = try await other.insert(Self.walk(minutes: 0..<20, device: watch.id))
        let (_, obtained) = try await Self.serverStart(setup)
        #expect(obtained.fixesSinceSave == 120)  // appended to the saved index, not built
        #expect(obtained.loaded.index.fixCount == 620)
        #expect(Self.count(obtained, minutes: 500..<600) == 100)
        #expect(obtained.loaded.index.summary(filter: .init(devices: [try #require(obtained.loaded.deviceIndices[watch.id])])).fixCount == 20)
    }

    @Test("locations stored into an older month while the server was down make it build the index anew, and show",
          arguments: Backend.all)
    func olderLocationsWhileDown(backend: Backend) async throws {
        let setup = try await Self.setUp(backend)
        try await Self.buildAndSave(setup)
        let other = try await setup.open()
        _ = try await other.insert(Self.walk(minutes: -44_640 ..< -44_590, device: setup.phone.id))  // a month earlier
        let (_, obtained) = try await Self.serverStart(setup)
        #expect(obtained.fixesSinceSave == nil)
        #expect(obtained.loaded.index.fixCount == 550)
        #expect(Self.count(obtained, minutes: -44_640 ..< -44_590) == 50)
        // Also between two saved fixes: the same count as before but one more than the index holds.
        try await Self.buildAndSave(setup)
        let between = Location(coordinate: Coordinate(validLatitude: 52.53, longitude: 13.41)!, timestamp: Self.start.addingTimeInterval(90))
        _ = try await other.insert([StoredLocation(deviceID: setup.phone.id, location: between, source: .fileImport)])
        let (_, rebuilt) = try await Self.serverStart(setup)
        #expect(rebuilt.fixesSinceSave == nil)
        #expect(rebuilt.loaded.index.fixCount == 551)
    }

    @Test("a damaged, truncated or foreign index file is ignored: the index is built anew and saved again")
    func damagedFiles() async throws {
        let setup = try await Self.setUp(Backend.all[0])
        try await Self.buildAndSave(setup)
        let file = setup.directory.appendingPathComponent("user-\(setup.user.id.rawValue).index")
        let good = try Data(contentsOf: file)
        var flipped = good
        flipped[good.count / 2] ^= 0xFF
        for bad in [good.prefix(good.count / 2), good.prefix(3), flipped, Data("not an index".utf8), Data()] {
            try bad.write(to: file)
            let (_, obtained) = try await Self.serverStart(setup)
            #expect(obtained.fixesSinceSave == nil)
            #expect(obtained.loaded.index.fixCount == 500)
            try await Self.buildAndSave(setup)
            #expect(try await Self.serverStart(setup).obtained.fixesSinceSave == 0)
        }
    }

    @Test("the server reads saved indices as it starts, saves one that grew, and saves what landed since at shutdown",
          arguments: Backend.all)
    func serviceStartAndShutdown(backend: Backend) async throws {
        let setup = try await Self.setUp(backend)
        try await Self.buildAndSave(setup)
        let file = setup.directory.appendingPathComponent("user-\(setup.user.id.rawValue).index")
        _ = try await setup.open().insert(Self.walk(minutes: 500..<600, device: setup.phone.id))
        let tiles = try await Self.tiles(setup)
        var logger = Logger(label: "history-index-test")
        logger.logLevel = .error
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [.init(service: tiles)], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            // No request asks for the index: the start reads it, appends the 100 fixes and saves it.
            var saved = 0
            // A bound, not a wait (up to a minute: every test runs at once and shares two cores).
            for _ in 0..<1_200 where saved != 600 {
                saved = (try? HistoryIndexFile.read(from: file).loaded.index.fixCount) ?? 0
                if saved != 600 { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(saved == 600)
            tiles.landed(Self.walk(minutes: 600..<650, device: setup.phone.id).map(\.location), device: setup.phone)
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(try HistoryIndexFile.read(from: file).loaded.index.fixCount == 650)
    }
}
