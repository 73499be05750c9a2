#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension XMLBytes {
    /// The decimal number the bytes spell, surrounding whitespace ignored: `[+-]digits[.digits]`
    /// with an optional exponent `e[+-]digits` (the lexical form of xsd:decimal and xsd:double,
    /// without INF and NaN). `nil` for anything else or a result that is not finite.
    ///
    /// Correctly rounded. Up to 2^53 as the digits' integer and 22 fraction digits (every GPS
    /// coordinate and elevation), it is one exact integer conversion and one division by an exact
    /// power of ten, which IEEE 754 rounds correctly (Clinger's fast path, "How to Read Floating
    /// Point Numbers Accurately", PLDI 1990); otherwise it calls `strtod` on a stack copy.
    /// - Complexity: O(n) in the number of bytes, no allocation.
    public func parseDouble() -> Double? {
        let bytes = trimmed
        guard let p = bytes.base, bytes.count > 0 else { return nil }
        let n = bytes.count
        var i = 0
        let negative = p[0] == UInt8(ascii: "-")
        if negative || p[0] == UInt8(ascii: "+") { i = 1 }
        var mantissa: UInt64 = 0
        var digitCount = 0
        var fractionDigits = 0
        var exact = true
        while i < n, case let digit = p[i] &- 0x30, digit < 10 {
            if mantissa >= Self.accumulationLimit { exact = false } else { mantissa = mantissa &* 10 &+ UInt64(digit) }
            digitCount += 1
            i += 1
        }
        if i < n, p[i] == UInt8(ascii: ".") {
            i += 1
            while i < n, case let digit = p[i] &- 0x30, digit < 10 {
                if mantissa >= Self.accumulationLimit { exact = false } else { mantissa = mantissa &* 10 &+ UInt64(digit) }
                digitCount += 1
                fractionDigits += 1
                i += 1
            }
        }
        guard digitCount > 0 else { return nil }
        if i == n, exact, mantissa <= Self.largestExactMantissa, let power = ExactPowerOfTen.value(fractionDigits) {
            let magnitude = Double(mantissa) / power
            return negative ? -magnitude : magnitude
        }
        if i < n {
            guard p[i] == UInt8(ascii: "e") || p[i] == UInt8(ascii: "E") else { return nil }
            i += 1
            if i < n, p[i] == UInt8(ascii: "-") || p[i] == UInt8(ascii: "+") { i += 1 }
            let exponentStart = i
            while i < n, p[i] &- 0x30 < 10 { i += 1 }
            guard i == n, i > exponentStart else { return nil }
        }
        return Self.strtodCopy(p, count: n)
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

    /// 2^53: every integer up to it is a `Double`.
    static var largestExactMantissa: UInt64 { 1 << 53 }
    /// Digits stop accumulating above this (10^17 · 10 + 9 still fits in 64 bits).
    static var accumulationLimit: UInt64 { 100_000_000_000_000_000 }

    /// `strtod` on a NUL-terminated stack copy of syntax already checked; `nil` if not finite.
    private static func strtodCopy(_ p: UnsafePointer<UInt8>, count: Int) -> Double? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { copy -> Double? in
            guard let start = copy.baseAddress else { return nil }
            UnsafeMutableRawPointer(start).copyMemory(from: p, byteCount: count)
            start[count] = 0
            let value = strtod(start, nil)
            return value.isFinite ? value : nil
        }
    }
}
