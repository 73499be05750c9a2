extension XMLBytes {
    /// The decimal number the bytes spell, surrounding whitespace ignored: `[+-]digits[.digits]`
    /// with an optional exponent `e[+-]digits` (the lexical form of xsd:decimal and xsd:double,
    /// without INF and NaN), correctly rounded by the project's one decimal reader
    /// (`DecimalNumber`). `nil` for anything else or a result that is not finite.
    /// - Complexity: O(n) in the number of bytes, no allocation.
    public func parseDouble() -> Double? {
        let bytes = trimmed
        guard let p = bytes.base, bytes.count > 0 else { return nil }
        guard let value = DecimalNumber.parse(UnsafeBufferPointer(start: p, count: bytes.count)), value.isFinite else { return nil }
        return value
    }

    /// The decimal integer the bytes spell (`[+-]digits`, surrounding whitespace ignored), or
    /// `nil` for anything else or a value outside `Int`.
    /// - Complexity: O(n), no allocation.
    public func parseInteger() -> Int? {
        let bytes = trimmed
        guard let p = bytes.base, bytes.count > 0 else { return nil }
        var i = 0
        let negative = p[0] == UInt8(ascii: "-")
        if negative || p[0] == UInt8(ascii: "+") { i = 1 }
        guard i < bytes.count else { return nil }
        var value = 0
        while i < bytes.count {
            let digit = p[i] &- 0x30
            guard digit < 10 else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = negative
                ? times10.subtractingReportingOverflow(Int(digit))
                : times10.addingReportingOverflow(Int(digit))
            guard !overflow1, !overflow2 else { return nil }
            value = next
            i += 1
        }
        return value
    }
}
