internal import CLibzip
import Foundation

/// Writes a ZIP archive (PKWARE APPNOTE.TXT, ZIP64 when needed) with libzip: files on disk added
/// under names of their own, deflated, read by libzip only when ``close()`` writes the archive, so
/// nothing is held in memory whatever their size. The archive appears at its path only once
/// complete (libzip writes a temporary file and renames it).
public final class ZipArchiveWriter {
    public let path: String
    private var handle: OpaquePointer?

    /// Starts a new archive at `path`, replacing one that is there.
    /// - Throws: `FormatError.cannotRead` (the folder cannot be written) or `.zip`.
    public init(path: String) throws(FormatError) {
        var code: Int32 = 0
        guard let handle = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &code) else {
            var error = zip_error_t()
            zip_error_init_with_code(&error, code)
            defer { zip_error_fini(&error) }
            throw .zip(ZipArchive.archiveError(&error, archivePath: path, entry: nil))
        }
        self.path = path
        self.handle = handle
    }

    deinit { if let handle { zip_discard(handle) } }

    /// Adds the file at `filePath` as `name` (`/` separates folders); it must stay until ``close()``.
    public func addFile(named name: String, contentsOf filePath: String, compress: Bool = true) throws(FormatError) {
        guard let handle else { throw .zip(ZipArchiveError(.io(reason: "the archive is closed"), archivePath: path, entryName: name)) }
        guard let source = zip_source_file(handle, filePath, 0, -1) else { throw .zip(lastError(entry: name)) }
        let index = zip_file_add(handle, name, source, zip_flags_t(ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE))
        if index < 0 {
            zip_source_free(source)
            throw .zip(lastError(entry: name))
        }
        // Stored as it is (a JPEG or a HEIC gains nothing from deflate, and costs its time).
        if !compress, zip_set_file_compression(handle, zip_uint64_t(index), ZIP_CM_STORE, 0) < 0 { throw .zip(lastError(entry: name)) }
    }

    /// Writes the archive: reads and deflates every file added.
    public func close() throws(FormatError) {
        guard let handle else { return }
        if zip_close(handle) < 0 {
            let error = lastError(entry: nil)
            zip_discard(handle)
            self.handle = nil
            throw .zip(error)
        }
        self.handle = nil
    }

    private func lastError(entry: String?) -> ZipArchiveError {
        guard let handle, let error = zip_get_error(handle) else {
            return ZipArchiveError(.io(reason: "libzip failed"), archivePath: path, entryName: entry)
        }
        let translated = ZipArchive.archiveError(error, archivePath: path, entry: nil)
        return ZipArchiveError(translated.kind, archivePath: path, entryName: entry)
    }
}
