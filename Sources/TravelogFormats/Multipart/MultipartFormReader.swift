#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a `multipart/form-data` body (RFC 7578, the syntax of RFC 2046 §5.1) as it arrives: the
/// parts are handed out one at a time, and each part's content is a `ByteSource` that ends at the
/// next boundary, so a browser's or `curl -F` upload of several files is read without holding any
/// part in memory.
///
/// ```
/// let reader = try MultipartFormReader(source: body, boundary: MultipartFormReader.boundary(fromContentType: type))
/// while var part = try reader.nextPart() {
///     if part.filename == nil { device = try part.readText() } else { import(part.content) }
/// }
/// ```
///
/// A part's content stops being readable once the next part is asked for; whatever was not read
/// of it is skipped. The preamble and the epilogue are ignored; so is transport padding after a
/// boundary. Not thread-safe: one task reads a body.
///
/// - Complexity: O(n) in the body's length (each byte is examined a bounded number of times);
///   memory is one block (`blockBytes`) whatever the size of the parts.
public final class MultipartFormReader {
    /// The boundary as given (without the leading `--`).
    public let boundary: String
    /// The most bytes a part's header block may have.
    public let maximumHeaderBytes: Int
    /// The most parts the body may have.
    public let maximumParts: Int

    enum State {
        /// Before the first boundary.
        case preamble
        /// Just after `--boundary`: `--` (the end) or CRLF (a part's headers) follows.
        case afterDelimiter
        /// Reading part `partCount`'s content.
        case content
        /// After the closing `--boundary--`.
        case finished
    }

    var state = State.preamble
    /// How many parts have been handed out.
    var partCount = 0
    private var source: any ByteSource
    /// `CRLF--boundary`: every boundary, the first one included (the buffer starts with a CRLF
    /// that is not part of the body, so a boundary on the first line matches too).
    let delimiter: [UInt8]
    let buffer: UnsafeMutableRawBufferPointer
    /// Unread bytes are `buffer[start..<end]`.
    var start = 0
    var end = 0
    /// The body offset of `buffer[0]` (the virtual CRLF is at -2 and -1).
    private(set) var bufferBodyOffset = -2
    var sourceEnded = false
    /// Where the next delimiter starts in the buffer, once found.
    private var delimiterIndex: Int?
    /// No delimiter starts in `buffer[start..<scannedUpTo]`.
    private var scannedUpTo = 0

    /// - Parameters:
    ///   - source: the body, positioned at its first byte.
    ///   - boundary: the `boundary` parameter of the body's `Content-Type` (see
    ///     `boundary(fromContentType:)`).
    ///   - blockBytes: the size of the read buffer.
    ///   - maximumHeaderBytes: the most bytes one part's header block may have.
    ///   - maximumParts: the most parts the body may have; `nextPart()` refuses the next one.
    /// - Throws: `FormatError.multipart(.invalidBoundary)` when the boundary breaks RFC 2046's rules.
    public init(source: any ByteSource, boundary: String, blockBytes: Int = 64 * 1024,
                maximumHeaderBytes: Int = 16 * 1024, maximumParts: Int = .max) throws(FormatError) {
        try Self.validate(boundary: boundary)
        self.source = source
        self.boundary = boundary
        self.maximumHeaderBytes = max(256, maximumHeaderBytes)
        self.maximumParts = maximumParts
        self.delimiter = Array("\r\n--\(boundary)".utf8)
        let capacity = max(blockBytes, self.maximumHeaderBytes + 4, 4 * delimiter.count)
        self.buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        buffer[0] = UInt8(ascii: "\r")
        buffer[1] = UInt8(ascii: "\n")
        end = 2
    }

    deinit { buffer.deallocate() }

