#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a gazetteer file could not be loaded. Every case names the file; a corrupt file also says
/// at which byte offset the first inconsistency was found.
public enum GazetteerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// There is no file at `path` (build it with `make gazetteer`).
    case fileNotFound(path: String)
    /// The file exists but could not be read (`errno` from the system call).
    case unreadable(path: String, errno: Int32)
    /// The file was read but is not a valid gazetteer of a format this version reads.
    case corrupt(path: String, offset: Int, reason: GazetteerCorruption)
    /// A set of places could not be written: `reason` says which value does not fit the format.
    case unencodable(GazetteerEncodingProblem)

    public var description: String {
        switch self {
        case .fileNotFound(let path):
            "no gazetteer at \(path) (build it with `make gazetteer`, or pass --gazetteer PATH)"
        case .unreadable(let path, let errno):
            "cannot read the gazetteer \(path): \(String(cString: strerror(errno)))"
        case .corrupt(let path, let offset, let reason):
            "the gazetteer \(path) is corrupt at byte \(offset): \(reason)"
        case .unencodable(let problem):
            "cannot write a gazetteer: \(problem)"
        }
    }
}

/// What is wrong inside a gazetteer file.
public enum GazetteerCorruption: Equatable, Sendable, CustomStringConvertible {
    /// The file does not start with the format's magic bytes.
    case notAGazetteer
    /// The file is of a format version this code does not read.
    case unsupportedVersion(UInt32)
    /// The file ends before the section its header announces (sizes in bytes).
    case truncated(section: String, expectedBytes: Int, fileBytes: Int)
    /// Bytes follow the last section.
    case trailingBytes(count: Int)
    /// The string table's offsets decrease or do not end at the end of its bytes.
    case badStringOffset(index: Int, value: UInt32)
    /// A string of the table is not well-formed UTF-8.
    case invalidUTF8(stringIndex: Int)
    /// A reference (to a string or a country) is past the end of its table.
    case referenceOutOfRange(column: String, row: Int, value: UInt32, limit: Int)
    /// A coordinate, in 1e-5 degrees, is outside the range of latitudes or longitudes.
    case coordinateOutOfRange(column: String, row: Int, value: Int32)
    /// A country code is not two upper-case ASCII letters.
    case badCountryCode(country: Int)

    public var description: String {
        switch self {
        case .notAGazetteer: "not a Travelog gazetteer (the magic bytes are missing)"
        case .unsupportedVersion(let version): "format version \(version) is not supported (this code reads version \(Gazetteer.formatVersion))"
        case .truncated(let section, let expected, let file): "the \(section) needs \(expected) bytes but the file has \(file)"
        case .trailingBytes(let count): "\(count) unexpected bytes after the last section"
        case .badStringOffset(let index, let value): "string offset \(index) (\(value)) is out of order or past the string bytes"
        case .invalidUTF8(let index): "string \(index) is not valid UTF-8"
        case .referenceOutOfRange(let column, let row, let value, let limit): "\(column) of row \(row) is \(value), not below \(limit)"
        case .coordinateOutOfRange(let column, let row, let value): "\(column) of place \(row) is \(value) × 1e-5 degrees, out of range"
        case .badCountryCode(let country): "country \(country) does not have a two-letter ISO code"
        }
    }
}

/// Why a list of places cannot be written as a gazetteer.
public enum GazetteerEncodingProblem: Equatable, Sendable, CustomStringConvertible {
    /// More places, strings or countries than the format's 32- or 16-bit counts hold.
    case tooMany(what: String, count: Int)
    /// A country code is not two upper-case ASCII letters, or an alpha-3 code not three.
    case badCountryCode(String)
    /// The population does not fit an unsigned 32-bit number.
    case populationOutOfRange(Int)

    public var description: String {
        switch self {
        case .tooMany(let what, let count): "\(count) \(what) are more than the format holds"
        case .badCountryCode(let code): "'\(code)' is not an ISO 3166 country code"
        case .populationOutOfRange(let population): "population \(population) does not fit 32 bits"
        }
    }
}
