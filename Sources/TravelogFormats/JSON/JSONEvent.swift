/// One step of a JSON document as `JSONParser.next()` reports it.
///
/// Events carry no text: after `.key` or `.string` the parser holds the decoded bytes
/// (`JSONParser.stringEquals(_:)`, `withStringBytes(_:)`, `stringValue`), after `.number` its
/// value (`doubleValue`, `int64Value`), so a reader pays for a `String` only when it wants one.
public enum JSONEvent: Hashable, Sendable {
    /// `{`
    case objectStart
    /// `}`
    case objectEnd
    /// `[`
    case arrayStart
    /// `]`
    case arrayEnd
    /// The name of an object member; its value follows.
    case key
    /// A string value.
    case string
    /// A number value.
    case number
    /// `true` or `false`.
    case bool(Bool)
    /// `null`
    case null
}

/// The kinds of value (and the key) a reader can ask for; used to report a mismatch.
public enum JSONValueKind: Hashable, Sendable, CustomStringConvertible {
    case object, array, key, string, number, integer, bool, null, value

    public var description: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .key: "an object key"
        case .string: "a string"
        case .number: "a number"
        case .integer: "an integer that fits in 64 bits"
        case .bool: "true or false"
        case .null: "null"
        case .value: "a value"
        }
    }
}

/// The three JSON literals.
public enum JSONLiteral: Hashable, Sendable, CustomStringConvertible {
    case `true`, `false`, null

    /// The literal's spelling.
    public var text: StaticString {
        switch self {
        case .true: "true"
        case .false: "false"
        case .null: "null"
        }
    }

    public var description: String { "\(text)" }
}
