/// Why a phone's upload (OsmAnd, Traccar Client, GPSLogger) cannot be read as a location. Each
/// case names the field and what was expected; `description` is a sentence for the body of the
/// server's `400 Bad Request`.
public enum IngestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A `%` not followed by two hexadecimal digits, or percent-decoded bytes that are not UTF-8,
    /// at this 0-based byte offset of the query string or form body.
    case malformedEncoding(offset: Int)
    /// A required field is absent or empty (`id`, `lat`, `device_id`…).
    case missingField(String)
    /// A field that must be a decimal number (`52.5`, `-0.5`, `5.0E-4`) is not one.
    case invalidNumber(field: String, value: String)
    /// A field that must be `true` or `false` (or `1`/`0`) is not.
    case invalidBoolean(field: String, value: String)
    /// A number outside what the field can hold: latitude beyond ±90°, longitude beyond ±180°, a
    /// course of 360° or more, a battery level above 100 %.
    case outOfRange(field: String, value: Double)
    /// A time that is neither epoch seconds or milliseconds nor an ISO 8601 /
    /// `yyyy-MM-dd HH:mm:ss` date, or one that names an impossible date.
    case invalidTimestamp(field: String, value: String, reason: TimestampError)
    /// A JSON body that is not well-formed JSON (RFC 8259).
    case invalidJSON(JSONSyntaxError)
    /// Well-formed JSON with a value of the wrong kind: `field` is its path (`location.coords`),
    /// `offset` the 0-based byte offset of the value in the body.
    case unexpectedJSONValue(field: String, expected: String, found: String, offset: Int)

    public var description: String {
        switch self {
        case .malformedEncoding(let offset):
            "malformed percent-encoding at byte \(offset): '%' must be followed by two hexadecimal digits, and the decoded bytes must be UTF-8"
        case .missingField(let name):
            "the field '\(name)' is required"
        case .invalidNumber(let field, let value):
            "the field '\(field)' must be a decimal number, not '\(Self.quoted(value))'"
        case .invalidBoolean(let field, let value):
            "the field '\(field)' must be true or false, not '\(Self.quoted(value))'"
        case .outOfRange(let field, let value):
            "the field '\(field)' is out of range: \(value)"
        case .invalidTimestamp(let field, let value, let reason):
            "the field '\(field)' must be epoch seconds or milliseconds, an ISO 8601 time or 'yyyy-MM-dd HH:mm:ss' (UTC), not '\(Self.quoted(value))': \(reason)"
        case .invalidJSON(let error):
            "the body is not valid JSON: \(error.reason) at byte \(error.position.byteOffset)"
        case .unexpectedJSONValue(let field, let expected, let found, let offset):
            "the JSON member '\(field)' must be \(expected), found \(found) at byte \(offset)"
        }
    }

    /// A value cut to 80 characters, so a huge parameter does not make a huge error message.
    private static func quoted(_ value: String) -> String {
        value.count <= 80 ? value : String(value.prefix(80)) + "…"
    }
}
