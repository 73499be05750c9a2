import ArgumentParser
import Foundation
import TravelogPostgres
import TravelogStore

/// `travelog migrate --from DB --to DB`: moves a whole database between SQLite and PostgreSQL.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Copy a whole database to another (SQLite to PostgreSQL, or back) and verify the copy.",
        discussion: """
        Copies users, devices, tokens, sessions, imports, locations, the journal with your decisions, \
        notifications, rejected items and regions, keeping every id, then compares each table's row count \
        and checksum. The destination must be new (or an interrupted migration of the same source: run the \
        same command again and it goes on where it stopped). Stop the server while it runs.
        """)

    @Option(help: ArgumentHelp("The database to copy: a SQLite file or postgres://….", valueName: "db"))
    var from: String

    @Option(help: ArgumentHelp("The database to copy to: a SQLite file or postgres://….", valueName: "db"))
    var to: String

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        guard from != to else { throw ValidationError("--from and --to name the same database") }
        if !PostgresConnectionURL.isPostgresURL(from), !FileManager.default.fileExists(atPath: from) {
            throw ValidationError("no database file at \(from)")
        }
    }

    func run() async throws {
        let source = try await Self.open(from)
        let destination = try await Self.open(to)
        let progress = ProgressBar(label: "migrate")
        let reports = try await StoreMove(from: source.access, to: destination.access).run { done, total in
            progress.update(items: done, totalItems: total, itemName: "rows")
        }
        progress.finish()
        if json {
            let object: [String: Any] = [
                "from": source.description, "to": destination.description,
                "matches": reports.allSatisfy(\.matches),
                "tables": reports.map { report -> [String: Any] in
                    ["table": report.table, "rows": report.source.rowCount, "copied": report.copiedRowCount,
                     "destinationRows": report.destination.rowCount, "checksum": report.source.description,
                     "destinationChecksum": report.destination.description, "matches": report.matches]
                },
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print("Migrated \(source.description) to \(destination.description):")
            for report in reports {
                let verdict = report.matches ? "ok" : "MISMATCH: the destination has \(report.destination.rowCount) rows, checksum \(report.destination)"
                print("  \(report.table): \(report.source.rowCount) rows (\(report.copiedRowCount) copied now), checksum \(report.source), \(verdict)")
            }
        }
        let mismatched = reports.filter { !$0.matches }.map(\.table)
        guard mismatched.isEmpty else { throw MigrateError.mismatch(tables: mismatched) }
    }

    /// Opens a database as `--db` would, for reading and writing whole tables.
    static func open(_ location: String) async throws -> (access: any StoreTableAccess, description: String) {
        let options = try StoreOptions.parse(["--db", location])
        guard let access = try await options.openStore() as? any StoreTableAccess else {
            throw MigrateError.unsupported(options.databaseDescription)
        }
        return (access, options.databaseDescription)
    }
}

/// Why `travelog migrate` failed.
enum MigrateError: Error, CustomStringConvertible {
    /// The destination does not hold what the source holds in these tables.
    case mismatch(tables: [String])
    /// The store cannot be read or written table by table.
    case unsupported(String)

    var description: String {
        switch self {
        case .mismatch(let tables):
            "the destination differs from the source in \(tables.joined(separator: ", ")) (was it empty? was the source changed meanwhile?)"
        case .unsupported(let database): "\(database) cannot be migrated"
        }
    }
}
