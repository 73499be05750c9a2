import ArgumentParser
import Foundation
import Testing
@testable import TravelogCLI
import TravelogCore
import TravelogImport
import TravelogTestSupport

@Suite("travelog import, export and info")
struct ImportExportCommandTests {
    /// A fresh folder with a database path and a few input files.
    struct Workspace {
        let directory: URL
        var database: String { directory.appendingPathComponent("travelog.sqlite").path }

        init() throws {
            directory = TestDirectory.makeFolder("cli")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }

        func file(_ name: String, _ contents: String) throws -> String {
            let url = directory.appendingPathComponent(name)
            try Data(contents.utf8).write(to: url)
            return url.path
        }
    }

    static let walk = """
        time,lat,lon,elevation,accuracy,speed
        2024-06-15T10:30:00Z,52.5200,13.4050,34,8,1.5
        2024-06-15T10:31:00Z,52.5210,13.4060,35,9,1.6
        2024-06-15T10:32:00Z,52.5220,13.4070,36,7,1.4
        """

    static func run(_ arguments: [String]) async throws {
        var command = try TravelogCommand.parseAsRoot(arguments)
        if var asyncCommand = command as? any AsyncParsableCommand {
            try await asyncCommand.run()
        } else {
            try command.run()
        }
    }

    @Test("an imported file exports again, and importing it twice stores nothing twice")
    func roundTrip() async throws {
        let workspace = try Workspace()
        let walk = try workspace.file("walk.csv", Self.walk)
        try await Self.run(["import", "--db", workspace.database, "--user", "ada", walk])
        try await Self.run(["import", "--db", workspace.database, "--user", "ada", walk])
        let output = workspace.directory.appendingPathComponent("out.gpx").path
        try await Self.run(["export", "--db", workspace.database, "--format", "gpx", "-o", output])
        let gpx = try String(contentsOfFile: output, encoding: .utf8)
        #expect(gpx.components(separatedBy: "<trkpt ").count - 1 == 3)
        #expect(gpx.contains(#"<trkpt lat="52.5210000" lon="13.4060000">"#))
        #expect(gpx.contains("<time>2024-06-15T10:31:00Z</time>"))
        #expect(!FileManager.default.fileExists(atPath: output + ".partial"))
    }

