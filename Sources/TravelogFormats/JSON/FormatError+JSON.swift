/// How the JSON-based readers (GeoJSON, OwnTracks) report a document that is not well-formed, or
/// whose structure is not the format's: as a `FormatError` at the parser's position.
extension FormatError {
    /// The file-level error for what a `JSONParser` threw: a syntax error (the input ended early:
    /// `.truncated`; invalid UTF-8: `.invalidEncoding`; any other byte: `.unexpected`), a type
    /// mismatch (`.unexpected`), or the source's own `FormatError`.
    init(json error: any Error) {
        switch error {
        case let error as FormatError:
            self = error
        case let error as JSONSyntaxError:
            self.init(syntax: error)
        case let error as JSONTypeMismatchError:
            self = .unexpected(error.position, expected: error.expected.description,
                               found: FormatError.describe(error.found))
        default:
            // JSONParser throws only the three errors above; anything else is reported as found.
            self = .unexpected(SourcePosition(byteOffset: 0, line: 1, column: 1), expected: "JSON",
                               found: String(describing: error))
        }
    }

    init(syntax error: JSONSyntaxError) {
        switch error.reason {
        case .unexpectedEndOfInput(let context):
            self = .truncated(error.position, expected: context == .value ? "a value" : "the rest of \(context)")
        case .invalidUTF8:
            self = .invalidEncoding(error.position, expected: "UTF-8")
        case .unexpectedByte(let byte, let expected):
            self = .unexpected(error.position, expected: expected.description,
                               found: JSONSyntaxError.Reason.describe(byte))
        default:
            self = .unexpected(error.position, expected: "well-formed JSON", found: error.reason.description)
        }
    }

    /// What an event is, for messages ("an array", "the end of the document").
    static func describe(_ event: JSONEvent?) -> String {
        switch event {
        case nil: "the end of the document"
        case .objectStart?: "an object"
        case .arrayStart?: "an array"
        case .objectEnd?: "the end of an object"
        case .arrayEnd?: "the end of an array"
        case .key?: "an object key"
        case .string?: "a string"
        case .number?: "a number"
        case .bool(let value)?: "\(value)"
        case .null?: "null"
        }
    }
}
