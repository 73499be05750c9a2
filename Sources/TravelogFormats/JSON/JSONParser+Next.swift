/// The grammar: one event per call, with the state of what may come next.
extension JSONParser {
    static let quote = UInt8(ascii: "\"")
    static let comma = UInt8(ascii: ",")
    static let colon = UInt8(ascii: ":")

    /// Reads the next event, or nil once the document (every top-level value) has ended.
    ///
    /// The payload of the previous event is invalid afterwards.
    /// - Throws: `JSONSyntaxError` at the first byte that breaks the grammar or when the input ends
    ///   early; whatever the source throws.
    public mutating func next() throws -> JSONEvent? {
        try advance(decoding: true)
    }

    /// Skips the next value whole — a scalar, or an object or array with everything inside it — where
    /// a value comes next: after `.key`, inside an array, or at the top level. Strings are not
    /// decoded and numbers not converted, but the input is still checked against the grammar.
    /// - Throws: `JSONTypeMismatchError` when no value comes next (the end of an object or array,
    ///   an object key, or the end of the document); `JSONSyntaxError`.
    public mutating func skipValue() throws {
        let startDepth = depthStorage
        let event = try advance(decoding: false)
        switch event {
        case .objectStart?, .arrayStart?:
            while depthStorage > startDepth {
                _ = try advance(decoding: false)
            }
        case .string?, .number?, .bool?, .null?:
            return
        case .objectEnd?, .arrayEnd?, .key?, nil:
            throw JSONTypeMismatchError(expected: .value, found: event, at: tokenPosition)
        }
    }

    /// Skips everything up to and including the end of the innermost open object or array; does
    /// nothing at the top level.
    public mutating func skipToContainerEnd() throws {
        guard depthStorage > 0 else { return }
        let target = depthStorage - 1
        while depthStorage > target {
            _ = try advance(decoding: false)
        }
    }

    @inline(__always)
    mutating func advance(decoding: Bool) throws -> JSONEvent? {
        switch state {
        case .objectKeyOrEnd:
            let byte = try peekNonWhitespace(inside: .object)
            if byte == Self.quote { return try key(decoding: decoding) }
            if byte == UInt8(ascii: "}") { return closeContainer(.objectEnd) }
            throw syntaxError(.unexpectedByte(byte, expected: .keyOrObjectEnd), at: position)
        case .objectColon:
            let byte = try peekNonWhitespace(inside: .object)
            guard byte == Self.colon else { throw syntaxError(.unexpectedByte(byte, expected: .colon), at: position) }
            position += 1
            return try value(startingWith: try peekNonWhitespace(inside: .object), decoding: decoding, expected: .value)
        case .objectCommaOrEnd:
            let byte = try peekNonWhitespace(inside: .object)
            if byte == Self.comma {
                position += 1
                let next = try peekNonWhitespace(inside: .object)
                guard next == Self.quote else {
                    throw syntaxError(.unexpectedByte(next, expected: .keyAfterComma), at: position)
                }
                return try key(decoding: decoding)
            }
            if byte == UInt8(ascii: "}") { return closeContainer(.objectEnd) }
            throw syntaxError(.unexpectedByte(byte, expected: .commaOrObjectEnd), at: position)
        case .arrayValueOrEnd:
            let byte = try peekNonWhitespace(inside: .array)
            if byte == UInt8(ascii: "]") { return closeContainer(.arrayEnd) }
            return try value(startingWith: byte, decoding: decoding, expected: .valueOrArrayEnd)
        case .arrayCommaOrEnd:
            let byte = try peekNonWhitespace(inside: .array)
            if byte == Self.comma {
                position += 1
                return try value(startingWith: try peekNonWhitespace(inside: .array), decoding: decoding, expected: .value)
            }
            if byte == UInt8(ascii: "]") { return closeContainer(.arrayEnd) }
            throw syntaxError(.unexpectedByte(byte, expected: .commaOrArrayEnd), at: position)
        case .topLevelValue:
            if bytesConsumed == 0 { try skipByteOrderMark() }
            guard let byte = try peekNonWhitespace() else {
                if options.allowsMultipleTopLevelValues {
                    state = .finished
                    return nil
                }
                throw syntaxError(.unexpectedEndOfInput(inside: .value), at: end)
            }
            return try value(startingWith: byte, decoding: decoding, expected: .value)
        case .afterTopLevelValue:
            let lineBefore = line
            guard let byte = try peekNonWhitespace() else {
                state = .finished
                return nil
            }
            guard options.allowsMultipleTopLevelValues else {
                throw syntaxError(.unexpectedByte(byte, expected: .endOfInput), at: position)
            }
            guard line > lineBefore else {
                throw syntaxError(.unexpectedByte(byte, expected: .newlineBetweenValues), at: position)
            }
            return try value(startingWith: byte, decoding: decoding, expected: .value)
        case .finished:
            return nil
        }
    }

