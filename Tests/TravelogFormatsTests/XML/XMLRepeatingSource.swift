import TravelogFormats

/// A document made on the fly: `head`, then `body` repeated `count` times, then `tail`. It is
/// never in memory as a whole, so the tests can read documents far larger than the buffer.
struct XMLRepeatingSource: ByteSource {
    private let parts: [[UInt8]]
    private let count: Int
    private var part = 0
    private var repetition = 0
    private var offset = 0

    init(head: String, body: String, count: Int, tail: String) {
        parts = [Array(head.utf8), Array(body.utf8), Array(tail.utf8)]
        self.count = count
    }

    var totalBytes: Int { parts[0].count + parts[1].count * count + parts[2].count }

    var totalByteCount: Int? { nil }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(FormatError) -> Int {
        var written = 0
        while written < buffer.count, part < 3 {
            let bytes = parts[part]
            let take = min(buffer.count - written, bytes.count - offset)
            for index in 0..<take { buffer[written + index] = bytes[offset + index] }
            written += take
            offset += take
            if offset == bytes.count {
                offset = 0
                if part == 1 { repetition += 1 }
                if part != 1 || repetition >= count { part += 1 }
            }
        }
        return written
    }
}
