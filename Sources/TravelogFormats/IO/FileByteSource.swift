#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file read block by block with `read(2)`, for files far larger than memory.
public final class FileByteSource: ByteSource {
    /// The file's path as given.
    public let path: String
    /// The file's size in bytes when it was opened.
    public let fileSizeBytes: Int
    private let descriptor: Int32

    /// Opens `path` for reading. - Throws: `FormatError.cannotRead` when it cannot be opened or is
    /// not a regular file.
    public init(path: String) throws(FormatError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotRead(path: path, reason: String(cString: strerror(errno))) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw .cannotRead(path: path, reason: "not a regular file")
        }
        self.path = path
        self.descriptor = descriptor
        self.fileSizeBytes = Int(status.st_size)
    }

    deinit { close(descriptor) }

    public var totalByteCount: Int? { fileSizeBytes }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(FormatError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            #if canImport(Glibc)
            let count = Glibc.read(descriptor, base, buffer.count)
            #else
            let count = Darwin.read(descriptor, base, buffer.count)
            #endif
            if count >= 0 { return count }
            if errno != EINTR { throw .cannotRead(path: path, reason: String(cString: strerror(errno))) }
        }
    }
}
