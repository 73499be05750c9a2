import Foundation

/// `photos-add`: `travelog photos add` of generated 12-megapixel JPEGs (default 10,000;
/// `TRAVELOG_BENCH_PHOTOS` overrides), each a copy of one noisy 4000×3000 image (made once with
/// libvips's `vips`, Debian's libvips-tools; nothing is downloaded) behind its own EXIF with a capture
/// time 30 s after the one before, so every file is a photo of its own, and the 160×120 preview of
/// the image a camera embeds as its EXIF thumbnail (IFD1). Such a photo gets its small thumbnail from
/// the preview and its large one on first view; `TRAVELOG_BENCH_PHOTOS_PREVIEW=0` leaves the preview
/// out, and every photo is then decoded for both sizes. A copy of noise is 7.7 MB, so
/// 10,000 would need 77 GB: they are written and added in batches of 500 (`TRAVELOG_BENCH_PHOTOS_BATCH`),
/// each batch deleted after its `photos add` into the same database; only the commands are timed.
/// Prints photos/s over the whole count and the largest peak memory (`/usr/bin/time -v`);
/// thumbnails are made, as the command always makes them (they stay, about 0.3 MB a photo).
enum PhotosAddBenchmark {
    static var count: Int { ProcessInfo.processInfo.environment["TRAVELOG_BENCH_PHOTOS"].flatMap(Int.init) ?? 10_000 }
    static var batch: Int { max(1, ProcessInfo.processInfo.environment["TRAVELOG_BENCH_PHOTOS_BATCH"].flatMap(Int.init) ?? 500) }
    static var withPreview: Bool { ProcessInfo.processInfo.environment["TRAVELOG_BENCH_PHOTOS_PREVIEW"] != "0" }

    static func run(_ context: BenchmarkContext) async throws {
        let count = self.count
        let folder = context.workDirectory.appendingPathComponent("photos-add-batch", isDirectory: true)
        let source = try self.source(context)
        let preview = withPreview ? try self.preview(context) : nil
        let start = Date(timeIntervalSince1970: 1_717_228_800)   // 2024-06-01T08:00:00Z
        let database = context.workDirectory.appendingPathComponent("photos-add.sqlite").path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
        try? FileManager.default.removeItem(atPath: database + "-photos")
        try run(context.travelogExecutable.path, ["user", "add", "--db", database, "bench", "--password-stdin"], input: "bench-password-1\n")
        var seconds = 0.0, peakKilobytes = 0, failures: [Int32] = [], summaries: [String] = []
        for first in stride(from: 0, to: count, by: batch) {
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for index in first..<min(count, first + batch) {
                let exif = self.exif(takenAt: start.addingTimeInterval(Double(index) * 30), thumbnail: preview)
                try (source.prefix(2) + exif + source.dropFirst(2)).write(to: folder.appendingPathComponent(String(format: "P%06d.jpg", index)))
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
            process.arguments = ["-v", context.travelogExecutable.path, "photos", "add", "--db", database, "--user", "bench", folder.path]
            let errors = Pipe(), output = Pipe()
            process.standardError = errors
            process.standardOutput = output
            try process.run()
            let report = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let summary = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            seconds += ImportBenchmark.wallClockSeconds(report)
            peakKilobytes = max(peakKilobytes, report.split(separator: "\n")
                .first { $0.contains("Maximum resident set size") }
                .flatMap { $0.split(separator: ":").last }
                .flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0)
            if process.terminationStatus != 0 { failures.append(process.terminationStatus) }
            summaries.append(summary.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        try? FileManager.default.removeItem(at: folder)
        print("  \(count) photos of 12 MP (\(source.count / 1_000_000) MB each, \(preview.map { "a \($0.count / 1000) kB 160×120 EXIF preview" } ?? "no EXIF preview")) in batches of \(batch); last batch: \(summaries.last ?? "")")
        print(String(format: "  %.1f s in photos add, %.1f photos/s, peak memory %d MB (%@)", seconds, Double(count) / seconds,
                     peakKilobytes / 1024, failures.isEmpty ? "every batch exit status 0" : "failed exit statuses \(failures)"))
    }

    /// One 4000×3000 JPEG of noise (quality 90, about 5 MB), made once.
    static func source(_ context: BenchmarkContext) throws -> Data {
        let jpeg = context.workDirectory.appendingPathComponent("photo-12mp.jpg")
        if !FileManager.default.fileExists(atPath: jpeg.path) {
            let noise = context.workDirectory.appendingPathComponent("photo-12mp.v").path
            try run("/usr/bin/vips", ["gaussnoise", noise, "4000", "3000", "--sigma", "40", "--mean", "128"])
            let colour = context.workDirectory.appendingPathComponent("photo-12mp-srgb.v").path
            try run("/usr/bin/vips", ["colourspace", noise, colour, "srgb"])
            try run("/usr/bin/vips", ["jpegsave", colour, jpeg.path, "--Q", "90"])
            try? FileManager.default.removeItem(atPath: noise)
            try? FileManager.default.removeItem(atPath: colour)
        }
        return try Data(contentsOf: jpeg)
    }

    /// The image's 160×120 preview (`vips thumbnail`, quality 75), as a camera embeds it; made once.
    static func preview(_ context: BenchmarkContext) throws -> Data {
        let jpeg = context.workDirectory.appendingPathComponent("photo-12mp-preview.jpg")
        if !FileManager.default.fileExists(atPath: jpeg.path) {
            try run("/usr/bin/vips", ["thumbnail", context.workDirectory.appendingPathComponent("photo-12mp.jpg").path,
                                      jpeg.path + "[Q=75,strip]", "160", "--height", "120"])
        }
        return try Data(contentsOf: jpeg)
    }

    /// An APP1 segment with `DateTimeOriginal` and `OffsetTimeOriginal` +00:00 (EXIF 2.32, big-endian
    /// TIFF), and IFD1 with `thumbnail` (JPEG) when given.
    static func exif(takenAt date: Date, thumbnail: Data? = nil) -> Data {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        func be32(_ value: Int) -> [UInt8] { be16(value >> 16) + be16(value & 0xFFFF) }
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: Int) -> [UInt8] { be16(tag) + be16(type) + be32(count) + be32(value) }
        // IFD0 at 8 (one entry: the Exif IFD at 26), the Exif IFD at 26 (two entries), their values at 56 and 76;
        // then IFD1 at 84 (compression 6, the thumbnail's offset 126 and length) and the thumbnail.
        var tiff: [UInt8] = Array("MM".utf8) + be16(42) + be32(8)
        tiff += be16(1) + entry(0x8769, 4, 1, 26) + be32(thumbnail == nil ? 0 : 84)
        tiff += be16(2) + entry(0x9003, 2, 20, 56) + entry(0x9011, 2, 7, 76) + be32(0)
        tiff += Array(formatter.string(from: date).utf8) + [0] + Array("+00:00".utf8) + [0] + [0]
        if let thumbnail {
            tiff += be16(3) + entry(0x0103, 3, 1, 6 << 16) + entry(0x0201, 4, 1, 126) + entry(0x0202, 4, 1, thumbnail.count) + be32(0)
            tiff += Array(thumbnail)
        }
        let body = Array("Exif".utf8) + [0, 0] + tiff
        return Data([0xFF, 0xE1] + be16(body.count + 2) + body)
    }

    static func run(_ executable: String, _ arguments: [String], input: String? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdin = Pipe()
        if input != nil { process.standardInput = stdin }
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        process.waitUntilExit()
    }
}
