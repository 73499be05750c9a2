/// Bytes already in memory, handed out in blocks of at most `maximumReadBytes`.
public struct XMLMemorySource: XMLByteSource, Sendable {
    public let bytes: [UInt8]
    /// The largest block returned by one `read`, in bytes (at least 1).
    public let maximumReadBytes: Int
    private var offset = 0

    /// - Parameters:
    ///   - bytes: the whole document.
    ///   - maximumReadBytes: the largest block one `read` returns (default: no limit).
    public init(_ bytes: [UInt8], maximumReadBytes: Int = .max) {
        self.bytes = bytes
        self.maximumReadBytes = max(1, maximumReadBytes)
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - offset, maximumReadBytes)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { all in
            guard let from = all.baseAddress, let to = buffer.baseAddress else { return }
            to.copyMemory(from: from + offset, byteCount: count)
        }
        offset += count
        return count
    }
}
