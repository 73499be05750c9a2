import Foundation

/// A year in review (issue 33): `travelog review 2025` of a year of one fix a second (31.5M fixes,
/// `BenchmarkHistory` around Berlin: stays at 300 places and trips between them), through the
/// release command on SQLite, timed and measured with `/usr/bin/time -v` (wall clock and peak
/// resident memory), for the figures (`--json`) and for the image (`-o review.png`): first with no
/// kept figures (the days and weeks are computed and kept), then again (read from what was kept),
/// then after a second device's day of fixes was imported into the summer (that day's and week's
/// figures computed again). Goal: < 10 s and < 300 MB. `TRAVELOG_BENCH_REVIEW_DAYS` (default 365) makes it smaller; the
/// database is made once per size (import and journal) and reused.
enum ReviewBenchmark {
    static var days: Int { ProcessInfo.processInfo.environment["TRAVELOG_BENCH_REVIEW_DAYS"].flatMap(Int.init) ?? 365 }

    static func run(_ context: BenchmarkContext) throws {
        let locations = days * 86_400
        // The history ends with 2025 (the last fix an hour before 2026-01-01T01:00Z), so a full size is the year 2025.
        let database = context.workDirectory.appendingPathComponent("review-\(days)-days.sqlite").path
        if !FileManager.default.fileExists(atPath: database + ".ready") {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
            let csv = try BenchmarkHistory.csv(in: context.workDirectory, locations: locations, endingAt: 1_767_229_200, intervalSeconds: 1)
            let user = Process()
            user.executableURL = context.travelogExecutable
            user.arguments = ["user", "add", "bench", "--db", database, "--password-stdin"]
            let password = Pipe()
            user.standardInput = password
            user.standardOutput = FileHandle.nullDevice
            try user.run()
            password.fileHandleForWriting.write(Data("review-bench-password\n".utf8))
            try password.fileHandleForWriting.close()
            user.waitUntilExit()
            _ = try CommandOutput.of(context.travelogExecutable, ["device", "add", "phone", "--db", database, "--user", "bench"])
            let (seconds, peak, _) = try timed(context, ["import", "--db", database, "--user", "bench", "--device", "phone", csv.path])
            print(String(format: "seeded %d fixes (a fix a second, %d days) with the journal in %.1f s, peak %d MB", locations, days,
                         seconds, peak / 1024))
            _ = FileManager.default.createFile(atPath: database + ".ready", contents: nil)
        }
        let period = days >= 365 ? "2025" : "2025-12"
        // Nothing kept: the sqlite3 shell empties the table (the first review of a database).
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") {
            // A database made before the table existed has nothing kept (the migration adds it at the review).
            let tables = try CommandOutput.of(URL(fileURLWithPath: "/usr/bin/sqlite3"), [database, "SELECT name FROM sqlite_schema WHERE name = 'figure_cache'"])
            if tables.contains("figure_cache") {
                _ = try CommandOutput.of(URL(fileURLWithPath: "/usr/bin/sqlite3"), [database, "DELETE FROM figure_cache"])
            }
        } else {
            print("note: no /usr/bin/sqlite3 to empty the kept figures: the first review below may read them")
        }
        func review(_ label: String) throws -> [String: Any] {
            let (seconds, peak, output) = try timed(context, ["review", period, "--db", database, "--user", "bench", "--timezone", "UTC", "--json"])
            let figures = (try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]) ?? [:]
            let active = (figures["activeDays"] as? [String: Any])?["count"] as? Int ?? -1
            print(String(format: "review %@ of %d fixes, %@: %.2f s, peak %d MB (goal < 10 s, < 300 MB); %d days, %.0f km, %d locations counted",
                         period, locations, label, seconds, peak / 1024, active, (figures["distanceMeters"] as? Double ?? 0) / 1000,
                         figures["locations"] as? Int ?? -1))
            return figures
        }
        let first = try review("nothing kept")
        let again = try review("again, from the kept days and weeks")
        if NSDictionary(dictionary: first) != NSDictionary(dictionary: again) { print("warning: the two reviews differ") }
        // A second device's day (86,400 fixes) on 1 July, imported as a phone's queue or a file would bring it.
        if days >= 365 {
            let folder = context.workDirectory.appendingPathComponent("review-day-added")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let day = try BenchmarkHistory.csv(in: folder, locations: 86_400, endingAt: 1_751_414_400, intervalSeconds: 1)
            let watch = "watch-\(Int(Date().timeIntervalSince1970))"
            _ = try CommandOutput.of(context.travelogExecutable, ["device", "add", watch, "--db", database, "--user", "bench"])
            let (importSeconds, _, _) = try timed(context, ["import", "--db", database, "--user", "bench", "--device", watch, day.path])
            print(String(format: "imported a second device's day (86,400 fixes) in %.1f s", importSeconds))
            _ = try review("after that day was added")
            // The database back as it was, for the next run.
            _ = try CommandOutput.of(context.travelogExecutable, ["device", "remove", watch, "--db", database, "--user", "bench",
                                                                  "--delete-history"])
        }
        let image = context.workDirectory.appendingPathComponent("review-\(days)-days.png").path
        // The first image reads every day's fixes for its lines (kept from then on), the second the kept lines.
        for label in ["the lines not kept yet", "again, from the kept lines"] {
            let (imageSeconds, imagePeak, _) = try timed(context, ["review", period, "--db", database, "--user", "bench", "--timezone", "UTC",
                                                                   "-o", image])
            let bytes = (try? FileManager.default.attributesOfItem(atPath: image)[.size] as? NSNumber)?.intValue ?? 0
            print(String(format: "review %@ as PNG, %@: %.2f s, peak %d MB, %d KB", period, label, imageSeconds, imagePeak / 1024, bytes / 1024))
        }
    }

    /// Runs `travelog ARGUMENTS` under `/usr/bin/time -v`: wall seconds, peak resident kilobytes, standard output.
    static func timed(_ context: BenchmarkContext, _ arguments: [String]) throws -> (Double, Int, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-v", context.travelogExecutable.path] + arguments
        // Standard output to a file, standard error (time's report) through a pipe: neither can fill up.
        let outputFile = context.workDirectory.appendingPathComponent("review-output.txt")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputFile)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = output
        try process.run()
        let report = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try output.close()
        let printed = (try? Data(contentsOf: outputFile)) ?? Data()
        guard process.terminationStatus == 0 else {
            throw CommandOutput.Failure(command: "travelog " + arguments.joined(separator: " "), status: process.terminationStatus, output: report)
        }
        let peak = report.split(separator: "\n").first { $0.contains("Maximum resident set size") }
            .flatMap { $0.split(separator: ":").last }.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        return (ImportBenchmark.wallClockSeconds(report), peak, String(decoding: printed, as: UTF8.self))
    }
}