    /// Reads a key whose opening quote is at `position`.
    @inline(__always)
    mutating func key(decoding: Bool) throws -> JSONEvent {
        markToken()
        position += 1
        try scanString(decoding: decoding)
        state = .objectColon
        return .key
    }

    /// Reads the value that starts with `byte` at `position`.
    @inline(__always)
    mutating func value(
        startingWith byte: UInt8, decoding: Bool, expected: JSONSyntaxError.Expectation
    ) throws -> JSONEvent {
        markToken()
        switch byte {
        case Self.quote:
            position += 1
            try scanString(decoding: decoding)
            finishValue()
            return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try scanNumber(converting: decoding)
            finishValue()
            return .number
        case UInt8(ascii: "{"):
            try open(Self.objectMarker)
            state = .objectKeyOrEnd
            return .objectStart
        case UInt8(ascii: "["):
            try open(Self.arrayMarker)
            state = .arrayValueOrEnd
            return .arrayStart
        case UInt8(ascii: "t"):
            try scanLiteral(.true)
            finishValue()
            return .bool(true)
        case UInt8(ascii: "f"):
            try scanLiteral(.false)
            finishValue()
            return .bool(false)
        case UInt8(ascii: "n"):
            try scanLiteral(.null)
            finishValue()
            return .null
        default:
            throw syntaxError(.unexpectedByte(byte, expected: expected), at: position)
        }
    }

    @inline(__always)
    mutating func open(_ marker: UInt8) throws {
        guard depthStorage < options.maximumDepth else {
            throw syntaxError(.depthLimitExceeded(maximumDepth: options.maximumDepth), at: position)
        }
        containers[depthStorage] = marker
        depthStorage += 1
        position += 1
    }

    @inline(__always)
    mutating func closeContainer(_ event: JSONEvent) -> JSONEvent {
        markToken()
        position += 1
        depthStorage -= 1
        finishValue()
        return event
    }

    /// Sets what may follow a complete value.
    @inline(__always)
    mutating func finishValue() {
        if depthStorage == 0 {
            state = .afterTopLevelValue
        } else {
            state = containers[depthStorage - 1] == Self.objectMarker ? .objectCommaOrEnd : .arrayCommaOrEnd
        }
    }

    /// Reads `true`, `false` or `null`, whose first letter is at `position`.
    mutating func scanLiteral(_ literal: JSONLiteral) throws {
        let text = literal.text
        let count = text.utf8CodeUnitCount
        var index = position
        _ = try ensureAvailable(count, from: &index)
        position = index
        for offset in 0..<count {
            guard index + offset < end else {
                throw syntaxError(.unexpectedEndOfInput(inside: .literal), at: end)
            }
            let byte = buffer[index + offset]
            guard byte == text.utf8Start[offset] else {
                throw syntaxError(.unexpectedByte(byte, expected: .literal(literal)), at: index + offset)
            }
        }
        position = index + count
    }
}
