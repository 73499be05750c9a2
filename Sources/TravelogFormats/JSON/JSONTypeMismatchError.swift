/// Well-formed JSON that is not what a reader asked for: a string where it wanted a number, an
/// array where it wanted an object, a fraction where it wanted an integer.
public struct JSONTypeMismatchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What the reader asked for.
    public var expected: JSONValueKind
    /// The event found instead; nil at the end of the document.
    public var found: JSONEvent?
    /// Where the token found starts.
    public var position: SourcePosition

    public init(expected: JSONValueKind, found: JSONEvent?, at position: SourcePosition) {
        self.expected = expected
        self.found = found
        self.position = position
    }

    public var description: String {
        let what: String
        switch found {
        case nil: what = "the end of the document"
        case .objectStart?: what = "an object"
        case .arrayStart?: what = "an array"
        case .objectEnd?: what = "the end of an object"
        case .arrayEnd?: what = "the end of an array"
        case .key?: what = "an object key"
        case .string?: what = "a string"
        case .number?: what = expected == .integer ? "a number that is not an integer within 64 bits" : "a number"
        case .bool(let value)?: what = "\(value)"
        case .null?: what = "null"
        }
        return "expected \(expected), found \(what) at \(position)"
    }
}
