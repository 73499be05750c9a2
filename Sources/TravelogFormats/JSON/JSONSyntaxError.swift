/// A JSON document that breaks the grammar of RFC 8259, with where and what was expected.
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var reason: Reason
    /// Where: the offending byte, or the end of the input for a truncated document.
    public var position: SourcePosition

    public init(_ reason: Reason, at position: SourcePosition) {
        self.reason = reason
        self.position = position
    }

    /// What is wrong with the input.
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// A byte that cannot stand here.
        case unexpectedByte(UInt8, expected: Expectation)
        /// The input ends before the document does.
        case unexpectedEndOfInput(inside: Context)
        /// An unescaped byte below 0x20 inside a string.
        case controlCharacterInString(UInt8)
        /// A backslash followed by something other than `"\/bfnrtu`.
        case invalidEscape(UInt8)
        /// A `\u` escape that is not four hex digits, or a surrogate without its partner.
        case invalidUnicodeEscape(UnicodeEscapeProblem)
        /// A byte that does not begin a well-formed UTF-8 sequence (RFC 3629).
        case invalidUTF8(UInt8)
        /// A number with a superfluous leading zero, such as `01`.
        case leadingZero
        /// A number whose magnitude does not fit in a Double (it would be infinite).
        case numberOutOfRange
        /// Objects and arrays nested deeper than `JSONParser.Options.maximumDepth`.
        case depthLimitExceeded(maximumDepth: Int)
        /// A string or number longer than `JSONParser.Options.maximumTokenBytes`.
        case tokenTooLong(maximumBytes: Int)

        public var description: String {
            switch self {
            case .unexpectedByte(let byte, let expected):
                "expected \(expected), found \(Self.describe(byte))"
            case .unexpectedEndOfInput(let context):
                context == .value ? "unexpected end of input, expected a value" : "unexpected end of input inside \(context)"
            case .controlCharacterInString(let byte):
                "unescaped control character \(Self.hex(byte)) inside a string"
            case .invalidEscape(let byte):
                "invalid escape '\\\(Self.printable(byte) ?? Self.hex(byte))' inside a string"
            case .invalidUnicodeEscape(let problem):
                "invalid \\u escape: \(problem)"
            case .invalidUTF8(let byte):
                "invalid UTF-8 byte \(Self.hex(byte))"
            case .leadingZero:
                "a number cannot have a leading zero"
            case .numberOutOfRange:
                "number out of range"
            case .depthLimitExceeded(let maximumDepth):
                "objects and arrays nested deeper than \(maximumDepth) levels"
            case .tokenTooLong(let maximumBytes):
                "a string or number longer than \(maximumBytes) bytes"
            }
        }

        static func hex(_ byte: UInt8) -> String {
            let digits = Array("0123456789ABCDEF")
            return "0x\(digits[Int(byte >> 4)])\(digits[Int(byte & 0xF)])"
        }

        static func printable(_ byte: UInt8) -> String? {
            (0x21...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : nil
        }

        static func describe(_ byte: UInt8) -> String {
            if let character = printable(byte) { return "'\(character)'" }
            return byte == 0x20 ? "a space" : "byte \(hex(byte))"
        }
    }

    /// What the parser was ready to accept where it found something else.
    public enum Expectation: Hashable, Sendable, CustomStringConvertible {
        case value
        case valueOrArrayEnd
        case keyOrObjectEnd
        case keyAfterComma
        case colon
        case commaOrObjectEnd
        case commaOrArrayEnd
        case digit
        case literal(JSONLiteral)
        case endOfInput
        case newlineBetweenValues

        public var description: String {
            switch self {
            case .value: "a value"
            case .valueOrArrayEnd: "a value or ']'"
            case .keyOrObjectEnd: "a string key or '}'"
            case .keyAfterComma: "a string key after ','"
            case .colon: "':' after object key"
            case .commaOrObjectEnd: "',' or '}' after object member"
            case .commaOrArrayEnd: "',' or ']' after array element"
            case .digit: "a digit"
            case .literal(let literal): "'\(literal)'"
            case .endOfInput: "end of input after the top-level value"
            case .newlineBetweenValues: "a newline before the next top-level value"
            }
        }
    }

    /// The construct the input ended in.
    public enum Context: Hashable, Sendable, CustomStringConvertible {
        case value, object, array, string, number, literal

        public var description: String {
            switch self {
            case .value: "a value"
            case .object: "an object"
            case .array: "an array"
            case .string: "a string"
            case .number: "a number"
            case .literal: "a literal"
            }
        }
    }

    /// Why a `\u` escape is rejected.
    public enum UnicodeEscapeProblem: Hashable, Sendable, CustomStringConvertible {
        /// `\u` is not followed by four hexadecimal digits.
        case notFourHexDigits
        /// A high surrogate (D800–DBFF) not followed by a `\u` low surrogate.
        case unpairedHighSurrogate(UInt16)
        /// A low surrogate (DC00–DFFF) without a high surrogate before it.
        case unpairedLowSurrogate(UInt16)

        public var description: String {
            switch self {
            case .notFourHexDigits: "expected four hexadecimal digits"
            case .unpairedHighSurrogate(let unit): "high surrogate \(Self.hex(unit)) without a low surrogate after it"
            case .unpairedLowSurrogate(let unit): "low surrogate \(Self.hex(unit)) without a high surrogate before it"
            }
        }

        static func hex(_ unit: UInt16) -> String {
            let text = String(unit, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - text.count)) + text
        }
    }

    public var description: String { "\(reason) at \(position)" }
}
