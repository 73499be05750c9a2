/// Splits a byte stream into lines for the line-based formats (NMEA, CSV, PLT, OwnTracks `.rec`).
///
/// Lines end with LF, CR LF or a lone CR; the terminator is not part of the line. A UTF-8 BOM is
/// skipped; UTF-16 input (LE or BE, recognised by its BOM) is transcoded to UTF-8 on the fly, and
/// byte offsets still count the original file's bytes.
/// - Complexity: O(n) in the input; memory holds one block and the current line.
public struct LineReader {
    /// One line: its bytes (UTF-8, without terminator), 1-based number and where it starts.
    public struct Line: Sendable {
        public var bytes: [UInt8]
        public var number: Int
        /// Offset of the line's first byte in the original input.
        public var byteOffset: Int

        /// The position of a byte of this line (0-based index into `bytes`) as a `SourcePosition`.
        /// For UTF-16 input the column counts UTF-8 bytes of the transcoded line.
        public func position(atColumnIndex index: Int = 0) -> SourcePosition {
            SourcePosition(byteOffset: byteOffset + index, line: number, column: index + 1)
        }
    }

    private enum Encoding { case undecided, utf8, utf16LittleEndian, utf16BigEndian }

    private var source: any ByteSource
    /// The block starts small and doubles while the source fills it, up to `blockSizeBytes` (and
    /// beyond only for a longer line): a short input never pays for a large block.
    private var block: [UInt8]
    private let blockSizeBytes: Int
    private var lastReadFilledBlock = false
    private var blockCount = 0
    private var blockIndex = 0
    /// Original-input offset of `block[0]`.
    private var blockStartOffset = 0
    private var encoding = Encoding.undecided
    private var lineNumber = 0
    private var pendingCR = false
    private var finished = false
    /// For UTF-16: a high surrogate waiting for its low half.
    private var pendingHighSurrogate: UInt16?
    /// For UTF-16: where the pending surrogate pair started.
    private var surrogateOffset: Int?

    /// Bytes of the original input consumed so far.
    public var bytesConsumed: Int { blockStartOffset + blockIndex }

    static let firstBlockBytes = 4096

    /// - Parameters:
    ///   - source: where the bytes come from.
    ///   - blockSizeBytes: how much to read at a time once the input has proved long.
    public init(source: any ByteSource, blockSizeBytes: Int = 1 << 20) {
        self.source = source
        self.blockSizeBytes = max(16, blockSizeBytes)
        self.block = [UInt8](repeating: 0, count: min(self.blockSizeBytes, Self.firstBlockBytes))
    }

    /// The next line, or `nil` at the end of input. A last line without terminator is returned;
    /// an empty input has no lines.
    public mutating func next() throws(FormatError) -> Line? {
        if finished { return nil }
        var line: [UInt8] = []
        var lineStart: Int?
        while true {
            let unitSize = (encoding == .utf16LittleEndian || encoding == .utf16BigEndian) ? 2 : 1
            if blockCount - blockIndex < unitSize {
                guard try refill(column: line.count + 1) else {
                    finished = true
                    if let start = lineStart {
                        lineNumber += 1
                        return Line(bytes: line, number: lineNumber, byteOffset: start)
                    }
                    return nil
                }
                continue
            }
            if encoding == .utf8 {
                // UTF-8 needs no transcoding: copy the run up to the next terminator at once.
                if pendingCR {
                    pendingCR = false
                    if block[blockIndex] == 0x0A { blockIndex += 1; continue }  // CR LF: the CR ended the line
                }
                var end = blockIndex
                while end < blockCount, block[end] != 0x0A, block[end] != 0x0D { end += 1 }
                if end > blockIndex {
                    if lineStart == nil { lineStart = blockStartOffset + blockIndex }
                    line.append(contentsOf: block[blockIndex..<end])
                    blockIndex = end
                }
                guard end < blockCount else { continue }
                pendingCR = block[end] == 0x0D
                blockIndex = end + 1
                lineNumber += 1
                return Line(bytes: line, number: lineNumber, byteOffset: lineStart ?? (blockStartOffset + end))
            }
            // A surrogate pair starts where its first half does.
            let offset = surrogateOffset ?? bytesConsumed
            guard let scalar = try nextUTF16Scalar(lineSoFar: line.count) else {
                surrogateOffset = offset
                continue
            }
            surrogateOffset = nil
            if pendingCR {
                pendingCR = false
                if scalar == "\n" { continue }  // CR LF: the CR ended the line already
            }
            if scalar == "\n" || scalar == "\r" {
                pendingCR = scalar == "\r"
                lineNumber += 1
                return Line(bytes: line, number: lineNumber, byteOffset: lineStart ?? offset)
            }
            if lineStart == nil { lineStart = offset }
            UTF8.encode(scalar) { line.append($0) }
        }
    }

