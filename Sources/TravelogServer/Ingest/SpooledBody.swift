#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Hummingbird
import NIOCore
import TravelogFormats
import TravelogImport

/// A request body read as it arrives, never collected whole: up to `memoryLimitBytes` stay in
/// memory, a larger body goes to a temporary file that has no name from the moment it is created
/// (`O_TMPFILE`, or unlinked at once), so nothing is left on disk on any path, a crash included.
/// Readers pull it back as a `ByteSource`; a refused item is read again by its byte range.
final class SpooledBody: RawBody, @unchecked Sendable {
    /// Linux's `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`), which Glibc's Swift overlay does not export:
    /// a file in the directory that has no name at all.
    static let openTemporaryFile: Int32 = 0o20_000_000 | O_DIRECTORY

    /// Bodies up to this size stay in memory.
    static let memoryLimitBytes = 1 << 20

    private var memory: [UInt8] = []
    private var descriptor: Int32 = -1
    private(set) var byteCount = 0

    /// Reads the body.
    /// - Parameter limitBytes: the largest body accepted; a `Content-Length` above it is refused
    ///   before anything is read, a longer body as soon as it passes it.
    /// - Throws: `APIError.payloadTooLarge`, or what reading the request threw.
    init(_ request: Request, limitBytes: Int) async throws {
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }) {
            guard declared <= limitBytes else { throw APIError.payloadTooLarge(limitBytes: limitBytes) }
            // Room for what was announced, when it stays in memory: one copy, no regrowing.
            if declared <= Self.memoryLimitBytes { memory.reserveCapacity(declared) }
        }
        for try await buffer in request.body {
            let count = buffer.readableBytes
            guard byteCount + count <= limitBytes else {
                close()
                throw APIError.payloadTooLarge(limitBytes: limitBytes)
            }
            if descriptor < 0 && byteCount + count > Self.memoryLimitBytes {
                try spill()
            }
            if descriptor >= 0 {
                try buffer.withUnsafeReadableBytes { bytes in try write(bytes) }
            } else {
                buffer.withUnsafeReadableBytes { memory.append(contentsOf: $0) }
            }
            byteCount += count
        }
    }

    /// A path that opens the body's file (moved out of memory first), for libraries that want one
    /// (libzip): valid while this body lives.
    func filePath() throws -> String {
        if descriptor < 0 { try spill() }
        return "/proc/self/fd/\(descriptor)"
    }

    /// A body already in memory (tests, decoded forms).
    init(bytes: [UInt8]) {
        memory = bytes
        byteCount = bytes.count
    }

    deinit { close() }

    private func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }

    /// Moves what is in memory to an anonymous temporary file (0600).
    private func spill() throws {
        let directory = FileManager.default.temporaryDirectory.path
        var fd = open(directory, Self.openTemporaryFile | O_RDWR | O_CLOEXEC, 0o600)
        if fd < 0 {
            // File systems without O_TMPFILE: a private file (mkstemp makes it 0600), unlinked at once.
            var template = Array("\(directory)/travelog-body-XXXXXX".utf8CString)
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            if fd >= 0 {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
            }
        }
        guard fd >= 0 else { throw APIError.insufficientStorage("cannot keep the request body: \(String(cString: strerror(errno)))") }
        descriptor = fd
        let pending = memory
        memory = []
        try pending.withUnsafeBytes { try write($0) }
    }

    private func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw APIError.insufficientStorage("cannot keep the request body: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }

    /// Whether the body is empty or only white space.
    var isBlank: Bool {
        let head = bytes(in: 0..<min(byteCount, 4096), limit: 4096)
        return byteCount <= 4096 && head.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    }

    /// The whole body (only for bodies known to be small: forms, single fixes).
    var allBytes: [UInt8] { bytes(in: 0..<byteCount, limit: byteCount) }

    func bytes(in range: Range<Int>, limit: Int) -> [UInt8] {
        let lower = max(0, min(range.lowerBound, byteCount))
        let upper = max(lower, min(range.upperBound, byteCount, lower + max(0, limit)))
        guard upper > lower else { return [] }
        if descriptor < 0 { return Array(memory[lower..<upper]) }
        var result = [UInt8](repeating: 0, count: upper - lower)
        var done = 0
        while done < result.count {
            let count = result.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(lower + done)) }
            if count <= 0 { break }
            done += count
        }
        return Array(result.prefix(done))
    }

    /// The body as a stream for a format reader, from the start.
    func byteSource() -> any ByteSource {
        SpooledBodySource(body: self, offset: 0, end: byteCount)
    }

    /// A part of the body as a stream (a file of a multipart body, read in place, never copied).
    func byteSource(in range: Range<Int>) -> any ByteSource {
        SpooledBodySource(body: self, offset: max(0, range.lowerBound), end: min(byteCount, range.upperBound))
    }

    /// The bytes of the body held in memory (0 once it is in its file).
    var memoryByteCount: Int { memory.count }
}

/// Reads a spooled body, or a byte range of it, a block at a time.
struct SpooledBodySource: ByteSource {
    let body: SpooledBody
    /// Where the stream starts and ends in the body.
    let start: Int, end: Int
    var offset: Int

    init(body: SpooledBody, offset: Int, end: Int) {
        self.body = body
        self.start = offset
        self.end = max(offset, end)
        self.offset = offset
    }

    var totalByteCount: Int? { end - start }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(FormatError) -> Int {
        guard offset < end else { return 0 }
        let chunk = body.bytes(in: offset..<end, limit: buffer.count)
        chunk.withUnsafeBytes { buffer.copyMemory(from: $0) }
        offset += chunk.count
        return chunk.count
    }
}
