/// Where an `XMLPullParser` gets its bytes: a file, a socket, memory. The parser asks for blocks
/// and never holds more than its buffer, so a source of any size is read in flat memory.
public protocol XMLByteSource {
    /// Reads up to `buffer.count` bytes into `buffer` and returns how many were read; 0 means the
    /// end of the input (and only then: a source that has nothing yet must wait).
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}
