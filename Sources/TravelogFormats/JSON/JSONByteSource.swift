/// Where a `JSONParser` pulls its bytes from, one block at a time.
///
/// The parser calls `read(into:)` only when it has used up what it holds, so a source is asked for
/// about `JSONParser.Options.blockSizeBytes` at a time and memory stays flat however large the input.
public protocol JSONByteSource {
    /// Copies up to `buffer.count` bytes into `buffer` and returns how many; 0 means the input has ended.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int

    /// The length of the whole input in bytes when known (for a progress bar), else nil.
    var totalByteCount: Int? { get }
}

extension JSONByteSource {
    public var totalByteCount: Int? { nil }
}

/// Bytes already in memory, handed out at most `maximumChunkBytes` at a time.
///
/// A small `maximumChunkBytes` makes every token straddle a block boundary somewhere, which is how
/// the tests exercise the parser's refilling.
public struct JSONBytesSource: JSONByteSource, Sendable {
    private let bytes: [UInt8]
    private var offset = 0
    /// The most bytes one `read(into:)` returns.
    public let maximumChunkBytes: Int

    /// - Parameters:
    ///   - bytes: the whole input.
    ///   - maximumChunkBytes: the most bytes returned by one read; at least 1.
    public init(_ bytes: [UInt8], maximumChunkBytes: Int = .max) {
        precondition(maximumChunkBytes >= 1, "a chunk holds at least one byte")
        self.bytes = bytes
        self.maximumChunkBytes = maximumChunkBytes
    }

    public var totalByteCount: Int? { bytes.count }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, maximumChunkBytes, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { all in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[offset..<(offset + count)]))
        }
        offset += count
        return count
    }
}
