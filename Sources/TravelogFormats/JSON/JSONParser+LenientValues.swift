/// A member value that is well-formed JSON but not what the field holds (`"speed": "fast"`,
/// `"tst": true`): the reader rejects the record, not the file. The value has been consumed.
struct JSONFieldValueError: Error {
    /// The value as found: a string's text (at most 80 bytes), or what kind of value it was.
    var found: String
    /// Where the value starts.
    var position: SourcePosition
}

/// Values as the location apps write them, which is not always as the format says: numbers in
/// strings, times as ISO text or epoch numbers, `null` for "not known".
extension JSONParser {
    /// Reads a value where a number is expected: a JSON number, or a string holding a decimal
    /// number (Dawarich exports write `"0.1"`); `nil` for `null`.
    /// - Throws: `JSONFieldValueError` for any other value (consumed whole); JSON errors.
    mutating func readLenientDouble() throws -> Double? {
        try lenientDouble(after: try next())
    }

    /// `readLenientDouble()` for a value whose first event has already been read.
    mutating func lenientDouble(after event: JSONEvent?) throws -> Double? {
        switch event {
        case .number?:
            return doubleValue
        case .null?:
            return nil
        case .string?:
            let parsed = withStringBytes { DecimalNumber.parse($0) }
            guard let parsed, parsed.isFinite else {
                throw JSONFieldValueError(found: truncatedStringValue, position: tokenPosition)
            }
            return parsed
        default:
            throw try valueError(for: event)
        }
    }

    /// Reads a time: a string through `TimestampParser` (ISO 8601, RFC 3339, `yyyy-MM-dd HH:mm:ss`,
    /// epoch digits), or a number as epoch seconds or milliseconds; `nil` for `null`.
    /// - Throws: `JSONFieldValueError` for a value that is no time (consumed whole); JSON errors.
    mutating func readLenientTime() throws -> ParsedTimestamp? {
        let event = try next()
        switch event {
        case .number?:
            do throws(TimestampError) {
                return try TimestampParser.parse(epochNumber: doubleValue, exactInteger: int64Value)
            } catch {
                throw JSONFieldValueError(found: "\(int64Value.map(String.init) ?? String(doubleValue))", position: tokenPosition)
            }
        case .null?:
            return nil
        case .string?:
            let parsed = withStringBytes { bytes in
                try? TimestampParser.parse(utf8: bytes, accepting: .all)
            }
            guard let parsed else { throw JSONFieldValueError(found: truncatedStringValue, position: tokenPosition) }
            return parsed
        default:
            throw try valueError(for: event)
        }
    }

    /// Reads a string, `nil` for `null`.
    /// - Throws: `JSONFieldValueError` for any other value (consumed whole); JSON errors.
    mutating func readLenientString() throws -> String? {
        let event = try next()
        switch event {
        case .string?: return stringValue
        case .null?: return nil
        default: throw try valueError(for: event)
        }
    }

    /// Reads an array's strings (its other elements skipped), `nil` for `null` or any value that is
    /// not an array (consumed whole).
    mutating func readLenientStrings() throws -> [String]? {
        let event = try next()
        guard event == .arrayStart else {
            if event == .objectStart { try skipToContainerEnd() }
            return nil
        }
        var strings: [String] = []
        while let element = try nextElement() {
            switch element {
            case .string: strings.append(stringValue)
            case .objectStart, .arrayStart: try skipToContainerEnd()
            default: break
            }
        }
        return strings
    }

    /// The error for an unexpected value whose first event was `event`, after consuming the rest of
    /// it: a string's text, or what kind of value it was.
    mutating func valueError(for event: JSONEvent?) throws -> JSONFieldValueError {
        let position = tokenPosition
        if event == .string { return JSONFieldValueError(found: truncatedStringValue, position: position) }
        if event == .objectStart || event == .arrayStart { try skipToContainerEnd() }
        return JSONFieldValueError(found: FormatError.describe(event), position: position)
    }

    /// After `.string`: the text, cut to 80 bytes for a message.
    var truncatedStringValue: String {
        withStringBytes { String(decoding: $0.prefix(80), as: UTF8.self) }
    }
}
