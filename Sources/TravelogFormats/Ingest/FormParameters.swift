/// The name–value pairs of a URL query string or an `application/x-www-form-urlencoded` body, in
/// the order they were written.
///
/// Decoding follows the WHATWG URL Standard's `application/x-www-form-urlencoded` parser (§5.1):
/// the bytes are split on `&`, empty pieces are dropped, each piece is split on its first `=`
/// (a piece without one is a name with an empty value), `+` becomes a space, and `%XY` becomes
/// the byte XY. Unlike the standard, which passes a malformed escape through unchanged, a `%`
/// not followed by two hexadecimal digits is an error, and so are decoded bytes that are not
/// UTF-8: a phone that sends those has a bug worth reporting rather than guessing around.
///
/// ```swift
/// let parameters = try FormParameters(query: "id=42&lat=52.5&timestamp=2014-06-04+09%3A10%3A11")
/// parameters["timestamp"]  // "2014-06-04 09:10:11"
/// ```
public struct FormParameters: Hashable, Sendable, Sequence {
    /// One `name=value` piece, both decoded.
    public struct Parameter: Hashable, Sendable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Every pair, in the order written (repeated names included).
    public private(set) var parameters: [Parameter]

    /// Pairs already decoded.
    public init(_ parameters: [Parameter] = []) {
        self.parameters = parameters
    }

    /// Decodes a query string (the part of a request target after `?`, which may be included) or
    /// a form body given as UTF-8 bytes.
    /// - Throws: `IngestError.malformedEncoding(offset:)` with the 0-based byte offset, in `bytes`,
    ///   of a `%` without two hexadecimal digits after it, or of the escape or byte that starts a
    ///   sequence that is not UTF-8.
    /// - Complexity: O(n) in the number of bytes.
    public init(encoded bytes: some Collection<UInt8>) throws(IngestError) {
        let bytes = Array(bytes)
        var parameters: [Parameter] = []
        var pieceStart = bytes.first == UInt8(ascii: "?") ? 1 : 0
        while pieceStart < bytes.count {
            let pieceEnd = bytes[pieceStart...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
            if pieceStart < pieceEnd {
                let equals = bytes[pieceStart..<pieceEnd].firstIndex(of: UInt8(ascii: "=")) ?? pieceEnd
                let name = try Self.decode(bytes, pieceStart..<equals)
                let value = equals < pieceEnd ? try Self.decode(bytes, (equals + 1)..<pieceEnd) : ""
                parameters.append(Parameter(name: name, value: value))
            }
            pieceStart = pieceEnd + 1
        }
        self.parameters = parameters
    }

    /// Decodes a query string or form body given as text (see `init(encoded:)`; offsets count
    /// the text's UTF-8 bytes).
    public init(query: some StringProtocol) throws(IngestError) {
        try self.init(encoded: Array(query.utf8))
    }

    /// The value of the last pair named `name` (a later value overrides an earlier one, as the
    /// apps' servers read them), `nil` when there is none.
    public subscript(name: String) -> String? {
        parameters.last { $0.name == name }?.value
    }

    /// Every value given for `name`, in order.
    public func values(named name: String) -> [String] {
        parameters.filter { $0.name == name }.map(\.value)
    }

    /// These pairs followed by `other`'s (a request's query, then its form body).
    public func appending(_ other: FormParameters) -> FormParameters {
        FormParameters(parameters + other.parameters)
    }

    public func makeIterator() -> IndexingIterator<[Parameter]> {
        parameters.makeIterator()
    }

    /// Percent- and `+`-decodes `bytes[range]`, then checks that the result is UTF-8.
    private static func decode(_ bytes: [UInt8], _ range: Range<Int>) throws(IngestError) -> String {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(range.count)
        /// The offset in `bytes` that each decoded byte came from, to report bad UTF-8 where it is.
        var origins: [Int] = []
        origins.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < range.upperBound,
                      let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else {
                    throw .malformedEncoding(offset: index)
                }
                decoded.append(high << 4 | low)
                origins.append(index)
                index += 3
            } else {
                decoded.append(byte == UInt8(ascii: "+") ? 0x20 : byte)
                origins.append(index)
                index += 1
            }
        }
        if let invalid = firstInvalidUTF8Index(decoded) { throw .malformedEncoding(offset: origins[invalid]) }
        return String(decoding: decoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The index of the first byte of the first ill-formed UTF-8 sequence, `nil` when all is well.
    private static func firstInvalidUTF8Index(_ bytes: [UInt8]) -> Int? {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}
