/// Strings: finding the closing quote, resolving escapes (RFC 8259 §7) and validating UTF-8
/// (RFC 3629 §4), across block boundaries.
extension JSONParser {
    static let backslash = UInt8(ascii: "\\")

    /// Reads a string whose opening quote has been consumed. A string without escapes is left in
    /// place in the buffer; one with escapes is decoded into the scratch buffer.
    /// - Parameter decoding: false when skipping: escapes are checked but nothing is copied.
    mutating func scanString(decoding: Bool) throws {
        var start = position
        var index = position
        while true {
            // Eight bytes at a time while none needs a look (most of every key and value).
            while end - index >= 8, !Self.mayNeedALook(UnsafeRawPointer(buffer + index).loadUnaligned(as: UInt64.self)) {
                index += 8
            }
            while index < end {
                let byte = buffer[index]
                if byte == Self.quote {
                    if decoding {
                        stringStart = UnsafePointer(buffer + start)
                        stringCount = index - start
                    } else {
                        stringStart = UnsafePointer(scratch)
                        stringCount = 0
                    }
                    position = index + 1
                    return
                }
                if byte == Self.backslash || byte < 0x20 || byte >= 0x80 { break }
                index += 1
            }
            if index < end {
                let byte = buffer[index]
                if byte >= 0x80 {
                    let length = try utf8SequenceLength(at: index)
                    if length > 0 {
                        index += length
                        continue
                    }
                    // A sequence cut by the end of the block: fall through to refill.
                } else if byte == Self.backslash {
                    scratchCount = 0
                    if decoding { try appendToScratch(from: start, to: index) }
                    position = index
                    try scanEscapedString(decoding: decoding)
                    return
                } else {
                    throw syntaxError(.controlCharacterInString(byte), at: index)
                }
            }
            // Keep the string so far (or, when skipping, only the unread part) and read more.
            let (shift, gotMore) = try refill(keepingFrom: decoding ? start : index)
            start -= shift
            index -= shift
            guard gotMore else { throw syntaxError(.unexpectedEndOfInput(inside: .string), at: end) }
        }
    }

