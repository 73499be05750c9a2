extension FormatError {
    /// The error a JSON-based reader reports for what `JSONParser` threw: a truncated document is
    /// `.truncated`, malformed UTF-8 `.invalidEncoding`, any other break of the grammar or a value
    /// of the wrong kind where the format requires one (`"locations": {}`) `.unexpected`, each with
    /// its position; errors of the byte source pass through.
    init(readingJSON error: any Error) {
        switch error {
        case let error as FormatError:
            self = error
        case let error as JSONSyntaxError:
            self.init(error)
        case let error as JSONTypeMismatchError:
            self = .unexpected(error.position, expected: error.expected.description, found: Self.describe(error.found))
        default:
            // JSONParser throws only the three kinds above; anything else is a programming error.
            preconditionFailure("JSONParser threw \(type(of: error)): \(error)")
        }
    }

    /// The error for a JSON syntax error.
    init(_ error: JSONSyntaxError) {
        switch error.reason {
        case .unexpectedEndOfInput(let context):
            self = .truncated(error.position, expected: context == .value ? "a value" : "the end of \(context)")
        case .invalidUTF8:
            self = .invalidEncoding(error.position, expected: "UTF-8")
        case .unexpectedByte(let byte, let expected):
            self = .unexpected(error.position, expected: expected.description, found: JSONSyntaxError.Reason.describe(byte))
        default:
            self = .unexpected(error.position, expected: "well-formed JSON", found: error.reason.description)
        }
    }

    private static func describe(_ event: JSONEvent?) -> String {
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
