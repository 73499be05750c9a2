#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file read block by block with `read(2)`, for parsing files far larger than memory.
///
/// Pair it with `JSONParser.bytesConsumed` and `totalByteCount` to drive a progress bar.
public final class JSONFileSource: JSONByteSource {
    /// The file's path as given.
    public let path: String
    /// The file's size in bytes when it was opened; nil for a pipe or device.
    public let fileSizeBytes: Int?
    private let descriptor: Int32

    /// Opens `path` for reading.
    /// - Throws: `JSONFileSourceError.cannotOpen` when the file cannot be opened, `.isADirectory`.
    public init(path: String) throws(JSONFileSourceError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, errno: errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw .cannotOpen(path: path, errno: code)
        }
        let type = status.st_mode & S_IFMT
        guard type != S_IFDIR else {
            close(descriptor)
            throw .isADirectory(path: path)
        }
        self.path = path
        self.descriptor = descriptor
        self.fileSizeBytes = type == S_IFREG ? Int(status.st_size) : nil
    }

    deinit { close(descriptor) }

    public var totalByteCount: Int? { fileSizeBytes }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            #if canImport(Glibc)
            let count = Glibc.read(descriptor, base, buffer.count)
            #else
            let count = Darwin.read(descriptor, base, buffer.count)
            #endif
            if count >= 0 { return count }
            if errno != EINTR { throw JSONFileSourceError.readFailed(path: path, errno: errno) }
        }
    }
}

/// Why a file could not be read.
public enum JSONFileSourceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `open(2)` or `fstat(2)` failed; `errno` says why.
    case cannotOpen(path: String, errno: Int32)
    /// The path names a folder.
    case isADirectory(path: String)
    /// `read(2)` failed part-way.
    case readFailed(path: String, errno: Int32)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let code): "cannot open \(path): \(String(cString: strerror(code)))"
        case .isADirectory(let path): "cannot read \(path): it is a folder"
        case .readFailed(let path, let code): "cannot read \(path): \(String(cString: strerror(code)))"
        }
    }
}
