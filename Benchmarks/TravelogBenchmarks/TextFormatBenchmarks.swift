import Foundation
import TravelogFormats
#if canImport(Glibc)
import Glibc
#endif

/// Figures for the text readers: timestamps per second, CSV and GeoLife rows per second, and the
/// peak memory while reading a file far larger than the block.
enum TextFormatBenchmarks {
    static let rowCount = 1_000_000

    /// `timestamp-parse`: one million timestamps of mixed forms, against ISO8601DateFormatter.
    static func timestamps(_ context: BenchmarkContext) throws {
        let forms = ["2024-06-15T10:30:00Z", "2024-06-15T10:30:00.123Z", "2024-12-02T11:00:00.000-08:00",
                     "2025-06-01 13:02:03.056000 +00:00", "1718444200", "1718444200123"]
        let texts = (0..<rowCount).map { index in forms[index % forms.count] }
        var checksum: Int64 = 0
        let clock = ContinuousClock()
        let parse = try clock.measure {
            for text in texts { checksum &+= try TimestampParser.parse(text).secondsSince1970 }
        }
        report("TimestampParser, mixed forms from String", count: texts.count, duration: parse)
        let byteTexts = texts.map { Array($0.utf8)[...] }
        let parseBytes = try clock.measure {
            for bytes in byteTexts { checksum &+= try TimestampParser.parse(utf8: bytes).secondsSince1970 }
        }
        report("TimestampParser, mixed forms from UTF-8 bytes", count: byteTexts.count, duration: parseBytes)

        let iso = ["2024-06-15T10:30:00.123Z", "2024-12-02T11:00:00.000-08:00"]
        let isoTexts = (0..<(rowCount / 10)).map { iso[$0 % 2] }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let foundation = clock.measure {
            for text in isoTexts { checksum &+= Int64(formatter.date(from: text)?.timeIntervalSince1970 ?? 0) }
        }
        let ours = try clock.measure {
            for text in isoTexts { checksum &+= try TimestampParser.parse(text).secondsSince1970 }
        }
        report("ISO8601DateFormatter, RFC 3339 with fraction", count: isoTexts.count, duration: foundation)
        report("TimestampParser, the same texts", count: isoTexts.count, duration: ours)
        print("  (checksum \(checksum))")
    }

    /// `csv-read`: a GPSLogger CSV of one million rows read through `CSVReader`.
    static func csv(_ context: BenchmarkContext) throws {
        let url = context.workDirectory.appendingPathComponent("gpslogger-1M.csv")
        try generate(url, header: "time,lat,lon,elevation,accuracy,bearing,speed,satellites,provider,hdop,vdop,pdop,geoidheight,ageofdgpsdata,dgpsid,activity,battery,annotation\n") { index in
            let seconds = 1_718_447_400 + index
            let time = Date(timeIntervalSince1970: Double(seconds)).ISO8601Format()
            return "\(time),\(52.5 + Double(index % 1000) * 1e-5),\(13.4 + Double(index % 777) * 1e-5),34.0,8,90,1.5,12,gps,0.8,1.1,1.4,,,,\"walking\",85,\n"
        }
        try read(url, label: "CSVReader, GPSLogger rows") { source in CSVReader(source: source) }
    }

    /// `geolife-read`: a GeoLife trajectory of one million fixes read through `GeoLifeReader`.
    static func geolife(_ context: BenchmarkContext) throws {
        let url = context.workDirectory.appendingPathComponent("geolife-1M.plt")
        try generate(url, header: "Geolife trajectory\r\nWGS 84\r\nAltitude is in Feet\r\nReserved 3\r\n0,2,255,My Track,0,0,2,8421376\r\n0\r\n") { index in
            let seconds = 1_224_730_384 + index
            let day = seconds / 86_400, second = seconds % 86_400
            let date = Date(timeIntervalSince1970: Double(day * 86_400)).ISO8601Format().prefix(10)
            let time = String(format: "%02d:%02d:%02d", second / 3600, second / 60 % 60, second % 60)
            return "\(39.984702 + Double(index % 1000) * 1e-6),116.318417,0,492,\(25_569 + Double(seconds) / 86_400),\(date),\(time)\r\n"
        }
        try read(url, label: "GeoLifeReader, .plt fixes") { source in GeoLifeReader(source: source) }
    }

    /// Writes `rowCount` rows once (kept in the work folder for later runs).
    static func generate(_ url: URL, header: String, row: (Int) -> String) throws {
        guard !FileManager.default.fileExists(atPath: url.path) else { return }
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var chunk = header
        for index in 0..<rowCount {
            chunk += row(index)
            if chunk.utf8.count > 1 << 20 {
                try handle.write(contentsOf: Data(chunk.utf8))
                chunk = ""
            }
        }
        try handle.write(contentsOf: Data(chunk.utf8))
    }

    static func read<Reader: LocationFileReader>(_ url: URL, label: String,
                                                 makeReader: (FileByteSource) -> Reader) throws {
        let source = try FileByteSource(path: url.path)
        let sizeBytes = source.fileSizeBytes
        var reader = makeReader(source)
        var points = 0, other = 0
        let residentBefore = peakResidentKilobytes()
        let duration = try ContinuousClock().measure {
            while let record = try reader.next() {
                if case .point = record { points += 1 } else { other += 1 }
            }
        }
        report(label, count: points, duration: duration)
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        print(String(format: "  %.1f MB/s over %.1f MB; %d points, %d other records; peak RSS %d KB (%d KB before reading)",
                     Double(sizeBytes) / 1e6 / seconds, Double(sizeBytes) / 1e6, points, other,
                     peakResidentKilobytes(), residentBefore))
    }

    static func report(_ label: String, count: Int, duration: Duration) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        print(String(format: "%@: %d in %.3f s, %.0f ns each, %.2f M/s",
                     label, count, seconds, seconds * 1e9 / Double(count), Double(count) / seconds / 1e6))
    }

    /// The process's peak resident set size in kilobytes (Linux `ru_maxrss`).
    static func peakResidentKilobytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss
    }
}
