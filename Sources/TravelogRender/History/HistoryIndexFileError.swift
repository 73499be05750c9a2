/// Why a saved history index (``HistoryIndexFile``) was not used. Every case means the same to
/// the caller: build the index from the store again.
public enum HistoryIndexFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// There is no saved index.
    case notFound
    /// `open`, `read`, `write`, `fsync` or `rename` failed with this `errno`.
    case unreadable(errno: Int32)
    case unwritable(errno: Int32)
    /// The file does not begin with the index's magic bytes.
    case notAnIndexFile
    /// The file was written by another format version of the index.
    case unsupportedVersion(UInt32)
    /// The file ends before the section that begins at this byte offset.
    case truncated(offset: Int)
    /// The bytes after the header do not add up to the checksum the header holds.
    case checksumMismatch
    /// The sections read do not fit together (a vertex pointing past its level, columns of
    /// different lengths, levels of other zooms); the value names what.
    case inconsistent(String)

    public var description: String {
        switch self {
        case .notFound: "no saved history index"
        case let .unreadable(code): "the saved history index could not be read (errno \(code))"
        case let .unwritable(code): "the history index could not be saved (errno \(code))"
        case .notAnIndexFile: "not a saved history index"
        case let .unsupportedVersion(version): "a saved history index of format \(version), not \(HistoryIndexFile.formatVersion)"
        case let .truncated(offset): "the saved history index ends early (at byte \(offset))"
        case .checksumMismatch: "the saved history index is damaged (checksum)"
        case let .inconsistent(what): "the saved history index is inconsistent: \(what)"
        }
    }
}
