#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a byte stream that arrives in blocks of any size into lines, without copying lines
/// that lie inside one block. Lines end with "\n"; a final line without one is given by `finish`.
public struct LineSplitter: Sendable {
    /// The start of a line that continues in the next block.
    private var pending: [UInt8] = []

    public init() {}

    /// Calls `body` with each line completed by `block` (without its "\n").
    /// - Complexity: O(block.count).
    public mutating func consume(_ block: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard let base = block.baseAddress else { return }
        var start = 0
        while start < block.count {
            guard let found = memchr(base + start, Int32(UInt8(ascii: "\n")), block.count - start) else {
                pending.append(contentsOf: UnsafeBufferPointer(rebasing: block[start...]))
                return
            }
            let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if pending.isEmpty {
                body(UnsafeBufferPointer(rebasing: block[start..<end]))
            } else {
                pending.append(contentsOf: UnsafeBufferPointer(rebasing: block[start..<end]))
                pending.withUnsafeBufferPointer(body)
                pending.removeAll(keepingCapacity: true)
            }
            start = end + 1
        }
    }

    /// Calls `body` with the last line if the stream did not end with "\n".
    public mutating func finish(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard !pending.isEmpty else { return }
        pending.withUnsafeBufferPointer(body)
        pending.removeAll()
    }
}
