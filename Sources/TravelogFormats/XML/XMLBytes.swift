#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// UTF-8 bytes inside the parser's buffer: a name, an attribute value, a text. It does not own its
/// memory and is valid only until the parser's next call to `next()`: compare it, parse a number
/// from it, or copy it with `string` or `Array(_:)` to keep it.
///
/// Comparing with a literal allocates nothing: `parser.localName == "trkpt"`.
public struct XMLBytes: RandomAccessCollection, CustomStringConvertible {
    @usableFromInline let base: UnsafePointer<UInt8>?
    public let count: Int

    @inlinable
    init(base: UnsafePointer<UInt8>?, count: Int) {
        self.base = base
        self.count = count
    }

    /// No bytes.
    public static var empty: XMLBytes { XMLBytes(base: nil, count: 0) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    @inlinable
    public subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < count, "XMLBytes index out of range")
        // A non-empty view always has a base.
        return base.unsafelyUnwrapped[position]
    }

    /// The bytes as a buffer pointer, valid for the duration of `body`.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// A copy as a `String` (invalid UTF-8 is repaired with U+FFFD).
    public var string: String {
        String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }

    public var description: String { string }

    /// The bytes without leading and trailing XML whitespace.
    public var trimmed: XMLBytes {
        guard let base else { return self }
        var start = 0
        var end = count
        while start < end, XMLCharacterClass.isWhitespace(base[start]) { start += 1 }
        while end > start, XMLCharacterClass.isWhitespace(base[end - 1]) { end -= 1 }
        return XMLBytes(base: base + start, count: end - start)
    }

    /// Whether the bytes are exactly those of `literal`.
    @inlinable
    public static func == (bytes: XMLBytes, literal: StaticString) -> Bool {
        guard literal.utf8CodeUnitCount == bytes.count else { return false }
        guard bytes.count > 0 else { return true }
        if literal.hasPointerRepresentation {
            return equal(bytes.base.unsafelyUnwrapped, literal.utf8Start, count: bytes.count)
        }
        return literal.withUTF8Buffer { equal(bytes.base.unsafelyUnwrapped, $0.baseAddress.unsafelyUnwrapped, count: bytes.count) }
    }

    /// Compares short byte strings (names) inline, eight bytes at a time: cheaper than a call to
    /// `memcmp` for the few bytes of a name.
    @inlinable @inline(__always)
    static func equal(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, count: Int) -> Bool {
        let left = UnsafeRawPointer(lhs)
        let right = UnsafeRawPointer(rhs)
        var offset = 0
        while count - offset >= 8 {
            guard left.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == right.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
            offset += 8
        }
        while offset < count {
            guard lhs[offset] == rhs[offset] else { return false }
            offset += 1
        }
        return true
    }

    /// Whether the bytes differ from those of `literal`.
    @inlinable
    public static func != (bytes: XMLBytes, literal: StaticString) -> Bool { !(bytes == literal) }

    /// Whether two views hold the same bytes.
    public static func == (lhs: XMLBytes, rhs: XMLBytes) -> Bool {
        lhs.count == rhs.count && (lhs.count == 0 || equal(lhs.base.unsafelyUnwrapped, rhs.base.unsafelyUnwrapped, count: lhs.count))
    }
}