    @Test("a broken file fails the command, stores nothing, and the other files still import")
    func brokenFile() async throws {
        let workspace = try Workspace()
        let walk = try workspace.file("walk.csv", Self.walk)
        let broken = try workspace.file("broken.csv", "time,lat,lon\n2024-06-15T10:30:00Z,52.52,13.405\n\"2024-06-15T10:31:00Z,52.53,13.41\n")
        await #expect(throws: ExitCode.failure) {
            try await Self.run(["import", "--db", workspace.database, "--user", "ada", broken, walk])
        }
        let csv = workspace.directory.appendingPathComponent("out.csv").path
        try await Self.run(["export", "--db", workspace.database, "--format", "csv", "-o", csv])
        let lines = try String(contentsOfFile: csv, encoding: .utf8).split(whereSeparator: \.isNewline)
        #expect(lines.count == 4)  // the header and the three points of walk.csv, none of broken.csv
    }

    @Test("a folder is searched for location files; other files in it are named and skipped")
    func folder() async throws {
        let workspace = try Workspace()
        let takeout = workspace.directory.appendingPathComponent("Takeout/Location History", isDirectory: true)
        try FileManager.default.createDirectory(at: takeout, withIntermediateDirectories: true)
        try Data(Self.walk.utf8).write(to: takeout.appendingPathComponent("walk.csv"))
        try Data("<html>archive browser</html>".utf8).write(to: workspace.directory.appendingPathComponent("Takeout/index.html"))
        try Data(#"{"timelineEdits": []}"#.utf8).write(to: takeout.appendingPathComponent("Timeline Edits.json"))
        let expanded = ImportCommand.expand([workspace.directory.appendingPathComponent("Takeout").path])
        #expect(expanded.map { URL(fileURLWithPath: $0.path).lastPathComponent } == ["Timeline Edits.json", "walk.csv", "index.html"])
        #expect(expanded.allSatisfy { $0.foundInFolder })
        // Nothing fails: the HTML page and the edits are skipped, the walk imported.
        try await Self.run(["import", "--db", workspace.database, workspace.directory.appendingPathComponent("Takeout").path])
        let csv = workspace.directory.appendingPathComponent("out.csv").path
        try await Self.run(["export", "--db", workspace.database, "--format", "csv", "-o", csv])
        #expect(try String(contentsOfFile: csv, encoding: .utf8).split(whereSeparator: \.isNewline).count == 4)
    }

    @Test("export limits to local days in the given time zone")
    func exportRange() async throws {
        let workspace = try Workspace()
        let walk = try workspace.file("walk.csv", Self.walk)
        try await Self.run(["import", "--db", workspace.database, walk])
        let csv = workspace.directory.appendingPathComponent("day.csv").path
        // 10:30Z is 03:30 in Los Angeles on the 15th, but already the 16th in Kiritimati (+14).
        try await Self.run(["export", "--db", workspace.database, "--format", "csv", "--from", "2024-06-16",
                            "--to", "2024-06-16", "--timezone", "Pacific/Kiritimati", "-o", csv])
        #expect(try String(contentsOfFile: csv, encoding: .utf8).split(whereSeparator: \.isNewline).count == 4)
        try await Self.run(["export", "--db", workspace.database, "--format", "csv", "--from", "2024-06-16",
                            "--timezone", "America/Los_Angeles", "-o", csv])
        #expect(try String(contentsOfFile: csv, encoding: .utf8).split(whereSeparator: \.isNewline).count == 1)
    }

    @Test("stats prints the distance per local day, in the chosen units")
    func stats() async throws {
        let workspace = try Workspace()
        let walk = try workspace.file("walk.csv", Self.walk)
        try await Self.run(["import", "--db", workspace.database, walk])
        let table = StatsCommand.table([], total: .init(label: "total"), units: .metric)
        #expect(table == "No locations in this range.")
        // Unrecorded movement says what its numbers count, not "35 × 141934.83 km", which reads as a product.
        var year = TravelStatistics.Period(label: "2024")
        year.locationCount = 10
        year.unrecordedMovement = UnrecordedMovement(count: 35, straightLineMeters: 141_934_830)
        var day = TravelStatistics.Period(label: "2024-06-16")
        day.unrecordedMovement = UnrecordedMovement(count: 1, straightLineMeters: 751_330)
        let gaps = StatsCommand.table([year, day], total: year, units: .metric)
        #expect(gaps.contains("141934.83 km over 35 gaps") && gaps.contains("751.33 km over 1 gap") && !gaps.contains("×"), "\(gaps)")
        // Runs end to end; the figures themselves are tested in TravelStatisticsTests.
        try await Self.run(["stats", "--db", workspace.database, "--by", "week", "--units", "imperial", "--json"])
    }

    @Test("bad options are refused with what was expected", arguments: [
        ["export", "--format", "nmea"],
        ["export", "--format", "gpx", "--from", "2024-02-30"],
        ["export", "--format", "gpx", "--timezone", "Mars/Olympus"],
        ["import", "--date", "yesterday", "x.nmea"],
        ["stats", "--by", "fortnight"],
        ["stats", "--units", "furlongs"],
    ])
    func badOptions(arguments: [String]) {
        #expect(throws: (any Error).self) { try TravelogCommand.parseAsRoot(arguments) }
    }

    @Test("the database path comes from --db, then $TRAVELOG_DB, then the XDG data directory; so does the saved indices' folder")
    func databasePath() throws {
        #expect(StoreOptions.resolvePath(option: "/x.sqlite", environment: ["TRAVELOG_DB": "/y"]) == "/x.sqlite")
        #expect(StoreOptions.resolvePath(option: nil, environment: ["TRAVELOG_DB": "/y"]) == "/y")
        #expect(StoreOptions.resolvePath(option: nil, environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"]) == "/d/travelog/travelog.sqlite")
        #expect(StoreOptions.resolvePath(option: nil, environment: ["HOME": "/h"]) == "/h/.local/share/travelog/travelog.sqlite")
        // Saved history indices: the option, else next to a SQLite file, else per PostgreSQL database and schema.
        let sqlite = try StoreOptions.parse(["--db", "/d/t.sqlite"])
        #expect(sqlite.historyIndexDirectory(option: nil, environment: [:])?.path == "/d/t.sqlite-history-index")
        #expect(sqlite.historyIndexDirectory(option: "/i", environment: [:])?.path == "/i")
        let postgres = try StoreOptions.parse(["--db", "postgres://u:p@db.example:5433/travelog?schema=club"])
        #expect(postgres.historyIndexDirectory(option: nil, environment: ["XDG_DATA_HOME": "/d"])?.path
                == "/d/travelog/history-index/postgres-db.example-5433-travelog-club")
        #expect(postgres.historyIndexDirectory(option: "/i", environment: [:])?.path == "/i")
    }
}
