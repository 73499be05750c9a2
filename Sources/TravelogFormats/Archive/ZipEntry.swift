/// One entry of a ZIP archive's central directory (PKWARE APPNOTE.TXT 4.3.12), as listed by
/// `ZipArchive`: a file or a folder.
public struct ZipEntry: Hashable, Sendable, CustomStringConvertible {
    /// How an entry's bytes are stored (APPNOTE 4.4.5).
    public enum CompressionMethod: Hashable, Sendable {
        /// Method 0: the bytes as they are.
        case stored
        /// Method 8: raw deflate (RFC 1951).
        case deflated
        /// Any other method number (bzip2 is 12, LZMA 14, zstd 93…).
        case other(UInt16)

        init(_ method: UInt16) {
            switch method {
            case 0: self = .stored
            case 8: self = .deflated
            default: self = .other(method)
            }
        }
    }

    /// The entry's position in the central directory (0-based).
    public let index: Int
    /// The path inside the archive, '/'-separated, as UTF-8 (names not flagged UTF-8 that are not
    /// valid UTF-8 are read as code page 437, APPNOTE Appendix D). Folders end with '/'. The name
    /// is only ever used to read the entry, never as a path on disk.
    public let name: String
    /// The size of the stored (compressed) bytes.
    public let compressedSizeBytes: Int
    /// The size of the entry once inflated: what its `ByteSource` hands out in all.
    public let uncompressedSizeBytes: Int
    /// How the bytes are stored.
    public let compressionMethod: CompressionMethod
    /// Whether the entry is encrypted (it cannot be read).
    public let isEncrypted: Bool

    public init(index: Int, name: String, compressedSizeBytes: Int, uncompressedSizeBytes: Int,
                compressionMethod: CompressionMethod, isEncrypted: Bool) {
        self.index = index
        self.name = name
        self.compressedSizeBytes = compressedSizeBytes
        self.uncompressedSizeBytes = uncompressedSizeBytes
        self.compressionMethod = compressionMethod
        self.isEncrypted = isEncrypted
    }

    /// Whether the entry is a folder (its name ends with '/', APPNOTE 4.4.17.1).
    public var isDirectory: Bool { name.hasSuffix("/") }

    /// The non-empty components of the name: `["Takeout", "Location History", "Records.json"]`.
    public var pathComponents: [Substring] { name.split(separator: "/", omittingEmptySubsequences: true) }

    /// The last component of the name: `Records.json`.
    public var fileName: String { pathComponents.last.map(String.init) ?? "" }

    /// The file name's extension in lower case, without the dot (`"kml"`), or `""`.
    public var fileExtension: String {
        let name = fileName
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }

    public var description: String { name }
}
