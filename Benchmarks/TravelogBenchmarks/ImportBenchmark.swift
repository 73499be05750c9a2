import Foundation

/// End-to-end imports through the release `travelog` command, timed and measured with
/// `/usr/bin/time -v` (wall clock and peak resident memory of the whole process).
enum ImportBenchmark {
    /// Locations in the generated Records.json: 4M, issue 10's figure (about 1.1 GB in this shape);
    /// `TRAVELOG_BENCH_RECORDS_LOCATIONS` overrides, e.g. for a quick run.
    static var recordsLocations: Int {
        ProcessInfo.processInfo.environment["TRAVELOG_BENCH_RECORDS_LOCATIONS"].flatMap(Int.init) ?? 4_000_000
    }

    static func run(_ context: BenchmarkContext) async throws {
        let records = try self.records(context)
        let gpx = try BenchmarkInputs.gpx(in: context.workDirectory, points: 1_000_000)
        try measure(context, file: gpx, locations: 1_000_000, label: "GPX")
        // The same Records.json inside a Takeout archive: read straight out of the archive.
        let archive = context.workDirectory.appendingPathComponent("takeout-\(records.locations)-locations.zip")
        if !FileManager.default.fileExists(atPath: archive.path) {
            let zip = Process()
            zip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            zip.arguments = ["python3", "-c", """
                import sys, zipfile
                with zipfile.ZipFile(sys.argv[2], 'w', zipfile.ZIP_DEFLATED, compresslevel=1) as z:
                    z.write(sys.argv[1], 'Takeout/Location History (Timeline)/Records.json')
                    z.writestr('Takeout/archive_browser.html', '<html></html>')
                """, records.url.path, archive.path]
            try zip.run()
            zip.waitUntilExit()
        }
        try measure(context, file: archive, locations: records.locations, label: "Takeout .zip of that Records.json")
    }

    /// `import-records`: the Records.json import alone (journal included, as `travelog import` runs it).
    @discardableResult
    static func records(_ context: BenchmarkContext) throws -> (url: URL, locations: Int) {
        let records = try BenchmarkInputs.googleRecords(in: context.workDirectory, locations: recordsLocations)
        try measure(context, file: records.url, locations: records.locations, label: "Google Records.json")
        return records
    }

    /// Imports `file` into a new database (`database`, or the work folder's scratch one) and prints
    /// the time and the peak memory.
    static func measure(_ context: BenchmarkContext, file: URL, locations: Int, label: String, database: String? = nil) throws {
        let database = database ?? context.workDirectory.appendingPathComponent("import-benchmark.sqlite").path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? 0
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-v", context.travelogExecutable.path, "import", "--db", database, "--user", "bench",
                             "--device", "phone", file.path]
        let errors = Pipe(), output = Pipe()
        process.standardError = errors
        process.standardOutput = output
        try process.run()
        let report = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let summary = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            print("  \(label): import FAILED (exit status \(process.terminationStatus)): "
                  + summary.split(separator: "\n").prefix(2).joined(separator: " "))
            return
        }
        let seconds = wallClockSeconds(report)
        let peakKilobytes = report.split(separator: "\n")
            .first { $0.contains("Maximum resident set size") }
            .flatMap { $0.split(separator: ":").last }
            .flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        print("  \(label): \(Figures.megabytes(Double(size))), \(locations) locations imported in \(Figures.seconds(seconds)) "
              + "(\(Figures.rate(Double(locations) / seconds)) locations/s, \(Figures.megabytes(Double(size) / seconds))/s), "
              + "peak memory \(peakKilobytes / 1024) MB")
        print("    " + summary.split(separator: "\n").prefix(1).joined())
    }

    /// Parses `Elapsed (wall clock) time (h:mm:ss or m:ss): 0:12.34`.
    static func wallClockSeconds(_ report: String) -> Double {
        guard let line = report.split(separator: "\n").first(where: { $0.contains("Elapsed (wall clock)") }),
              let value = line.split(separator: " ").last else { return .nan }
        return value.split(separator: ":").reduce(0.0) { $0 * 60 + (Double($1) ?? 0) }
    }
}
