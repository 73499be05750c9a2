/// A source that hands out bytes already read from another source, then the rest of that source:
/// how a reader looks at the start of its input to choose how to read it, and then reads it all.
struct PrefixedByteSource: ByteSource {
    private let prefix: [UInt8]
    private var offset = 0
    private var rest: any ByteSource

    /// - Parameters:
    ///   - prefix: the bytes read from `rest` so far.
    ///   - rest: the source they came from, positioned after them.
    init(prefix: [UInt8], rest: any ByteSource) {
        self.prefix = prefix
        self.rest = rest
    }

    /// The whole input's length, prefix included, when the source knows it.
    var totalByteCount: Int? { rest.totalByteCount }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(FormatError) -> Int {
        guard offset < prefix.count else { return try rest.read(into: buffer) }
        let count = min(buffer.count, prefix.count - offset)
        prefix.withUnsafeBytes { all in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[offset..<(offset + count)]))
        }
        offset += count
        return count
    }
}
