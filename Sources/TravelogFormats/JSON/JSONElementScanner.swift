#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A reader's fast path over one element of an array, for documents whose elements nearly always
/// have one shape (the Point features of an Overland batch): the element is read straight from the
/// parser's window, without events.
///
/// The scanner handles the plain case only: strings of printable ASCII without escapes, numbers,
/// literals, containers within the parser's depth limit, all inside the window. On anything else it
/// gives up (its methods return nil or false), and so does the reader's `body`; the parser then
/// stands where it was and the reader reads the element event by event, which reads what the scanner
/// would not (escapes, other text) and reports errors with their positions as usual. So the fast
/// path accepts nothing the parser would refuse, and a document reads the same either way.
struct JSONElementScanner {
    /// The parser's window; the scanner never reads past it.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The next byte to read, an index into `bytes`.
    private(set) var index: Int
    private(set) var line: Int
    /// Index into `bytes` of the current line's first byte (negative when it is before the window).
    private(set) var lineStart: Int
    /// How many objects and arrays may be open at once, the element included.
    let depthLimit: Int

    init(bytes: UnsafeBufferPointer<UInt8>, index: Int, line: Int, lineStart: Int, depthLimit: Int) {
        self.bytes = bytes
        self.index = index
        self.line = line
        self.lineStart = lineStart
        self.depthLimit = depthLimit
    }

    static let quote = UInt8(ascii: "\""), colon = UInt8(ascii: ":"), comma = UInt8(ascii: ",")
    static let objectStart = UInt8(ascii: "{"), objectEnd = UInt8(ascii: "}")
    static let arrayStart = UInt8(ascii: "["), arrayEnd = UInt8(ascii: "]")

    /// Skips space, tab, CR and LF, counting lines.
    @inline(__always)
    mutating func skipWhitespace() {
        if index < bytes.count, bytes[index] > 0x20 { return }
        skipWhitespaceBytes()
    }

    private mutating func skipWhitespaceBytes() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D:
                index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default:
                return
            }
        }
    }

    /// Consumes `byte` after any whitespace when it comes next.
    @inline(__always)
    mutating func skip(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// After whitespace, the next byte without consuming it; nil at the end of the window.
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return index < bytes.count ? bytes[index] : nil
    }

    /// A string of printable ASCII without escapes (its bytes inside the quotes); nil for any other value.
    mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
        guard skip(Self.quote), let base = bytes.baseAddress else { return nil }
        let start = index
        while bytes.count - index >= 8,
              !JSONParser.mayNeedALook(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
            index += 8
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Self.quote {
                index += 1
                return UnsafeBufferPointer(start: base + start, count: index - 1 - start)
            }
            if byte == JSONParser.backslash || byte < 0x20 || byte >= 0x80 { return nil }
            index += 1
        }
        return nil
    }

    /// A member's key and its colon; nil when a plain key does not come next.
    mutating func key() -> UnsafeBufferPointer<UInt8>? {
        guard let key = plainString(), skip(Self.colon) else { return nil }
        return key
    }

    /// After a member of an object: true when a comma follows (consumed), false at the object's end
    /// (consumed), nil otherwise.
    mutating func anotherMember() -> Bool? {
        if skip(Self.comma) { return true }
        if skip(Self.objectEnd) { return false }
        return nil
    }

    /// A number, checked and converted as the parser does; nil for any other value.
    mutating func number() -> JSONNumberScanner.Scanned? {
        guard let first = peek(), first == UInt8(ascii: "-") || first &- UInt8(ascii: "0") < 10,
              let base = bytes.baseAddress,
              let scanned = try? JSONNumberScanner.scan(UnsafeBufferPointer(start: base + index, count: bytes.count - index),
                                                        converting: true)
        else { return nil }
        index += scanned.length
        // A number that reaches the end of the window may go on after it.
        return index < bytes.count ? scanned : nil
    }

    /// Consumes `null` when it comes next.
    mutating func null() -> Bool { literal("null") }

    private mutating func literal(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard peek() != nil, bytes.count - index > count, let base = bytes.baseAddress,
              memcmp(base + index, text.utf8Start, count) == 0
        else { return false }
        index += count
        return true
    }

    /// Skips any value, `depth` containers being open around it; false when it is not plain.
    mutating func skipValue(depth: Int) -> Bool {
        guard let first = peek() else { return false }
        switch first {
        case Self.quote:
            return plainString() != nil
        case Self.objectStart, Self.arrayStart:
            guard depth < depthLimit else { return false }
            index += 1
            let isObject = first == Self.objectStart
            let close = isObject ? Self.objectEnd : Self.arrayEnd
            if skip(close) { return true }
            while true {
                if isObject, key() == nil { return false }
                guard skipValue(depth: depth + 1) else { return false }
                if skip(close) { return true }
                guard skip(Self.comma) else { return false }
            }
        case UInt8(ascii: "t"):
            return literal("true")
        case UInt8(ascii: "f"):
            return literal("false")
        case UInt8(ascii: "n"):
            return literal("null")
        default:
            return number() != nil
        }
    }

    /// Whether `text` is `expected`, byte for byte.
    static func equals(_ text: UnsafeBufferPointer<UInt8>, _ expected: StaticString) -> Bool {
        guard let base = text.baseAddress, text.count == expected.utf8CodeUnitCount else { return false }
        return memcmp(base, expected.utf8Start, text.count) == 0
    }
}

extension JSONParser {
    /// Reads the next element of the array the parser is in with `body`, straight from the window
    /// (see `JSONElementScanner`). When `body` returns a result, the parser stands after the element,
    /// as after its last event; when it returns nil (or the parser is not between the elements of an
    /// array), the parser stands where it was, and the element is to be read event by event.
    /// - Parameter lookahead: how many bytes to have in the window first, when the input has them.
    mutating func scanArrayElement<Result>(lookahead: Int, _ body: (inout JSONElementScanner) -> Result?) throws -> Result? {
        guard depthStorage > 0, containers[depthStorage - 1] == Self.arrayMarker,
              state == .arrayValueOrEnd || state == .arrayCommaOrEnd
        else { return nil }
        var index = position
        // Half the window at most, so that it never has to grow for this.
        _ = try ensureAvailable(min(lookahead, capacity / 2), from: &index)
        position = index
        var scanner = JSONElementScanner(bytes: UnsafeBufferPointer(start: buffer, count: end), index: position, line: line,
                                         lineStart: lineStartOffset - bufferOffset, depthLimit: options.maximumDepth - depthStorage)
        if state == .arrayCommaOrEnd, !scanner.skip(Self.comma) { return nil }
        guard let result = body(&scanner) else { return nil }
        position = scanner.index
        line = scanner.line
        lineStartOffset = bufferOffset + scanner.lineStart
        // As after the element's closing event.
        tokenOffset = bufferOffset + scanner.index - 1
        tokenLine = line
        tokenLineStartOffset = lineStartOffset
        stringStart = UnsafePointer(scratch)
        stringCount = 0
        state = .arrayCommaOrEnd
        return result
    }
}
