import TravelogFormats

/// A byte source that returns its bytes in the blocks given by `splits` (block boundaries), so
/// that a test can cut a document at any byte.
struct XMLSplitSource: ByteSource {
    private let bytes: [UInt8]
    private var boundaries: [Int]
    private var offset = 0

    init(_ bytes: [UInt8], splits: [Int]) {
        self.bytes = bytes
        boundaries = splits.filter { $0 > 0 && $0 < bytes.count }.sorted() + [bytes.count]
    }

    var totalByteCount: Int? { nil }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(FormatError) -> Int {
        while let first = boundaries.first, first <= offset { boundaries.removeFirst() }
        let limit = boundaries.first ?? bytes.count
        let count = min(buffer.count, limit - offset)
        guard count > 0 else { return 0 }
        for index in 0..<count { buffer[index] = bytes[offset + index] }
        offset += count
        return count
    }
}
