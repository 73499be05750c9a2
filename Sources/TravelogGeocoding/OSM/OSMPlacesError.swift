#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an OSM places file (``OSMPlacesFile``) could not be opened. Every case names the file; a
/// corrupt one also says at which byte offset the first inconsistency was found.
public enum OSMPlacesError: Error, Equatable, Sendable, CustomStringConvertible {
    case fileNotFound(path: String)
    case unreadable(path: String, errno: Int32)
    case corrupt(path: String, offset: Int, reason: OSMPlacesCorruption)

    public var description: String {
        switch self {
        case .fileNotFound(let path): "no OSM places file at \(path) (make one with `travelog osm add EXTRACT.osm.pbf`)"
        case .unreadable(let path, let errno): "cannot read the OSM places file \(path): \(String(cString: strerror(errno)))"
        case .corrupt(let path, let offset, let reason): "the OSM places file \(path) is corrupt at byte \(offset): \(reason)"
        }
    }
}

/// What is wrong inside an OSM places file.
public enum OSMPlacesCorruption: Equatable, Sendable, CustomStringConvertible {
    case notAPlacesFile
    case unsupportedVersion(UInt32)
    /// The header's counts call for another file size.
    case sizeMismatch(expectedBytes: Int, fileBytes: Int)
    /// A column of starting offsets decreases, does not start at 0 or does not end at its section's count.
    case badOffsets(column: String, row: Int)
    case invalidUTF8(stringIndex: Int)
    case referenceOutOfRange(column: String, row: Int, value: Int, limit: Int)
    case coordinateOutOfRange(column: String, row: Int)
    /// Places not sorted by (type, id), or one listed twice.
    case unsorted(row: Int)
    case badElementType(row: Int, value: UInt8)

    public var description: String {
        switch self {
        case .notAPlacesFile: "it does not start with TLOSMPL1"
        case .unsupportedVersion(let version): "format version \(version) is not one this Travelog reads"
        case .sizeMismatch(let expected, let file): "its header calls for \(expected) bytes, the file has \(file)"
        case .badOffsets(let column, let row): "the \(column) offsets are out of order at row \(row)"
        case .invalidUTF8(let index): "string \(index) is not UTF-8"
        case .referenceOutOfRange(let column, let row, let value, let limit): "\(column) of row \(row) is \(value), beyond \(limit)"
        case .coordinateOutOfRange(let column, let row): "the \(column) of row \(row) is out of range"
        case .unsorted(let row): "place \(row) is not after the one before it (sorted by type and id, each once)"
        case .badElementType(let row, let value): "place \(row) has element type \(value)"
        }
    }
}
