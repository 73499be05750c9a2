import Foundation
import TravelogCore
import TravelogFormats

/// Helpers shared by the NMEA test suites.
enum NMEATestSupport {
    /// Reads every record of an NMEA text.
    static func records(_ text: String, options: NMEAReader.Options = .init(), chunk: Int = .max) throws -> [FormatRecord] {
        try records(Array(text.utf8), options: options, chunk: chunk)
    }

    static func records(_ bytes: [UInt8], options: NMEAReader.Options = .init(), chunk: Int = .max) throws -> [FormatRecord] {
        var reader = NMEAReader(source: MemoryByteSource(bytes, maximumChunkBytes: chunk), options: options)
        var result: [FormatRecord] = []
        while let record = try reader.next() { result.append(record) }
        return result
    }

    static func records(file url: URL, options: NMEAReader.Options = .init()) throws -> [FormatRecord] {
        var reader = NMEAReader(source: try FileByteSource(path: url.path), options: options)
        var result: [FormatRecord] = []
        while let record = try reader.next() { result.append(record) }
        return result
    }

    static func locations(_ records: [FormatRecord]) -> [Location] {
        records.compactMap { record in
            if case .point(let point) = record { return point.position.location }
            return nil
        }
    }

    static func points(_ records: [FormatRecord]) -> [FormatPoint] {
        records.compactMap { record in
            if case .point(let point) = record { return point }
            return nil
        }
    }

    static func rejections(_ records: [FormatRecord]) -> [RecordRejection] {
        records.compactMap { record in
            if case .rejected(let rejection) = record { return rejection }
            return nil
        }
    }

    /// A sentence with its checksum: `sentence("GPGGA,…")` → `$GPGGA,…*hh`.
    static func sentence(_ body: String) -> String {
        let checksum = body.utf8.reduce(UInt8(0), ^)
        return "$" + body + "*" + String(format: "%02X", checksum)
    }

    /// A time as `YYYY-MM-DDThh:mm:ss.sssZ`, rounded to the millisecond (how gpsd prints it).
    static func isoMilliseconds(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let days = Int(milliseconds.floorDiv(86_400_000))
        let inDay = milliseconds - Int64(days) * 86_400_000
        let day = CivilDate(daysSince1970: days).description
        let seconds = inDay / 1000
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = String(inDay % 1000)
        return "\(day)T\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))."
            + String(repeating: "0", count: 3 - millis.count) + millis + "Z"
    }
}

extension Int64 {
    fileprivate func floorDiv(_ divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
