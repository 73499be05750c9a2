#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file read block by block with `read(2)`: memory stays flat whatever the file size. Its size
/// (when known) and `XMLPullParser.consumedByteCount` give a progress fraction.
public final class XMLFileSource: XMLByteSource {
    /// The path the file was opened from.
    public let path: String
    /// The file's size in bytes when it is a regular file, else `nil` (a pipe, a device).
    public let sizeBytes: Int?
    private let fileDescriptor: Int32

    /// Opens `path` for reading.
    /// - Throws: `XMLInputError.cannotOpen` with errno.
    public init(path: String) throws {
        self.path = path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw XMLInputError.cannotOpen(path: path, errorNumber: errno) }
        fileDescriptor = descriptor
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
            sizeBytes = Int(status.st_size)
        } else {
            sizeBytes = nil
        }
        #if os(Linux)
        _ = posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        #endif
    }

    deinit { close(fileDescriptor) }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            #if canImport(Glibc)
            let count = Glibc.read(fileDescriptor, base, buffer.count)
            #else
            let count = Darwin.read(fileDescriptor, base, buffer.count)
            #endif
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw XMLInputError.readFailed(path: path, errorNumber: errno)
        }
    }
}
