/// Conveniences for readers that know the shape they expect: walk an object's keys, read a value
/// of a given type, and fail with a `JSONTypeMismatchError` naming the position otherwise.
extension JSONParser {
    /// Reads the next event and checks that it is `event` (typically `.objectStart` or `.arrayStart`).
    public mutating func expect(_ event: JSONEvent) throws {
        let found = try next()
        guard found == event else { throw JSONTypeMismatchError(expected: Self.kind(of: event), found: found, at: tokenPosition) }
    }

    /// Inside an object (after `.objectStart`, or after a member's value has been read or skipped):
    /// reads the next key and returns true, or consumes the closing `}` and returns false.
    ///
    /// ```swift
    /// while try parser.nextKey() {
    ///     if parser.stringEquals("latitudeE7") { latitudeE7 = try parser.readInt64() }
    ///     else { try parser.skipValue() }
    /// }
    /// ```
    public mutating func nextKey() throws -> Bool {
        switch try next() {
        case .key?: return true
        case .objectEnd?: return false
        case let other: throw JSONTypeMismatchError(expected: .key, found: other, at: tokenPosition)
        }
    }

    /// Inside an array: reads the first event of the next element, or consumes the closing `]` and
    /// returns nil.
    public mutating func nextElement() throws -> JSONEvent? {
        let event = try next()
        switch event {
        case .arrayEnd?: return nil
        case .key?, .objectEnd?, nil: throw JSONTypeMismatchError(expected: .value, found: event, at: tokenPosition)
        case let element?: return element
        }
    }

    /// Reads a number.
    public mutating func readDouble() throws -> Double {
        let event = try next()
        guard event == .number else { throw JSONTypeMismatchError(expected: .number, found: event, at: tokenPosition) }
        return number
    }

    /// Reads a number, or nil for `null`.
    public mutating func readDoubleOrNull() throws -> Double? {
        let event = try next()
        if event == .null { return nil }
        guard event == .number else { throw JSONTypeMismatchError(expected: .number, found: event, at: tokenPosition) }
        return number
    }

    /// Reads a number that is an integer within Int64 (written `42`, `42.0` or `4.2e1`), exactly.
    public mutating func readInt64() throws -> Int64 {
        let event = try next()
        guard event == .number, numberIsInt64 else {
            throw JSONTypeMismatchError(expected: .integer, found: event, at: tokenPosition)
        }
        return integer
    }

    /// Reads a string.
    public mutating func readString() throws -> String {
        let event = try next()
        guard event == .string else { throw JSONTypeMismatchError(expected: .string, found: event, at: tokenPosition) }
        return stringValue
    }

    /// Reads a string, or nil for `null`.
    public mutating func readStringOrNull() throws -> String? {
        let event = try next()
        if event == .null { return nil }
        guard event == .string else { throw JSONTypeMismatchError(expected: .string, found: event, at: tokenPosition) }
        return stringValue
    }

    /// Reads `true` or `false`.
    public mutating func readBool() throws -> Bool {
        let event = try next()
        guard case .bool(let value)? = event else {
            throw JSONTypeMismatchError(expected: .bool, found: event, at: tokenPosition)
        }
        return value
    }

    /// After `.key`: the key's case in `table`, or nil for a key the table does not know. Allocates nothing.
    public func key<Key>(in table: JSONKeyTable<Key>) -> Key? {
        table.match(UnsafeBufferPointer(start: stringStart, count: stringCount))
    }

    static func kind(of event: JSONEvent) -> JSONValueKind {
        switch event {
        case .objectStart, .objectEnd: .object
        case .arrayStart, .arrayEnd: .array
        case .key: .key
        case .string: .string
        case .number: .number
        case .bool: .bool
        case .null: .null
        }
    }
}
