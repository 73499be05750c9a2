/// Where a writer's bytes go. Writers format into their own buffer and hand over large chunks
/// (tens of kilobytes), so a sink is called a few times per megabyte, never once per point.
///
/// Sinks are reference types: the writer and its caller share one, and the caller reads or closes
/// it once the writer has finished.
public protocol ByteSink: AnyObject {
    /// Takes `bytes` (which are only valid during the call).
    /// - Throws: `FormatError.cannotWrite` when the destination refuses them.
    func write(_ bytes: UnsafeRawBufferPointer) throws(FormatError)

    /// Pushes every byte taken so far to the destination.
    /// - Throws: `FormatError.cannotWrite` when the destination refuses them.
    func flush() throws(FormatError)
}

/// A sink that keeps everything in memory, for tests and for small answers.
public final class MemoryByteSink: ByteSink {
    /// Every byte written so far.
    public private(set) var bytes: [UInt8] = []

    public init() {}

    /// The bytes as UTF-8 text (invalid sequences are replaced with U+FFFD).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(FormatError) {
        self.bytes.append(contentsOf: bytes)
    }

    public func flush() throws(FormatError) {}
}
