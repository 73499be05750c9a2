import Foundation
import TravelogCore
import TravelogFormats

/// Generated input files for benchmarks, written once per size and seed and reused afterwards.
enum BenchmarkInputs {
    /// A Google Takeout `Records.json` of about `targetBytes` bytes (≈ 250 bytes per location), in
    /// the shape of real exports: E7 coordinates, accuracy, altitude, source, deviceTag, an ISO
    /// `timestamp` (every tenth record the older `timestampMs`), and now and then an `activity`.
    /// - Returns: the file's URL and the number of locations in it.
    static func googleRecords(in directory: URL, targetBytes: Int) throws -> (url: URL, locations: Int) {
        try googleRecords(at: directory.appendingPathComponent("Records-\(targetBytes / 1_000_000)MB.json"),
                          targetBytes: targetBytes, locations: .max)
    }

    /// The same file with exactly `locations` locations (≈ 270 bytes each), e.g. the 4M of issue 10's
    /// import figure; up to about 7M (a fix every 30–90 s until 2026) the first `n` locations are
    /// those of every other size, larger files record more often.
    static func googleRecords(in directory: URL, locations: Int) throws -> (url: URL, locations: Int) {
        try googleRecords(at: directory.appendingPathComponent("Records-\(locations)-locations.json"),
                          targetBytes: .max, locations: locations)
    }

    /// The generated histories end before 2026-01-01T00:00:00Z.
    static let latestMilliseconds: Int64 = 1_767_225_600_000

    /// Writes records until `targetBytes` or `locations` is reached, whichever comes first.
    private static func googleRecords(at url: URL, targetBytes: Int, locations: Int) throws -> (url: URL, locations: Int) {
        let countURL = url.appendingPathExtension("count")
        if let text = try? String(contentsOf: countURL, encoding: .utf8), let count = Int(text),
           FileManager.default.fileExists(atPath: url.path) {
            return (url, count)
        }
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var random = SplitMix64(seed: 2012)
        var buffer = ByteBuffer()
        buffer.append("{\n  \"locations\": [")
        var written = 0, count = 0
        var latitudeE7: Int64 = 525_200_000, longitudeE7: Int64 = 134_050_000
        var milliseconds: Int64 = 1_355_581_289_460
        // A fix every 30–90 s, or closer when that many would run past `latestMilliseconds`: the
        // history stays in the past (an import refuses fixes from the future), as a phone's does.
        let spacing = locations == .max ? 60_000 : min(60_000, (Self.latestMilliseconds - milliseconds) / Int64(max(locations, 1)))
        while written + buffer.count < targetBytes, count < locations {
            latitudeE7 += Int64(random.nextUnit() * 2000) - 1000
            longitudeE7 += Int64(random.nextUnit() * 3000) - 1500
            milliseconds += spacing / 2 + Int64(random.nextUnit() * Double(spacing))
            buffer.append(count == 0 ? "\n    {\n      \"latitudeE7\": " : ",\n    {\n      \"latitudeE7\": ")
            buffer.append(latitudeE7)
            buffer.append(",\n      \"longitudeE7\": ")
            buffer.append(longitudeE7)
            buffer.append(",\n      \"accuracy\": ")
            buffer.append(Int64(5 + random.nextUnit() * 60))
            buffer.append(",\n      \"altitude\": ")
            buffer.append(Int64(30 + random.nextUnit() * 20))
            buffer.append(",\n      \"verticalAccuracy\": 3,\n      \"source\": \"WIFI\",\n      \"deviceTag\": 1234567890,\n")
            if count % 7 == 0 {
                buffer.append("      \"activity\": [{\n        \"activity\": [{\n          \"type\": \"STILL\",\n          \"confidence\": 92\n        }],\n        \"timestampMs\": \"")
                buffer.append(milliseconds)
                buffer.append("\"\n      }],\n")
            }
            if count % 10 == 0 {
                buffer.append("      \"timestampMs\": \"")
                buffer.append(milliseconds)
                buffer.append("\"\n    }")
            } else {
                buffer.append("      \"timestamp\": \"")
                buffer.appendISO8601(milliseconds: milliseconds)
                buffer.append("\"\n    }")
            }
            count += 1
            if buffer.count >= 1 << 20 {
                handle.write(buffer.data)
                written += buffer.count
                buffer.removeAll()
            }
        }
        buffer.append("\n  ]\n}\n")
        handle.write(buffer.data)
        try String(count).write(to: countURL, atomically: true, encoding: .utf8)
        return (url, count)
    }

    /// A GPX 1.1 file of `points` track points (one track, one segment, ele and time each).
    static func gpx(in directory: URL, points: Int) throws -> URL {
        let url = directory.appendingPathComponent("track-\(points).gpx")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var buffer = ByteBuffer()
        buffer.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"Travelog benchmark\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n <trk><name>benchmark</name><trkseg>\n")
        for location in SyntheticTrack.locations(count: points, seed: 11) {
            buffer.append("  <trkpt lat=\"")
            buffer.append(fixed: location.coordinate.latitude)
            buffer.append("\" lon=\"")
            buffer.append(fixed: location.coordinate.longitude)
            buffer.append("\"><ele>")
            buffer.append(Int64(location.altitudeMeters ?? 0))
            buffer.append("</ele><time>")
            buffer.appendISO8601(milliseconds: Int64(location.timestamp.timeIntervalSince1970 * 1000))
            buffer.append("</time></trkpt>\n")
            if buffer.count >= 1 << 20 {
                handle.write(buffer.data)
                buffer.removeAll()
            }
        }
        buffer.append(" </trkseg></trk>\n</gpx>\n")
        handle.write(buffer.data)
        return url
    }
}

/// A growable byte buffer with the few fast appends the generators need.
struct ByteBuffer {
    private(set) var bytes: [UInt8] = []
    var count: Int { bytes.count }
    var data: Data { Data(bytes) }

    init() { bytes.reserveCapacity(1 << 21) }

    mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }
    mutating func append(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: [UInt8] = []
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes.append(contentsOf: digits.reversed())
    }
    mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }
    /// Seven decimals, as coordinates are written.
    mutating func append(fixed value: Double) { append(FixedDecimalFormatter.string(value, decimals: 7)) }
    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`
    mutating func appendISO8601(milliseconds: Int64) {
        append(ISO8601TimeFormatter.string(Date(timeIntervalSince1970: Double(milliseconds) / 1000)))
    }
}
