/// Where a streaming reader pulls its bytes from, one block at a time, so that memory stays flat
/// however large the input.
public protocol ByteSource {
    /// Copies up to `buffer.count` bytes into `buffer` and returns how many; 0 means the input ended.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(FormatError) -> Int

    /// The length of the whole input in bytes when known (for a progress bar).
    var totalByteCount: Int? { get }
}

/// Bytes already in memory, handed out at most `maximumChunkBytes` at a time (a small chunk size
/// is how tests make every token straddle a block boundary).
public struct MemoryByteSource: ByteSource, Sendable {
    private let bytes: [UInt8]
    private var offset = 0
    /// The most bytes one `read(into:)` returns.
    public let maximumChunkBytes: Int

    /// - Parameters:
    ///   - bytes: the whole input.
    ///   - maximumChunkBytes: the most bytes one read returns; values below 1 count as 1.
    public init(_ bytes: [UInt8], maximumChunkBytes: Int = .max) {
        self.bytes = bytes
        self.maximumChunkBytes = max(1, maximumChunkBytes)
    }

    public var totalByteCount: Int? { bytes.count }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(FormatError) -> Int {
        let count = min(buffer.count, maximumChunkBytes, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { all in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[offset..<(offset + count)]))
        }
        offset += count
        return count
    }
}
