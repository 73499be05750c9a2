#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why reading standard input or writing standard output failed.
public enum StandardStreamError: Error, Equatable, Sendable, CustomStringConvertible {
    case readFailed(errno: Int32)
    case writeFailed(errno: Int32)

    public var description: String {
        switch self {
        case .readFailed(let code): "cannot read standard input: \(String(cString: strerror(code)))"
        case .writeFailed(let code): "cannot write standard output: \(String(cString: strerror(code)))"
        }
    }
}

/// Standard input and output as raw file descriptors, read and written in large blocks (no stdio
/// buffering, no per-line system calls).
enum StandardStreams {
    /// Bytes read from standard input per system call.
    static let blockSize = 1 << 16

    /// Whether standard output is a terminal (then output is written after every block read,
    /// which for a terminal is every line typed).
    static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    /// Whether standard input is a terminal (a person typing lines).
    static var inputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Calls `body` with each block read from standard input until its end.
    static func readBlocks(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: blockSize)
        defer { buffer.deallocate() }
        while true {
            let count = read(STDIN_FILENO, buffer.baseAddress, blockSize)
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR { continue }
                throw StandardStreamError.readFailed(errno: errno)
            }
            try body(UnsafeBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// Writes all of `bytes` to standard output.
    static func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }  // nothing to write
            var offset = 0
            while offset < all.count {
                let written = systemWrite(STDOUT_FILENO, base + offset, all.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw StandardStreamError.writeFailed(errno: errno)
                }
                offset += written
            }
        }
    }

    private static func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, bytes, count)
        #else
        Darwin.write(fd, bytes, count)
        #endif
    }
}
