/// Numbers: finding the token across block boundaries, then handing it to `JSONNumberScanner`.
extension JSONParser {
    /// Reads the number whose first byte (`-` or a digit) is at `position`.
    /// - Parameter converting: false when skipping: the grammar is checked, no value computed.
    mutating func scanNumber(converting: Bool) throws {
        var start = position
        var index = position
        while true {
            while index < end, Self.mayBePartOfNumber(buffer[index]) { index += 1 }
            if index < end { break }
            let (shift, gotMore) = try refill(keepingFrom: start)
            start -= shift
            index -= shift
            if !gotMore { break }
        }
        let text = UnsafeBufferPointer(start: buffer + start, count: index - start)
        let scanned: JSONNumberScanner.Scanned
        do {
            scanned = try JSONNumberScanner.scan(text, converting: converting)
        } catch {
            switch error {
            case .expectedDigit(let offset):
                let at = start + offset
                guard at < end else { throw syntaxError(.unexpectedEndOfInput(inside: .number), at: end) }
                throw syntaxError(.unexpectedByte(buffer[at], expected: .digit), at: at)
            case .leadingZero(let offset):
                throw syntaxError(.leadingZero, at: start + offset)
            case .outOfRange:
                throw syntaxError(.numberOutOfRange, at: start)
            }
        }
        position = start + scanned.length
        number = scanned.double
        integer = scanned.integer
        numberIsInt64 = scanned.isInt64
    }

    /// Whether `byte` can occur in a number: a digit, `.`, `e`, `E`, `+` or `-`.
    @inline(__always)
    static func mayBePartOfNumber(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
    }
}
