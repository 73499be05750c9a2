import Foundation

/// `import-takeout-1gb`: `travelog import` of a Google Takeout `.zip` of more than 1 GB (10^9 bytes) compressed
/// (issue 9: memory < 200 MB, the same locations as the unzipped file). The archive holds a
/// generated Records.json of `locations` locations (about 9.5 GB; deflate level 1 as Google's
/// archives are about as compressed) beside entries that are not location history, which the
/// import must pass over. The unzipped Records.json is imported into a second database and the
/// two are compared row by row with `sqlite3`.
enum TakeoutArchiveBenchmark {
    /// 37M locations make an archive of about 1.03 GB (36M made one of 999.7 MB).
    static var locations: Int {
        ProcessInfo.processInfo.environment["TRAVELOG_BENCH_TAKEOUT_LOCATIONS"].flatMap(Int.init) ?? 37_000_000
    }

    static func run(_ context: BenchmarkContext) async throws {
        let records = try BenchmarkInputs.googleRecords(in: context.workDirectory, locations: locations)
        let archive = context.workDirectory.appendingPathComponent("takeout-\(records.locations)-locations.zip")
        if !FileManager.default.fileExists(atPath: archive.path) {
            _ = try CommandOutput.of(command: "python3", ["-c", """
                import sys, zipfile
                partial = sys.argv[2] + '.partial'
                with zipfile.ZipFile(partial, 'w', zipfile.ZIP_DEFLATED, compresslevel=1) as z:
                    z.writestr('Takeout/archive_browser.html', '<html><body>Takeout</body></html>' * 200)
                    z.writestr('Takeout/Google Photos/Photos from 2024/metadata.json', '{"title": "Photos from 2024"}')
                    z.writestr('Takeout/Mail/All mail Including Spam and Trash.mbox', 'From x@example.com\\n\\nhello\\n' * 5000)
                    z.write(sys.argv[1], 'Takeout/Location History (Timeline)/Records.json')
                    z.writestr('Takeout/Location History (Timeline)/Settings.json', '{"deviceSettings": []}')
                import os
                os.rename(partial, sys.argv[2])
                """, records.url.path, archive.path])
        }
        let size = (try FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? NSNumber)?.intValue ?? 0
        let raw = (try FileManager.default.attributesOfItem(atPath: records.url.path)[.size] as? NSNumber)?.intValue ?? 0
        print("  archive: \(Figures.megabytes(Double(size))) compressed, Records.json \(Figures.megabytes(Double(raw))) inside"
              + (size < 1_000_000_000 ? " (UNDER 1 GB: raise TRAVELOG_BENCH_TAKEOUT_LOCATIONS)" : ""))
        let zipped = context.workDirectory.appendingPathComponent("takeout-zip.sqlite").path
        let plain = context.workDirectory.appendingPathComponent("takeout-plain.sqlite").path
        try ImportBenchmark.measure(context, file: archive, locations: records.locations, label: "Takeout .zip", database: zipped)
        try ImportBenchmark.measure(context, file: records.url, locations: records.locations, label: "the same Records.json unzipped",
                                    database: plain)
        let columns = "timestamp_ms, latitude_e7, longitude_e7, altitude_m, horizontal_accuracy_m, vertical_accuracy_m, "
            + "speed_mps, course_deg, utc_offset_s"
        let compare = """
            ATTACH '\(plain)' AS plain;
            SELECT (SELECT count(*) FROM locations), (SELECT count(*) FROM plain.locations),
              (SELECT count(*) FROM (SELECT \(columns) FROM locations EXCEPT SELECT \(columns) FROM plain.locations)),
              (SELECT count(*) FROM (SELECT \(columns) FROM plain.locations EXCEPT SELECT \(columns) FROM locations));
            """
        let answer = try CommandOutput.of(command: "sqlite3", [zipped, compare]).trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: "|").map(String.init)
        guard answer.count == 4 else {
            print("  comparison FAILED: sqlite3 answered \(answer)")
            return
        }
        print("  stored from the archive \(answer[0]), from the file \(answer[1]); rows only in the archive's database "
              + "\(answer[2]), only in the file's \(answer[3])" + (answer[2] == "0" && answer[3] == "0" && answer[0] == answer[1]
                                                                   ? " (the same locations)" : " (DIFFERENT)"))
        for database in [zipped, plain] {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
        }
    }
}