    /// Whether any of eight bytes may be a quote, a backslash, a control character or part of a
    /// multi-byte character (SWAR: each test sets the high bit of a byte that matches; a borrow may
    /// also flag a byte above a match, which only costs a look byte by byte).
    @inline(__always)
    static func mayNeedALook(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* UInt64(Self.quote)), backslashes = word ^ (ones &* UInt64(Self.backslash))
        let zeroQuote = (quotes &- ones) & ~quotes
        let zeroBackslash = (backslashes &- ones) & ~backslashes
        let control = word &- ones &* 0x20
        return (zeroQuote | zeroBackslash | control | word) & highs != 0
    }

    /// Continues a string at `position`, a backslash, copying what it decodes to the scratch buffer.
    mutating func scanEscapedString(decoding: Bool) throws {
        var index = position
        var runStart = index
        while true {
            if index == end {
                if decoding { try appendToScratch(from: runStart, to: index) }
                guard try refillInsideString(at: &index) else {
                    throw syntaxError(.unexpectedEndOfInput(inside: .string), at: end)
                }
                runStart = index
                continue
            }
            let byte = buffer[index]
            if byte == Self.quote {
                if decoding { try appendToScratch(from: runStart, to: index) }
                stringStart = UnsafePointer(scratch)
                stringCount = decoding ? scratchCount : 0
                position = index + 1
                return
            }
            if byte == Self.backslash {
                if decoding { try appendToScratch(from: runStart, to: index) }
                index = try scanEscape(at: index, decoding: decoding)
                runStart = index
            } else if byte < 0x20 {
                throw syntaxError(.controlCharacterInString(byte), at: index)
            } else if byte < 0x80 {
                index += 1
            } else {
                let length = try utf8SequenceLength(at: index)
                if length > 0 {
                    index += length
                } else {
                    if decoding { try appendToScratch(from: runStart, to: index) }
                    guard try refillInsideString(at: &index) else {
                        throw syntaxError(.unexpectedEndOfInput(inside: .string), at: end)
                    }
                    runStart = index
                }
            }
        }
    }

    /// Reads more input keeping the bytes from `index` on; false at the end of the input.
    private mutating func refillInsideString(at index: inout Int) throws -> Bool {
        let (shift, gotMore) = try refill(keepingFrom: index)
        index -= shift
        return gotMore
    }

    /// Decodes the escape whose backslash is at `index` and returns the index after it.
    private mutating func scanEscape(at start: Int, decoding: Bool) throws -> Int {
        var index = start
        guard try ensureAvailable(2, from: &index) else {
            throw syntaxError(.unexpectedEndOfInput(inside: .string), at: end)
        }
        let escaped = buffer[index + 1]
        let decoded: UInt8
        switch escaped {
        case Self.quote, Self.backslash, UInt8(ascii: "/"): decoded = escaped
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"): return try scanUnicodeEscape(at: index, decoding: decoding)
        default: throw syntaxError(.invalidEscape(escaped), at: index)
        }
        if decoding {
            try reserveScratch(1)
            scratch[scratchCount] = decoded
            scratchCount += 1
        }
        return index + 2
    }

    /// Decodes `\uXXXX`, or a surrogate pair `\uD83D\uDE00`, at `index`; returns the index after it.
    private mutating func scanUnicodeEscape(at start: Int, decoding: Bool) throws -> Int {
        var index = start
        let high = try hexQuad(at: &index)
        var scalar = UInt32(high)
        var length = 6
        if (0xDC00...0xDFFF).contains(high) {
            throw syntaxError(.invalidUnicodeEscape(.unpairedLowSurrogate(high)), at: index)
        }
        if (0xD800...0xDBFF).contains(high) {
            // Both escapes in the window at once (fewer bytes only when the input ends).
            _ = try ensureAvailable(12, from: &index)
            var second = index + 6
            guard second + 1 < end else {
                if second < end, buffer[second] != Self.backslash {
                    throw syntaxError(.invalidUnicodeEscape(.unpairedHighSurrogate(high)), at: index)
                }
                throw syntaxError(.unexpectedEndOfInput(inside: .string), at: end)
            }
            guard buffer[second] == Self.backslash, buffer[second + 1] == UInt8(ascii: "u") else {
                throw syntaxError(.invalidUnicodeEscape(.unpairedHighSurrogate(high)), at: index)
            }
            let low = try hexQuad(at: &second)
            guard second == index + 6 else { preconditionFailure("the window moved after ensureAvailable") }
            guard (0xDC00...0xDFFF).contains(low) else {
                throw syntaxError(.invalidUnicodeEscape(.unpairedHighSurrogate(high)), at: index)
            }
            scalar = 0x10000 + ((UInt32(high) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            length = 12
        }
        if decoding { try appendUTF8(scalar) }
        return index + length
    }

    /// The four hex digits after the `\u` at `index` (which may move when the buffer is refilled).
    private mutating func hexQuad(at index: inout Int) throws -> UInt16 {
        let available = try ensureAvailable(6, from: &index)
        var value: UInt16 = 0
        for offset in 2..<6 {
            guard index + offset < end else {
                precondition(!available)
                throw syntaxError(.unexpectedEndOfInput(inside: .string), at: end)
            }
            let byte = buffer[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw syntaxError(.invalidUnicodeEscape(.notFourHexDigits), at: index)
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// Appends the UTF-8 encoding of a Unicode scalar value to the scratch buffer.
    private mutating func appendUTF8(_ scalar: UInt32) throws {
        try reserveScratch(4)
        let out = scratch + scratchCount
        switch scalar {
        case 0..<0x80:
            out[0] = UInt8(scalar)
            scratchCount += 1
        case 0x80..<0x800:
            out[0] = UInt8(0xC0 | scalar >> 6)
            out[1] = UInt8(0x80 | scalar & 0x3F)
            scratchCount += 2
        case 0x800..<0x10000:
            out[0] = UInt8(0xE0 | scalar >> 12)
            out[1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            out[2] = UInt8(0x80 | scalar & 0x3F)
            scratchCount += 3
        default:
            out[0] = UInt8(0xF0 | scalar >> 18)
            out[1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            out[2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            out[3] = UInt8(0x80 | scalar & 0x3F)
            scratchCount += 4
        }
    }

    /// The length of the well-formed UTF-8 sequence whose lead byte (≥ 0x80) is at `index`, or 0 when
    /// the block ends inside it and more input may follow.
    /// - Throws: `.invalidUTF8(lead)` at the lead byte when the sequence is ill-formed (RFC 3629 §4:
    ///   no overlong forms, no surrogates, nothing above U+10FFFF); the end of input inside a string.
    @inline(__always)
    func utf8SequenceLength(at index: Int) throws -> Int {
        let lead = buffer[index]
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: throw syntaxError(.invalidUTF8(lead), at: index)
        }
        for offset in 1..<length {
            guard index + offset < end else {
                if sourceIsExhausted { throw syntaxError(.unexpectedEndOfInput(inside: .string), at: end) }
                return 0
            }
            let byte = buffer[index + offset]
            guard byte >= lower, byte <= upper else { throw syntaxError(.invalidUTF8(lead), at: index) }
            lower = 0x80
            upper = 0xBF
        }
        return length
    }
}
