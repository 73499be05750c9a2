import Foundation

/// `migrate`: `travelog migrate` of a SQLite database of 4M locations (one import of a generated
/// GPX track) to a new schema of the PostgreSQL server given with `--db`, and back to a new SQLite
/// file; each is timed as a whole process, its verification included. Target: < 60 s one way.
enum MigrateBenchmark {
    static var locations: Int {
        ProcessInfo.processInfo.environment["TRAVELOG_BENCH_MIGRATE_LOCATIONS"].flatMap(Int.init) ?? 4_000_000
    }

    static func run(_ context: BenchmarkContext) async throws {
        guard let server = context.postgresServer else {
            print("  skipped: needs a PostgreSQL server (--db postgres://…; scripts/with-postgres.sh starts one)")
            return
        }
        let source = context.workDirectory.appendingPathComponent("migrate-\(locations).sqlite").path
        if !FileManager.default.fileExists(atPath: source) {
            let gpx = try BenchmarkInputs.gpx(in: context.workDirectory, points: locations)
            let started = Date()
            try travelog(context, ["import", "--db", source, "--user", "bench", "--device", "phone", gpx.path])
            print("  made the source: \(locations) locations imported into SQLite in "
                  + "\(Figures.seconds(Date().timeIntervalSince(started))) (not counted)")
        }
        let postgres = ServerProcess.newSchema(on: server, name: "migrate")
        var started = Date()
        try travelog(context, ["migrate", "--from", source, "--to", postgres])
        var seconds = Date().timeIntervalSince(started)
        print("  SQLite → PostgreSQL: \(locations) locations in \(Figures.seconds(seconds)) "
              + "(\(Figures.rate(Double(locations) / seconds)) rows/s, copy and verification)")
        let back = context.workDirectory.appendingPathComponent("migrate-back.sqlite").path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: back + suffix) }
        started = Date()
        try travelog(context, ["migrate", "--from", postgres, "--to", back])
        seconds = Date().timeIntervalSince(started)
        print("  PostgreSQL → SQLite: \(locations) locations in \(Figures.seconds(seconds)) "
              + "(\(Figures.rate(Double(locations) / seconds)) rows/s, copy, day boxes and verification)")
    }

    /// Runs `travelog ARGUMENTS` to its end and prints its report's lines for the large table.
    static func travelog(_ context: BenchmarkContext, _ arguments: [String]) throws {
        let text = try CommandOutput.of(context.travelogExecutable, arguments)
        // The migrate report's lines for the large table, to show the verification passed.
        for line in text.split(separator: "\n") where line.contains("locations:") { print("    " + line.trimmingCharacters(in: .whitespaces)) }
    }
}
