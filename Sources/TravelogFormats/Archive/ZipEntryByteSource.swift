internal import CLibzip

/// The bytes of one ZIP entry, inflated as they are pulled (libzip's `zip_fread`), so that a format
/// reader reads an entry of a Takeout archive exactly as it reads a file: memory stays a few
/// buffers however large the entry. Made by `ZipArchive.contents(of:)`.
///
/// At the end of the entry the CRC-32 is checked and the length compared with the central
/// directory's; either mismatch throws instead of ending quietly, and so does an entry that
/// inflates past its declared size (which `ZipArchiveLimits` were checked against).
public final class ZipEntryByteSource: ByteSource {
    /// The entry being read.
    public let entry: ZipEntry
    /// How many inflated bytes have been handed out so far.
    public private(set) var bytesRead = 0
    private let archive: ZipArchive
    private let file: OpaquePointer
    private var ended = false

    init(archive: ZipArchive, file: OpaquePointer, entry: ZipEntry) {
        self.archive = archive
        self.file = file
        self.entry = entry
    }

    deinit { zip_fclose(file) }

    /// The entry's uncompressed size, from the central directory.
    public var totalByteCount: Int? { entry.uncompressedSizeBytes }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(FormatError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0, !ended else { return 0 }
        let count = zip_fread(file, base, UInt64(buffer.count))
        guard count >= 0 else {
            throw .zip(ZipArchive.archiveError(zip_file_get_error(file), archivePath: archive.path, entry: entry,
                                               foundBytes: bytesRead))
        }
        if count == 0 {
            ended = true
            guard bytesRead == entry.uncompressedSizeBytes else {
                throw .zip(ZipArchiveError(.truncated(expectedBytes: entry.uncompressedSizeBytes, foundBytes: bytesRead),
                                           archivePath: archive.path, entryName: entry.name))
            }
            return 0
        }
        guard bytesRead + Int(count) <= entry.uncompressedSizeBytes else {
            ended = true
            throw .zip(ZipArchiveError(.longerThanDeclared(declaredBytes: entry.uncompressedSizeBytes),
                                       archivePath: archive.path, entryName: entry.name))
        }
        bytesRead += Int(count)
        return Int(count)
    }
}
