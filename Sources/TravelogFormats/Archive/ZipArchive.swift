internal import CLibzip
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A ZIP archive on disk (a Google Takeout `.zip`, a `.kmz`), opened read-only: its entries are
/// listed from the central directory, and each one is read as a stream, inflated as it is read.
///
/// Reads the format of PKWARE's APPNOTE.TXT (6.3.x) through libzip: stored and deflated entries,
/// ZIP64 (archives and entries over 4 GB, over 65,535 entries), UTF-8 and code page 437 names.
/// Opening reads only the central directory; the entries' bytes are read when a source asks.
///
/// Not thread-safe: use an archive and the sources it hands out from one task at a time. Several
/// entries may be open at once. The archive stays open as long as it or one of its sources lives.
///
/// - Complexity: opening is O(number of entries); memory while reading an entry is libzip's and
///   zlib's buffers (tens of KB), whatever the entry's size.
public final class ZipArchive {
    /// The archive's path as given.
    public let path: String
    /// Every entry of the central directory, files and folders, in the archive's order.
    public let entries: [ZipEntry]
    private let handle: OpaquePointer

    /// Opens the archive at `path` and lists its entries, once its central directory is within
    /// `limits` and no two entries overlap.
    /// - Parameters:
    ///   - byteRange: where the archive lies in the file, when it is a part of it (a file of a
    ///     multipart upload); `nil` for the whole file.
    ///   - limits: what opening and reading the archive may cost.
    /// - Throws: `FormatError.cannotRead` when the file cannot be opened; `FormatError.zip` when it
    ///   is not a ZIP archive, its central directory is broken, exceeds `limits` or has
    ///   overlapping entries.
    public init(path: String, byteRange: Range<Int>? = nil, limits: ZipArchiveLimits = .default) throws(FormatError) {
        try ZipCentralDirectory.check(path: path, byteRange: byteRange, limits: limits)
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        let start = UInt64(byteRange?.lowerBound ?? 0)
        let length = byteRange.map { Int64($0.count) } ?? -1  // to the end of the file
        guard let source = zip_source_file_create(path, start, length, &error) else {
            throw .cannotRead(path: path, reason: String(cString: zip_error_strerror(&error)))
        }
        guard let handle = zip_open_from_source(source, ZIP_RDONLY, &error) else {
            zip_source_free(source)
            switch zip_error_code_zip(&error) {
            case ZIP_ER_NOENT: throw .cannotRead(path: path, reason: "no such file")
            case ZIP_ER_OPEN, ZIP_ER_READ: throw .cannotRead(path: path, reason: String(cString: strerror(zip_error_code_system(&error))))
            default: throw .zip(Self.archiveError(&error, archivePath: path, entry: nil))
            }
        }
        self.path = path
        self.handle = handle
        do {
            self.entries = try Self.listEntries(handle, archivePath: path)
        } catch {
            zip_discard(handle)
            throw error
        }
    }

    deinit { zip_discard(handle) }

    /// The entry named exactly `name` (case-sensitive, as stored), if any.
    public func entry(named name: String) -> ZipEntry? {
        entries.first { $0.name == name }
    }

    /// A stream of the entry's bytes, inflated as they are read: the format readers read it as if
    /// it were the file itself. The CRC-32 is checked when the stream reaches its end.
    /// - Throws: `FormatError.zip` when the entry is encrypted, compressed with a method libzip
    ///   cannot inflate (stored and deflated always; Debian's libzip also bzip2 and LZMA), or its
    ///   local header is broken.
    public func contents(of entry: ZipEntry) throws(FormatError) -> ZipEntryByteSource {
        guard entries.indices.contains(entry.index), entries[entry.index] == entry else {
            throw .zip(ZipArchiveError(.libzip(code: ZIP_ER_INVAL, message: "not an entry of this archive"),
                                       archivePath: path, entryName: entry.name))
        }
        if entry.isEncrypted { throw .zip(ZipArchiveError(.encrypted, archivePath: path, entryName: entry.name)) }
        guard let file = zip_fopen_index(handle, UInt64(entry.index), 0) else {
            throw .zip(Self.archiveError(zip_get_error(handle), archivePath: path, entry: entry))
        }
        return ZipEntryByteSource(archive: self, file: file, entry: entry)
    }

    private static func listEntries(_ handle: OpaquePointer, archivePath: String) throws(FormatError) -> [ZipEntry] {
        let count = zip_get_num_entries(handle, 0)
        guard count >= 0 else { throw .zip(archiveError(zip_get_error(handle), archivePath: archivePath, entry: nil)) }
        var entries: [ZipEntry] = []
        entries.reserveCapacity(Int(count))
        for index in 0..<UInt64(count) {
            var stat = zip_stat_t()
            zip_stat_init(&stat)
            // Flags 0: names are decoded as UTF-8 when flagged or valid, else as code page 437.
            guard zip_stat_index(handle, index, 0, &stat) == 0, let name = stat.name else {
                throw .zip(archiveError(zip_get_error(handle), archivePath: archivePath, entry: nil))
            }
            func has(_ field: UInt32) -> Bool { stat.valid & UInt64(field) != 0 }
            entries.append(ZipEntry(
                index: Int(index),
                name: String(cString: name),
                compressedSizeBytes: has(ZIP_STAT_COMP_SIZE) ? Int(clamping: stat.comp_size) : 0,
                uncompressedSizeBytes: has(ZIP_STAT_SIZE) ? Int(clamping: stat.size) : 0,
                compressionMethod: .init(has(ZIP_STAT_COMP_METHOD) ? UInt16(truncatingIfNeeded: stat.comp_method) : 0),
                isEncrypted: has(ZIP_STAT_ENCRYPTION_METHOD) && stat.encryption_method != ZIP_EM_NONE))
        }
        return entries
    }

    /// Translates libzip's error about `entry` (`nil`: the archive) into Travelog's; `foundBytes` is
    /// how much of the entry was read.
    static func archiveError(_ error: UnsafeMutablePointer<zip_error_t>, archivePath: String,
                             entry: ZipEntry?, foundBytes: Int = 0) -> ZipArchiveError {
        let code = zip_error_code_zip(error)
        let method: UInt16 = switch entry?.compressionMethod {
        case .stored, nil: 0
        case .deflated: 8
        case .other(let method): method
        }
        let kind: ZipArchiveError.Kind = switch code {
        case ZIP_ER_NOZIP: .notAZipArchive
        case ZIP_ER_INCONS: .inconsistent(detail: String(cString: zip_error_strerror(error)))
        case ZIP_ER_MULTIDISK: .multiDisk
        case ZIP_ER_COMPNOTSUPP: .unsupportedCompression(method: method)
        case ZIP_ER_ENCRNOTSUPP, ZIP_ER_NOPASSWD, ZIP_ER_WRONGPASSWD: .encrypted
        case ZIP_ER_ZLIB, ZIP_ER_COMPRESSED_DATA: .corruptCompressedData
        case ZIP_ER_CRC: .checksumMismatch
        case ZIP_ER_EOF: .truncated(expectedBytes: entry?.uncompressedSizeBytes ?? 0, foundBytes: foundBytes)
        case ZIP_ER_READ, ZIP_ER_SEEK, ZIP_ER_TELL, ZIP_ER_OPEN:
            .io(reason: String(cString: zip_error_strerror(error)))
        default: .libzip(code: code, message: String(cString: zip_error_strerror(error)))
        }
        return ZipArchiveError(kind, archivePath: archivePath, entryName: entry?.name)
    }
}
