import ArgumentParser
import Foundation
import Testing
@testable import TravelogCLI
import TravelogPostgres
import TravelogSQLite
import TravelogCore
import TravelogStore

/// `travelog migrate`: SQLite to SQLite always; SQLite to PostgreSQL and back on the server that
/// `make test` starts.
@Suite("travelog migrate")
struct MigrateCommandTests {
    /// A SQLite database with an import of 240 fixes, a second user and a named region.
    static func source(in workspace: ImportExportCommandTests.Workspace) async throws -> String {
        let day = try workspace.file("day.geojson", RegionsCommandTests.day())
        let database = workspace.directory.appendingPathComponent("source.sqlite").path
        try await ImportExportCommandTests.run(["import", day, "--db", database, "--user", "ada", "--device", "phone"])
        let store = try SQLiteLocationStore(path: database)
        _ = try await store.addUser(named: "bob")
        let ada = try #require(try await store.user(named: "ada"))
        let home = try #require(Coordinate(validLatitude: 52.52, longitude: 13.405))
        _ = try await store.addRegion(try RegionDefinition(name: "Home", shape: .circle(Circle(center: home, radiusMeters: 100))),
                                      userID: ada.id, at: Date())
        return database
    }

    /// Each table's checksum in a database.
    static func checksums(_ location: String) async throws -> [String: StoreTableChecksum] {
        let (store, _) = try await MigrateCommand.open(location)
        var checksums: [String: StoreTableChecksum] = [:]
        for table in StoreTable.all { checksums[table.name] = try await StoreMove.checksum(of: table, in: store) }
        return checksums
    }

    @Test("migrate copies a database to a new file, checks it, and a second run copies nothing more")
    func toSQLite() async throws {
        let workspace = try ImportExportCommandTests.Workspace()
        let source = try await Self.source(in: workspace)
        let copy = workspace.directory.appendingPathComponent("copy.sqlite").path
        try await ImportExportCommandTests.run(["migrate", "--from", source, "--to", copy])
        try await ImportExportCommandTests.run(["migrate", "--from", source, "--to", copy, "--json"])
        let checksums = try await Self.checksums(copy)
        #expect(checksums == (try await Self.checksums(source)))
        #expect(checksums["locations"]?.rowCount == 240)
        #expect(checksums["regions"]?.rowCount == 1)
    }

    @Test("migrate refuses the same database twice and a missing source file")
    func validation() throws {
        #expect(throws: (any Error).self) { try MigrateCommand.parse(["--from", "a.sqlite", "--to", "a.sqlite"]) }
        #expect(throws: (any Error).self) { try MigrateCommand.parse(["--from", "/nonexistent/a.sqlite", "--to", "b.sqlite"]) }
    }

    @Test("SQLite to PostgreSQL and back to SQLite keeps every table's content",
          .enabled(if: PostgresCommandTests.server != nil, PostgresCommandTests.skipped))
    func throughPostgres() async throws {
        let workspace = try ImportExportCommandTests.Workspace()
        let source = try await Self.source(in: workspace)
        let postgres = try PostgresCommandTests.database()
        let back = workspace.directory.appendingPathComponent("back.sqlite").path
        try await ImportExportCommandTests.run(["migrate", "--from", source, "--to", postgres])
        try await ImportExportCommandTests.run(["migrate", "--from", postgres, "--to", back])
        let expected = try await Self.checksums(source)
        #expect(try await Self.checksums(postgres) == expected)
        #expect(try await Self.checksums(back) == expected)
        // The copies answer as the original: info reads the day boxes rebuilt in SQLite.
        try await ImportExportCommandTests.run(["info", "--db", back, "--user", "ada"])
        let store = try SQLiteLocationStore(path: back)
        let ada = try #require(try await store.user(named: "ada"))
        #expect(try await store.deviceSummaries(userID: ada.id).map(\.locationCount) == [240])
    }
}
