#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Parses a decimal number from ASCII bytes, correctly rounded: `[+-]digits[.digits][e[+-]digits]`
/// (digits may be absent on one side of the point). No hexadecimal, "nan" or "inf".
///
/// Most inputs (at most 19 significant digits whose value is exact in a double, times a power
/// of ten up to 10²²) take Clinger's fast path: one exact multiplication or division, correctly
/// rounded by IEEE arithmetic. Everything else goes to the C library's `strtod`.
/// Source: W. D. Clinger, "How to read floating point numbers accurately", PLDI 1990.
enum DecimalNumberParser {
    private static let exactPowersOfTen: [Double] = (0...22).map { (0..<$0).reduce(1.0) { r, _ in r * 10 } }

    /// The value of the whole of `bytes`, or nil when they are not a decimal number. Overflow gives
    /// ±infinity, as `strtod` does.
    /// - Complexity: O(bytes.count).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        let n = bytes.count
        var negative = false
        if i < n && (bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+")) {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var mantissa: UInt64 = 0, significantDigits = 0, digitCount = 0, exponent10 = 0
        var exact = true
        func digit(_ byte: UInt8) -> UInt64? {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? UInt64(byte - UInt8(ascii: "0")) : nil
        }
        func accumulate(_ d: UInt64, fractional: Bool) {
            digitCount += 1
            if mantissa == 0 && d == 0 {
                if fractional { exponent10 -= 1 }  // leading zeros carry no information
                return
            }
            if significantDigits < 19 {
                mantissa = mantissa * 10 + d
                significantDigits += 1
                if fractional { exponent10 -= 1 }
            } else {
                exact = false  // more digits than the fast path holds
                if !fractional { exponent10 += 1 }
            }
        }
        while i < n, let d = digit(bytes[i]) { accumulate(d, fractional: false); i += 1 }
        if i < n && bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < n, let d = digit(bytes[i]) { accumulate(d, fractional: true); i += 1 }
        }
        guard digitCount > 0 else { return nil }
        if i < n && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            var exponentNegative = false
            if i < n && (bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+")) {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            var written = 0, exponentDigits = 0
            while i < n, let d = digit(bytes[i]) {
                if written < 100_000 { written = written * 10 + Int(d) }
                exponentDigits += 1
                i += 1
            }
            guard exponentDigits > 0 else { return nil }
            exponent10 += exponentNegative ? -written : written
        }
        guard i == n else { return nil }

        if exact && mantissa <= 1 << 53 && (-22...22).contains(exponent10) {
            let m = Double(mantissa)  // exact
            let magnitude = exponent10 >= 0 ? m * exactPowersOfTen[exponent10] : m / exactPowersOfTen[-exponent10]
            return negative ? -magnitude : magnitude
        }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: n + 1) { text -> Double? in
            guard let start = text.baseAddress else { return nil }
            for k in 0..<n { text[k] = CChar(bitPattern: bytes[k]) }
            text[n] = 0
            return strtod(start, nil)
        }
    }

    /// Parses a string (a convenience for tests and small inputs).
    static func parse(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { parse($0) }
    }
}
