/// Why a ZIP archive (a Google Takeout `.zip`, a `.kmz`), or one entry in it, could not be read:
/// which archive, which entry (none when the archive as a whole is broken), and what is wrong.
public struct ZipArchiveError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The archive's path as given to `ZipArchive(path:)`.
    public var archivePath: String
    /// The entry being read, as named in the archive; `nil` when the archive as a whole is at fault.
    public var entryName: String?
    /// What is wrong.
    public var kind: Kind

    public init(_ kind: Kind, archivePath: String, entryName: String? = nil) {
        self.kind = kind
        self.archivePath = archivePath
        self.entryName = entryName
    }

    public enum Kind: Hashable, Sendable, CustomStringConvertible {
        /// No end of central directory record (APPNOTE 4.3.16): not a ZIP archive, or one cut short.
        case notAZipArchive
        /// The central directory and the local headers disagree, or a record points outside the
        /// file (APPNOTE 4.3.6–4.3.12); `detail` is libzip's account.
        case inconsistent(detail: String)
        /// The archive spans several disks (APPNOTE 8), which Travelog does not read.
        case multiDisk
        /// A compression method (APPNOTE 4.4.5) that libzip cannot inflate.
        case unsupportedCompression(method: UInt16)
        /// The entry is encrypted (APPNOTE 4.4.4 bit 0); Travelog reads no password-protected archive.
        case encrypted
        /// The deflated data is not valid (zlib could not inflate it).
        case corruptCompressedData
        /// The entry's bytes do not have the CRC-32 its header records (APPNOTE 4.4.7).
        case checksumMismatch
        /// The entry ended after `foundBytes` of the `expectedBytes` its header announces.
        case truncated(expectedBytes: Int, foundBytes: Int)
        /// The archive file could not be read or seeked: the system's reason.
        case io(reason: String)
        /// A `.kmz` without any `.kml` entry.
        case noKMLEntry
        /// The central directory lists more entries than `ZipArchiveLimits.maximumEntries`.
        case tooManyEntries(count: Int, limit: Int)
        /// The entries together inflate to more than `ZipArchiveLimits.maximumInflatedBytes`.
        case inflatedSizeTooLarge(totalBytes: Int, limitBytes: Int)
        /// The entry inflates to more than `ZipArchiveLimits.maximumCompressionRatio` bytes per
        /// compressed byte (a zip bomb).
        case compressionRatioTooHigh(ratio: Int, limit: Int)
        /// The entry's data and the data of entry `other` overlap (several central-directory
        /// entries on one local header, or one inside another's data: the overlapping zip bomb).
        case overlappingEntries(other: String)
        /// The entry inflates to more bytes than its header declares.
        case longerThanDeclared(declaredBytes: Int)
        /// Any other error libzip reports (`ZIP_ER_*` code and libzip's message).
        case libzip(code: Int32, message: String)

        public var description: String {
            switch self {
            case .notAZipArchive: "not a ZIP archive (no end of central directory record)"
            case .inconsistent(let detail): "inconsistent archive: \(detail)"
            case .multiDisk: "a multi-disk archive, which Travelog does not read"
            case .unsupportedCompression(let method): "compression method \(method) is not supported"
            case .encrypted: "encrypted, which Travelog does not read"
            case .corruptCompressedData: "the compressed data is corrupt"
            case .checksumMismatch: "CRC-32 mismatch: the data is corrupt"
            case .truncated(let expected, let found): "ends after \(found) of \(expected) bytes"
            case .io(let reason): "read error: \(reason)"
            case .noKMLEntry: "no .kml file inside"
            case .tooManyEntries(let count, let limit): "\(count) entries, more than the limit of \(limit)"
            case .inflatedSizeTooLarge(let total, let limit):
                "the entries inflate to \(total) bytes, more than the limit of \(limit) bytes"
            case .compressionRatioTooHigh(let ratio, let limit):
                "inflates \(ratio) times its compressed size, more than the limit of \(limit) times"
            case .overlappingEntries(let other): "its data overlaps the data of entry '\(other)'"
            case .longerThanDeclared(let declared): "inflates to more than the \(declared) bytes its header declares"
            case .libzip(let code, let message): "libzip error \(code): \(message)"
            }
        }
    }

    /// Whether the archive was refused for a limit of `ZipArchiveLimits` (its cost, not damage).
    public var isLimitExceeded: Bool {
        switch kind {
        case .tooManyEntries, .inflatedSizeTooLarge, .compressionRatioTooHigh: true
        default: false
        }
    }

    public var description: String {
        if let entryName { "\(archivePath), entry '\(entryName)': \(kind)" } else { "\(archivePath): \(kind)" }
    }
}