    /// The next part, its headers read and its content ready to stream; `nil` after the closing
    /// boundary. Skips what was not read of the previous part.
    /// - Throws: `FormatError.multipart` for a body without boundary, cut short, with a broken
    ///   header block, or with more than `maximumParts` parts; `FormatError` from the source.
    public func nextPart() throws(FormatError) -> MultipartPart? {
        while true {
            switch state {
            case .finished:
                return nil
            case .preamble:
                try skipToDelimiter(whenAbsent: .missingFirstBoundary)
            case .content:
                try skipToDelimiter(whenAbsent: .missingClosingBoundary)
            case .afterDelimiter:
                guard try readDelimiterLineEnd() else {
                    state = .finished
                    return nil
                }
                guard partCount < maximumParts else { throw error(.tooManyParts(limit: maximumParts), at: start) }
                partCount += 1
                let headers = try readHeaderBlock()
                state = .content
                return try MultipartPart(number: partCount, headers: headers, contentByteOffset: bufferBodyOffset + start,
                                         reader: self)
            }
        }
    }

    /// Copies up to `target.count` bytes of part `partNumber`'s content; 0 at its end (or once a
    /// later part was asked for).
    func readContent(ofPart partNumber: Int, into target: UnsafeMutableRawBufferPointer) throws(FormatError) -> Int {
        guard state == .content, partNumber == partCount, target.count > 0 else { return 0 }
        while true {
            if let index = locateDelimiter() {
                guard index > start else {
                    consumeDelimiter()
                    return 0
                }
                return copyOut(min(index - start, target.count), into: target)
            }
            let safe = end - start - (delimiter.count - 1)
            if safe > 0 { return copyOut(min(safe, target.count), into: target) }
            guard try fill() else { throw error(.missingClosingBoundary, at: end) }
        }
    }

    /// Discards bytes up to and including the next delimiter.
    private func skipToDelimiter(whenAbsent missing: MultipartError.Kind) throws(FormatError) {
        while true {
            if locateDelimiter() != nil {
                consumeDelimiter()
                return
            }
            start = max(start, end - (delimiter.count - 1))
            guard try fill() else { throw error(missing, at: end) }
        }
    }

    private func copyOut(_ count: Int, into target: UnsafeMutableRawBufferPointer) -> Int {
        target.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[start..<(start + count)]))
        start += count
        return count
    }

    private func consumeDelimiter() {
        if let index = delimiterIndex { start = index + delimiter.count }
        delimiterIndex = nil
        scannedUpTo = start
        state = .afterDelimiter
    }

    /// The index of the next delimiter in the unread bytes, scanning each byte once.
    private func locateDelimiter() -> Int? {
        if let delimiterIndex { return delimiterIndex }
        var candidate = max(start, scannedUpTo)
        let lastStart = end - delimiter.count
        guard let base = buffer.baseAddress else { return nil }
        while candidate <= lastStart {
            guard let found = memchr(base + candidate, Int32(delimiter[0]), lastStart - candidate + 1) else { break }
            let index = base.distance(to: found)
            let matches = delimiter.withUnsafeBytes { pattern in
                pattern.baseAddress.map { memcmp(base + index, $0, delimiter.count) == 0 } ?? false
            }
            if matches {
                delimiterIndex = index
                return index
            }
            candidate = index + 1
        }
        scannedUpTo = max(start, lastStart + 1)
        return nil
    }

    /// Reads more of the source after the unread bytes, moving them to the front first.
    /// Returns false when the source has ended (or, which `capacity` rules out, the buffer is full).
    func fill() throws(FormatError) -> Bool {
        if start > 0 {
            let count = end - start
            if count > 0, let base = buffer.baseAddress { memmove(base, base + start, count) }
            bufferBodyOffset += start
            scannedUpTo = max(0, scannedUpTo - start)
            delimiterIndex = delimiterIndex.map { $0 - start }
            end = count
            start = 0
        }
        guard !sourceEnded, end < buffer.count else { return false }
        let count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...]))
        if count == 0 {
            sourceEnded = true
            return false
        }
        end += count
        return true
    }

    /// The error `kind` at buffer index `index`, in the part being read.
    func error(_ kind: MultipartError.Kind, at index: Int) -> FormatError {
        .multipart(MultipartError(kind, byteOffset: max(0, bufferBodyOffset + index),
                                  partNumber: partCount > 0 ? partCount : nil))
    }
}