    /// Consumes one UTF-16 code unit and returns its scalar: `nil` for the first half of a
    /// surrogate pair, which the second half completes.
    private mutating func nextUTF16Scalar(lineSoFar: Int) throws(FormatError) -> Unicode.Scalar? {
        let first = block[blockIndex], second = block[blockIndex + 1]
        let position = SourcePosition(byteOffset: bytesConsumed, line: lineNumber + 1, column: lineSoFar + 1)
        blockIndex += 2
        let unit = encoding == .utf16LittleEndian ? UInt16(second) << 8 | UInt16(first) : UInt16(first) << 8 | UInt16(second)
        if let high = pendingHighSurrogate {
            pendingHighSurrogate = nil
            guard (0xDC00...0xDFFF).contains(unit) else {
                throw .invalidEncoding(position, expected: "a UTF-16 low surrogate after a high surrogate")
            }
            let value = 0x10000 + ((UInt32(high) - 0xD800) << 10) + (UInt32(unit) - 0xDC00)
            return Unicode.Scalar(value) ?? "\u{FFFD}"
        }
        if (0xD800...0xDBFF).contains(unit) {
            pendingHighSurrogate = unit
            return nil
        }
        guard let scalar = Unicode.Scalar(unit) else {
            throw .invalidEncoding(position, expected: "a UTF-16 code unit, not a lone low surrogate")
        }
        return scalar
    }

    /// Reads until at least `minimumBytes` are unconsumed (keeping what is left of the current block)
    /// and decides the encoding on the first read. - Returns: false at a clean end of input.
    /// - Throws: `.truncated` when the input ends inside a UTF-16 code unit.
    private mutating func refill(column: Int) throws(FormatError) -> Bool {
        let leftover = blockCount - blockIndex
        for index in 0..<leftover { block[index] = block[blockIndex + index] }
        blockStartOffset += blockIndex
        blockIndex = 0
        blockCount = leftover
        // Decide the encoding from the first three bytes (or all there are), then make sure a
        // whole code unit is there.
        while true {
            let wanted = encoding == .undecided ? 3 : blockIndex + (encoding == .utf8 ? 1 : 2)
            if blockCount < wanted, try readMore() { continue }
            guard encoding == .undecided else { break }
            decideEncoding()
        }
        let available = blockCount - blockIndex
        if available == 0 { return false }
        let unitSize = encoding == .utf8 ? 1 : 2
        if available < unitSize {
            throw .truncated(SourcePosition(byteOffset: bytesConsumed, line: lineNumber + 1, column: column),
                             expected: "the second byte of a UTF-16 code unit")
        }
        return true
    }

    /// Appends what the source gives to the block. - Returns: false at end of input.
    private mutating func readMore() throws(FormatError) -> Bool {
        if blockCount == block.count || (lastReadFilledBlock && block.count < blockSizeBytes) {
            block.append(contentsOf: repeatElement(0, count: block.count))
        }
        var readError: FormatError?
        let count = block.withUnsafeMutableBytes { buffer in
            do throws(FormatError) {
                return try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[blockCount...]))
            } catch {
                readError = error
                return 0
            }
        }
        if let readError { throw readError }
        blockCount += count
        lastReadFilledBlock = blockCount == block.count
        return count > 0
    }

    private mutating func decideEncoding() {
        if blockCount >= 2, block[0] == 0xFF, block[1] == 0xFE {
            encoding = .utf16LittleEndian
            blockIndex = 2
        } else if blockCount >= 2, block[0] == 0xFE, block[1] == 0xFF {
            encoding = .utf16BigEndian
            blockIndex = 2
        } else {
            encoding = .utf8
            if blockCount >= 3, block[0] == 0xEF, block[1] == 0xBB, block[2] == 0xBF { blockIndex = 3 }
        }
    }
}
