#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A streaming JSON pull parser (RFC 8259): bytes come from a `ByteSource` a block at a time,
/// events go out one `next()` at a time, and memory stays flat however large the document.
///
/// ```swift
/// var parser = try JSONParser(contentsOfFile: "Records.json")
/// try parser.expect(.objectStart)
/// while try parser.nextKey() {
///     if parser.stringEquals("locations") { try readLocations(&parser) } else { try parser.skipValue() }
/// }
/// ```
///
/// After `.key` or `.string` the decoded UTF-8 bytes (every escape resolved, validated) are available
/// until the next call that advances the parser; after `.number` the value is available as a
/// correctly rounded `doubleValue` and, when it is an integer that fits, as an exact `int64Value`.
/// Nothing is allocated per token unless the reader asks for a `String`.
///
/// The parser owns its buffers, so it is `~Copyable`: hand it to helper functions `inout`. (One
/// consequence: swift-testing's `#expect(parser.method())` does not compile; bind the result first.)
///
/// - Complexity: O(n) in the input length; memory O(block size + longest token + depth).
public struct JSONParser: ~Copyable {
    /// Limits and switches for one parse.
    public struct Options: Sendable {
        /// Objects and arrays may nest this deep; deeper input is rejected (malicious nesting).
        public let maximumDepth: Int
        /// Accept several top-level values, each starting on a new line (JSON Lines, OwnTracks `.rec`).
        public let allowsMultipleTopLevelValues: Bool
        /// How many bytes the parser asks its source for at a time (less for an input known to be shorter).
        public let blockSizeBytes: Int
        /// The longest string or number accepted, in bytes, which bounds the memory one token may take.
        public let maximumTokenBytes: Int

        /// - Parameters:
        ///   - maximumDepth: at least 1; 512 by default.
        ///   - allowsMultipleTopLevelValues: false by default (trailing content is an error).
        ///   - blockSizeBytes: at least 16; 1 MiB by default.
        ///   - maximumTokenBytes: at least 16; 64 MiB by default.
        public init(
            maximumDepth: Int = 512,
            allowsMultipleTopLevelValues: Bool = false,
            blockSizeBytes: Int = 1 << 20,
            maximumTokenBytes: Int = 64 << 20
        ) {
            precondition(maximumDepth >= 1, "the depth limit must allow one level")
            precondition(blockSizeBytes >= 16, "a block holds at least 16 bytes")
            precondition(maximumTokenBytes >= 16, "a token may hold at least 16 bytes")
            self.maximumDepth = maximumDepth
            self.allowsMultipleTopLevelValues = allowsMultipleTopLevelValues
            self.blockSizeBytes = blockSizeBytes
            self.maximumTokenBytes = maximumTokenBytes
        }

        /// One JSON value per line (JSON Lines, the JSON of OwnTracks `.rec` lines), other limits as default.
        public static let jsonLines = Options(allowsMultipleTopLevelValues: true)
    }

    /// What the grammar accepts next.
    enum State: UInt8 {
        case topLevelValue, objectKeyOrEnd, objectColon, objectCommaOrEnd, arrayValueOrEnd, arrayCommaOrEnd
        case afterTopLevelValue, finished
    }

    let options: Options
    var source: any ByteSource

    // The input window: bytes [0, end) of `buffer` hold input from absolute offset `bufferOffset`;
    // `position` is the next byte to read.
    var buffer: UnsafeMutablePointer<UInt8>
    var capacity: Int
    var position = 0
    var end = 0
    var bufferOffset = 0
    var sourceIsExhausted = false

    // Line tracking: newlines can only appear in whitespace, so the whitespace skipper counts them.
    var line = 1
    var lineStartOffset = 0

    var state = State.topLevelValue
    /// One byte per open container: `objectMarker` or `arrayMarker`.
    var containers: UnsafeMutablePointer<UInt8>
    var depthStorage = 0

    // The current token: where it started, and its payload.
    var tokenOffset = 0
    var tokenLine = 1
    var tokenLineStartOffset = 0
    /// The decoded string: points into `buffer` (no escapes) or `scratch`; always valid memory.
    var stringStart: UnsafePointer<UInt8>
    var stringCount = 0
    var scratch: UnsafeMutablePointer<UInt8>
    var scratchCapacity: Int
    var scratchCount = 0
    var number = 0.0
    var integer: Int64 = 0
    var numberIsInt64 = false

