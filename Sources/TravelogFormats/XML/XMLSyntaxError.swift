/// A document that is not well-formed XML (or that this parser does not read), with where in the
/// original file's bytes the problem was found.
public struct XMLSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var kind: Kind
    /// Where: byte offset, line and column in the original bytes (before any transcoding).
    public var position: SourcePosition

    public init(_ kind: Kind, at position: SourcePosition) {
        self.kind = kind
        self.position = position
    }

    /// The markup being read when the input ended.
    public enum Construct: String, Hashable, Sendable {
        case startTag = "a start tag"
        case endTag = "an end tag"
        case comment = "a comment"
        case cdataSection = "a CDATA section"
        case processingInstruction = "a processing instruction"
        case doctype = "a DOCTYPE declaration"
        case reference = "an entity reference"
    }

    /// What the parser expected where it found something else.
    public enum Expectation: String, Hashable, Sendable {
        case elementName = "an element name"
        case attributeName = "an attribute name"
        case equalsSign = "'=' after the attribute name"
        case quote = "a quote opening the attribute value"
        case whitespaceOrTagEnd = "whitespace, '>' or '/>'"
        case tagEnd = "'>'"
        case markupDeclaration = "'<!--', '<![CDATA[' or '<!DOCTYPE'"
        case processingInstructionTarget = "a processing instruction target"
    }

    public enum Kind: Hashable, Sendable {
        /// The input ended inside `construct` (or between tags when `nil`) with `openElements`
        /// (outermost first) not closed.
        case unexpectedEndOfInput(inside: Construct?, openElements: [String])
        /// The input ended without any element.
        case noRootElement
        /// An end tag that does not close the innermost open element.
        case mismatchedEndTag(expected: String, found: String)
        /// An end tag while no element is open.
        case unmatchedEndTag(found: String)
        /// A byte that cannot start or continue the markup here (`found` is the byte).
        case unexpectedByte(found: UInt8, expected: Expectation)
        /// An attribute given twice in one start tag.
        case duplicateAttribute(name: String)
        /// A `<` inside an attribute value.
        case lessThanInAttributeValue
        /// `&name;` where `name` is not one of the five predefined entities.
        case unknownEntity(name: String)
        /// A `&` not followed by a name or `#` and a `;`.
        case malformedReference
        /// `&#…;` that is not a number or names a character XML does not allow.
        case invalidCharacterReference(String)
        /// `--` inside a comment.
        case doubleHyphenInComment
        /// Non-whitespace character data before the root element.
        case textBeforeRootElement
        /// Non-whitespace character data after the root element.
        case textAfterRootElement
        /// A second top-level element.
        case elementAfterRootElement(name: String)
        /// A CDATA section outside the root element.
        case cdataOutsideRootElement
        /// A DOCTYPE declaration after the first element or a second one.
        case misplacedDoctype
        /// The declared or detected encoding is not one this parser reads.
        case unsupportedEncoding(name: String)
        /// Bytes that are not valid in the detected encoding (e.g. an unpaired UTF-16 surrogate).
        case malformedEncoding(XMLEncoding)
        /// A tag, or the collected text of one element, longer than `limitBytes`.
        case tokenTooLong(limitBytes: Int)
    }

    public var description: String { "\(kind) at \(position)" }
}

extension XMLSyntaxError.Kind: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unexpectedEndOfInput(let construct, let open):
            let inside = construct.map { " inside \($0.rawValue)" } ?? ""
            let elements = open.isEmpty
                ? ""
                : ": \(open.count) element\(open.count == 1 ? "" : "s") still open: \(open.joined(separator: " > "))"
            return "unexpected end of input\(inside)\(elements)"
        case .noRootElement: return "unexpected end of input: no root element"
        case .mismatchedEndTag(let expected, let found): return "expected </\(expected)>, found </\(found)>"
        case .unmatchedEndTag(let found): return "end tag </\(found)> with no open element"
        case .unexpectedByte(let found, let expected): return "expected \(expected.rawValue), found \(Self.show(found))"
        case .duplicateAttribute(let name): return "attribute \(name) given twice"
        case .lessThanInAttributeValue: return "'<' inside an attribute value"
        case .unknownEntity(let name): return "unknown entity &\(name);"
        case .malformedReference: return "'&' not followed by a reference ending in ';'"
        case .invalidCharacterReference(let text): return "invalid character reference \(text)"
        case .doubleHyphenInComment: return "'--' inside a comment"
        case .textBeforeRootElement: return "text before the root element"
        case .textAfterRootElement: return "text after the root element"
        case .elementAfterRootElement(let name): return "element <\(name)> after the root element"
        case .cdataOutsideRootElement: return "CDATA section outside the root element"
        case .misplacedDoctype: return "DOCTYPE declaration after the start of the document"
        case .unsupportedEncoding(let name): return "unsupported encoding \(name)"
        case .malformedEncoding(let encoding): return "bytes that are not valid \(encoding)"
        case .tokenTooLong(let limit): return "tag or element text longer than \(limit) bytes"
        }
    }

    private static func show(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }
}
