#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a time-zone boundaries file could not be loaded. Every case names the file; a corrupt file
/// also says at which byte offset the first inconsistency was found.
public enum TimeZoneBoundariesError: Error, Equatable, Sendable, CustomStringConvertible {
    /// There is no file at `path` (build it with `make timezones`).
    case fileNotFound(path: String)
    /// The file exists but could not be read (`errno` from the system call).
    case unreadable(path: String, errno: Int32)
    /// The file was read but is not valid time-zone boundaries of a format this version reads.
    case corrupt(path: String, offset: Int, reason: TimeZoneBoundariesCorruption)

    public var description: String {
        switch self {
        case .fileNotFound(let path):
            "no time-zone boundaries at \(path) (build them with `make timezones`)"
        case .unreadable(let path, let errno):
            "cannot read the time-zone boundaries \(path): \(String(cString: strerror(errno)))"
        case .corrupt(let path, let offset, let reason):
            "the time-zone boundaries \(path) are corrupt at byte \(offset): \(reason)"
        }
    }
}

/// What is wrong inside a time-zone boundaries file.
public enum TimeZoneBoundariesCorruption: Equatable, Sendable, CustomStringConvertible {
    /// The file does not start with the format's magic bytes.
    case notTimeZoneBoundaries
    /// The file is of a format version this code does not read.
    case unsupportedVersion(UInt32)
    /// The grid does not cover the world with its cells (sizes in 1/units-per-degree degrees).
    case badGrid(cellUnits: UInt32, unitsPerDegree: UInt32, columns: UInt32, rows: UInt32)
    /// The file ends before the section its header announces (sizes in bytes).
    case truncated(section: String, expectedBytes: Int, fileBytes: Int)
    /// Bytes follow the last section, or the points end before their bytes do.
    case trailingBytes(count: Int)
    /// A table of first indexes (names, rings, points) decreases, or does not start at 0 or end at its total.
    case badOffsets(table: String, index: Int, value: UInt32)
    /// A zone name is not well-formed UTF-8.
    case invalidUTF8(zone: Int)
    /// A reference (to a zone, a polygon, a cell record, an edge) is past the end of its table.
    case referenceOutOfRange(what: String, index: Int, value: UInt32, limit: Int)
    /// A point's varint is cut short or longer than 64 bits.
    case badVarint(point: Int)
    /// A point, in 1/units-per-degree degrees, is outside the range of longitudes or latitudes.
    case coordinateOutOfRange(point: Int, longitude: Int64, latitude: Int64)

    public var description: String {
        switch self {
        case .notTimeZoneBoundaries: "not Travelog time-zone boundaries (the magic bytes are missing)"
        case .unsupportedVersion(let version): "format version \(version) is not supported (this code reads version \(TimeZoneBoundaries.formatVersion))"
        case .badGrid(let cell, let units, let columns, let rows): "a grid of \(columns) × \(rows) cells of \(cell)/\(units)° does not cover the world"
        case .truncated(let section, let expected, let file): "the \(section) needs \(expected) bytes but the file has \(file)"
        case .trailingBytes(let count): "\(count) unexpected bytes after the last section"
        case .badOffsets(let table, let index, let value): "\(table) \(index) (\(value)) is out of order or past its end"
        case .invalidUTF8(let zone): "the name of zone \(zone) is not valid UTF-8"
        case .referenceOutOfRange(let what, let index, let value, let limit): "\(what) \(index) is \(value), not below \(limit)"
        case .badVarint(let point): "the varint of point \(point) is cut short or too long"
        case .coordinateOutOfRange(let point, let longitude, let latitude): "point \(point) (\(longitude), \(latitude)) is out of range"
        }
    }
}
