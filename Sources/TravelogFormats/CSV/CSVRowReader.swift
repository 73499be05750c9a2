/// Splits a byte stream into CSV rows following RFC 4180: fields separated by one byte (`,`, `;`
/// or tab, found from the first row when not given), quoted fields with doubled quotes inside, and
/// line breaks inside quotes (such a row spans several lines and is joined with LF).
///
/// Leniencies, all common in files found in the wild: blank lines (empty or only spaces and tabs)
/// are skipped; spaces before an opening quote and after a closing one are ignored; a quote inside
/// an unquoted field (`5'10"`) is kept as a character. Text after a closing quote (`"ab"c`) is an
/// error, as is a quote still open at the end of the input.
/// Lines are read by `LineReader`, so CR LF, a BOM and UTF-16 files work as well.
/// - Complexity: O(n) in the input; memory holds one block and the current row.
public struct CSVRowReader {
    /// The field separator: given, or found from the first non-blank line.
    public private(set) var separator: UInt8?
    /// The longest row accepted, in bytes, so that an unclosed quote cannot take the whole file
    /// into memory.
    public let maximumRowBytes: Int
    private var lines: LineReader

    /// - Parameters:
    ///   - source: where the bytes come from.
    ///   - separator: the field separator; `nil` to detect it from the first row.
    ///   - maximumRowBytes: the longest row (quoted line breaks included) accepted, in bytes.
    ///   - blockSizeBytes: how much to read from the source at a time.
    public init(source: any ByteSource, separator: UInt8? = nil, maximumRowBytes: Int = 1 << 20,
                blockSizeBytes: Int = 1 << 20) {
        self.separator = separator
        self.maximumRowBytes = maximumRowBytes
        self.lines = LineReader(source: source, blockSizeBytes: blockSizeBytes)
    }

    /// Bytes of the input consumed so far.
    public var bytesConsumed: Int { lines.bytesConsumed }

    /// Which separator a header line uses: the most frequent of `,`, `;` and tab outside quotes
    /// (a tie goes to the comma, then the semicolon; none at all means a comma).
    public static func detectSeparator(in line: some Sequence<UInt8>) -> UInt8 {
        var commas = 0, semicolons = 0, tabs = 0
        var quoted = false
        for byte in line {
            switch byte {
            case quote: quoted.toggle()
            case UInt8(ascii: ",") where !quoted: commas += 1
            case UInt8(ascii: ";") where !quoted: semicolons += 1
            case 0x09 where !quoted: tabs += 1
            default: break
            }
        }
        if commas >= semicolons && commas >= tabs { return UInt8(ascii: ",") }
        return semicolons >= tabs ? UInt8(ascii: ";") : 0x09
    }

    static let quote = UInt8(ascii: "\"")

    enum State { case fieldStart, unquoted, quoted, quoteSeen, afterQuote }

    /// Reads the next row that is not blank into `row`, replacing what it held.
    /// - Returns: false at the end of the input.
    /// - Throws: `FormatError.truncated` at the opening quote of a field still open when the input
    ///   ends; `.unexpected` for text after a closing quote or a row longer than `maximumRowBytes`.
    public mutating func next(into row: inout CSVRow) throws(FormatError) -> Bool {
        row.removeAll()
        var state = State.fieldStart
        var openQuote: SourcePosition?
        var rowStart: SourcePosition?
        while true {
            guard let line = try lines.next() else {
                if state == .quoted, let openQuote {
                    throw .truncated(openQuote, expected: "a closing quote for the field that opens here")
                }
                return false
            }
            if state != .quoted {
                if line.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                if separator == nil { separator = Self.detectSeparator(in: line.bytes) }
                rowStart = line.position()
            }
            try tokenize(line, separator: separator ?? UInt8(ascii: ","), state: &state, openQuote: &openQuote, row: &row)
            if state != .quoted {
                row.endPosition = line.position(atColumnIndex: line.bytes.count)
                return true
            }
            row.append(0x0A)
            if row.bytes.count > maximumRowBytes, let rowStart {
                throw .unexpected(rowStart, expected: "a row of at most \(maximumRowBytes) bytes (is a quote left open?)",
                                  found: "a longer row")
            }
        }
    }

    /// Adds one line's fields to `row`; `state` is `.quoted` afterwards when a quoted field goes on
    /// to the next line.
    private func tokenize(_ line: LineReader.Line, separator: UInt8, state: inout State,
                          openQuote: inout SourcePosition?, row: inout CSVRow) throws(FormatError) {
        let quote = Self.quote
        try line.bytes.withUnsafeBufferPointer { (bytes) throws(FormatError) in
            let count = bytes.count
            var index = 0
            while index < count {
                switch state {
                case .fieldStart:
                    row.startField(at: line.position(atColumnIndex: index))
                    var first = index
                    while first < count, bytes[first] != separator, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
                    if first < count, bytes[first] == quote {
                        openQuote = line.position(atColumnIndex: first)
                        state = .quoted
                        index = first + 1
                    } else if bytes[index] == separator {
                        row.endField()
                        index += 1
                    } else {
                        state = .unquoted
                    }
                case .unquoted:
                    var end = index
                    while end < count, bytes[end] != separator { end += 1 }
                    row.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                    index = end
                    if end < count {
                        row.endField()
                        state = .fieldStart
                        index += 1
                    }
                case .quoted:
                    var end = index
                    while end < count, bytes[end] != quote { end += 1 }
                    row.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                    index = end
                    if end < count {
                        state = .quoteSeen
                        index += 1
                    }
                case .quoteSeen, .afterQuote:
                    let byte = bytes[index]
                    if byte == quote && state == .quoteSeen {
                        row.append(quote)
                        state = .quoted
                    } else if byte == separator {
                        row.endField()
                        state = .fieldStart
                    } else if byte == 0x20 || byte == 0x09 {
                        state = .afterQuote
                    } else {
                        throw .unexpected(line.position(atColumnIndex: index),
                                          expected: "a separator or the end of the row after a closing quote",
                                          found: Self.describe(byte))
                    }
                    index += 1
                }
            }
        }
        switch state {
        case .fieldStart:  // the line ended with a separator: one more, empty field
            row.startField(at: line.position(atColumnIndex: line.bytes.count))
            row.endField()
        case .unquoted, .quoteSeen, .afterQuote:
            row.endField()
            state = .fieldStart
        case .quoted:
            break
        }
    }

    /// A byte as an error message shows it.
    static func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'"
            : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }
}
