import ArgumentParser
import Foundation
import Testing
@testable import TravelogCLI
import TravelogPostgres
import TravelogStore

/// The command line on a PostgreSQL database (`--db postgres://…`), on the server that
/// `make test` starts (`$TRAVELOG_TEST_POSTGRES_URL`), each test in a schema of its own.
@Suite("travelog on PostgreSQL")
struct PostgresCommandTests {
    static let server = ProcessInfo.processInfo.environment["TRAVELOG_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    static let skipped: Comment = "TRAVELOG_TEST_POSTGRES_URL is not set: the command line was not tested on PostgreSQL"

    /// The test server's address with a new schema.
    static func database() throws -> String {
        let server = try #require(server)
        let schema = "travelog_cli_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        return server + (server.contains("?") ? "&" : "?") + "schema=" + schema
    }

    @Test("--db postgres://… imports a file once, however often, and info reads it", .enabled(if: server != nil, skipped))
    func importTwice() async throws {
        let workspace = try ImportExportCommandTests.Workspace()
        let day = try workspace.file("day.geojson", RegionsCommandTests.day())
        let db = try Self.database()
        try await ImportExportCommandTests.run(["import", day, "--db", db, "--user", "ada", "--device", "phone"])
        try await ImportExportCommandTests.run(["import", day, "--db", db, "--user", "ada", "--device", "phone"])
        try await ImportExportCommandTests.run(["info", "--db", db, "--user", "ada"])
        let store = try await PostgresLocationStore(url: PostgresConnectionURL(db), maximumConnections: 2)
        let ada = try #require(try await store.user(named: "ada"))
        #expect(try await store.locations(LocationQuery(userID: ada.id)).count == 240)
        let imports = try await store.imports(userID: ada.id)
        #expect(imports.map(\.inserted) == [0, 240])
        #expect(imports.map(\.duplicates) == [240, 0])
        store.close()
    }

    @Test("StoreOptions opens PostgreSQL for a postgres:// address and never shows its password")
    func options() throws {
        var options = try StoreOptions.parse(["--db", "postgres://ada:hunter2@db.example:5433/travelog?schema=club"])
        #expect(options.databaseDescription == "postgres://ada@db.example:5433/travelog?schema=club")
        options = try StoreOptions.parse(["--db", "/tmp/travelog.sqlite"])
        #expect(options.databaseDescription == "/tmp/travelog.sqlite")
    }
}
