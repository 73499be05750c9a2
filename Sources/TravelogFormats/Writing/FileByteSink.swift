#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written through one large buffer with `write(2)`: one system call per buffer-full
/// (a megabyte by default), however small the pieces handed to it.
///
/// Call `close()` when done: it writes what is still buffered and reports errors. `deinit` writes
/// the rest too, but can only drop an error.
public final class FileByteSink: ByteSink {
    /// The file's path as given.
    public let path: String
    /// Bytes handed to `write(2)` so far.
    public private(set) var bytesFlushed = 0
    private var descriptor: Int32
    private let buffer: UnsafeMutableRawPointer
    private let bufferSizeBytes: Int
    private var buffered = 0

    /// Creates (or truncates) the file at `path`, readable and writable by its owner only (0600,
    /// whatever the umask; an existing regular file is made 0600 too: exports are private history).
    /// A device such as `/dev/stdout` keeps its permissions.
    /// - Parameters:
    ///   - path: where to write.
    ///   - bufferSizeBytes: how much is gathered before each `write(2)`; at least 4096.
    /// - Throws: `FormatError.cannotWrite` when the file cannot be created.
    public init(path: String, bufferSizeBytes: Int = 1 << 20) throws(FormatError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG), status.st_mode & 0o077 != 0 {
            _ = fchmod(descriptor, 0o600)
        }
        self.path = path
        self.descriptor = descriptor
        self.bufferSizeBytes = max(4096, bufferSizeBytes)
        self.buffer = .allocate(byteCount: self.bufferSizeBytes, alignment: 16)
    }

    deinit {
        if descriptor >= 0 {
            try? flushBuffer()
            _ = systemClose(descriptor)
        }
        buffer.deallocate()
    }

    /// Whether `close()` has been called.
    public var isClosed: Bool { descriptor < 0 }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(FormatError) {
        guard !isClosed else { throw .cannotWrite(path: path, reason: "the file is already closed") }
        if buffered + bytes.count > bufferSizeBytes { try flushBuffer() }
        if bytes.count >= bufferSizeBytes {
            try writeFully(bytes)
            return
        }
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        (buffer + buffered).copyMemory(from: source, byteCount: bytes.count)
        buffered += bytes.count
    }

    public func flush() throws(FormatError) {
        guard !isClosed else { throw .cannotWrite(path: path, reason: "the file is already closed") }
        try flushBuffer()
    }

    /// Writes what is buffered and closes the file; calling it again does nothing.
    /// - Throws: `FormatError.cannotWrite` when the last bytes cannot be written or the file
    ///   system reports an error on close (a full disk on NFS shows up only here).
    public func close() throws(FormatError) {
        guard !isClosed else { return }
        defer { descriptor = -1 }
        do {
            try flushBuffer()
        } catch {
            _ = systemClose(descriptor)
            throw error
        }
        if systemClose(descriptor) != 0 {
            throw .cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
    }

    private func flushBuffer() throws(FormatError) {
        guard buffered > 0 else { return }
        try writeFully(UnsafeRawBufferPointer(start: buffer, count: buffered))
        buffered = 0
    }

    /// Loops over partial writes and interruptions until every byte is written.
    private func writeFully(_ bytes: UnsafeRawBufferPointer) throws(FormatError) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, base + offset, bytes.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                let reason = written == 0 ? "write(2) wrote nothing" : String(cString: strerror(errno))
                throw .cannotWrite(path: path, reason: reason)
            }
        }
        bytesFlushed += bytes.count
    }
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #else
    Darwin.write(descriptor, bytes, count)
    #endif
}

private func systemClose(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.close(descriptor)
    #else
    Darwin.close(descriptor)
    #endif
}