    static let objectMarker: UInt8 = 1
    static let arrayMarker: UInt8 = 0

    /// Parses bytes pulled from `source`.
    public init(source: some ByteSource, options: Options = Options()) {
        self.options = options
        self.source = source
        // A short input known in advance (a message, a small file) gets a window of its own size, plus
        // one byte so that learning of its end never needs a bigger window.
        capacity = min(options.blockSizeBytes, max(source.totalByteCount.map { $0 + 1 } ?? .max, 16))
        buffer = .allocate(capacity: capacity)
        containers = .allocate(capacity: options.maximumDepth)
        scratchCapacity = 256
        scratch = .allocate(capacity: scratchCapacity)
        stringStart = UnsafePointer(scratch)
    }

    /// Parses bytes already in memory.
    public init(bytes: [UInt8], options: Options = Options()) {
        self.init(source: MemoryByteSource(bytes), options: options)
    }

    /// Parses the UTF-8 of `text`.
    public init(text: String, options: Options = Options()) {
        self.init(source: MemoryByteSource(Array(text.utf8)), options: options)
    }

    /// Parses a file, read in blocks of `options.blockSizeBytes`.
    /// - Throws: `FormatError.cannotRead` when the file cannot be opened.
    public init(contentsOfFile path: String, options: Options = Options()) throws(FormatError) {
        self.init(source: try FileByteSource(path: path), options: options)
    }

    deinit {
        buffer.deallocate()
        containers.deallocate()
        scratch.deallocate()
    }

    // MARK: Where the parser is

    /// How many bytes of input the parser has consumed (for a progress bar against `totalByteCount`).
    public var bytesConsumed: Int { bufferOffset + position }

    /// The input's length in bytes when the source knows it.
    public var totalByteCount: Int? { source.totalByteCount }

    /// The fraction of the input consumed, 0…1, when its length is known (for a progress bar).
    public var fractionConsumed: Double? {
        guard let total = totalByteCount else { return nil }
        return total == 0 ? 1 : min(1, Double(bytesConsumed) / Double(total))
    }

    /// How many objects and arrays are open.
    public var depth: Int { depthStorage }

    /// Where the token of the most recent event starts (its quote, first digit, bracket or letter).
    public var tokenPosition: SourcePosition {
        SourcePosition(byteOffset: tokenOffset, line: tokenLine, column: tokenOffset - tokenLineStartOffset + 1)
    }

    // MARK: The payload of the most recent event

    /// After `.key` or `.string`: whether the decoded text equals `text`, byte for byte.
    /// Allocates nothing; meaningful only right after a `.key` or `.string` event.
    public func stringEquals(_ text: StaticString) -> Bool {
        guard text.hasPointerRepresentation else {
            return text.withUTF8Buffer { stringEquals(bytes: $0) }
        }
        return text.utf8CodeUnitCount == stringCount
            && (stringCount == 0 || memcmp(stringStart, text.utf8Start, stringCount) == 0)
    }

    /// After `.key` or `.string`: whether the decoded text equals `bytes`.
    public func stringEquals(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == stringCount else { return false }
        guard let base = bytes.baseAddress, stringCount > 0 else { return true }
        return memcmp(stringStart, base, stringCount) == 0
    }

    /// After `.key` or `.string`: calls `body` with the decoded, validated UTF-8 bytes, valid only
    /// during the call.
    public func withStringBytes<Result, Failure: Error>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeBufferPointer(start: stringStart, count: stringCount))
    }

    /// After `.key` or `.string`: the decoded text (allocates when longer than 15 bytes).
    public var stringValue: String {
        String(decoding: UnsafeBufferPointer(start: stringStart, count: stringCount), as: UTF8.self)
    }

    /// After `.number`: the value, correctly rounded to the nearest Double.
    public var doubleValue: Double { number }

    /// After `.number`: the exact value when it is an integer within Int64 (also `1.0`, `25e2`), else nil.
    public var int64Value: Int64? { numberIsInt64 ? integer : nil }
}
