#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads decimal numbers from UTF-8 bytes, the way text formats and people write them: `52.52`,
/// `-0.5`, `.5`, `5.`, `5.0E-4`, `+3`, correctly rounded. Spaces and tabs around the number are
/// ignored; `nan`, `inf`, hexadecimal and empty text are not numbers. The one decimal reader of the
/// project: CSV, GeoLife, WKT, the phone apps' fields, GPX/KML elements (`XMLBytes.parseDouble`)
/// and the command line's `geodesic`/`declination` input all read through it. (JSON keeps its own
/// scanner, `JSONNumberScanner`, because JSON's grammar is stricter; NMEA keeps the digits exactly
/// for `ddmm.mmmm`, `NMEANumber`.)
///
/// Up to 19 significant digits whose integer is exact in a double (≤ 2^53), times a power of ten
/// up to 10^22, take Clinger's fast path: one exact multiplication or division, correctly rounded
/// by IEEE arithmetic. Everything else goes to the C library's correctly rounded `strtod`; a value
/// too large for a double is ±infinity, as `strtod` gives it (callers that need a finite value
/// check for it).
/// Source: W. D. Clinger, "How to Read Floating Point Numbers Accurately", PLDI 1990.
public enum DecimalNumber {
    /// The number in `bytes`, or `nil` when they are not one.
    /// - Parameter decimalComma: whether a `,` may stand for the decimal point (semicolon- or
    ///   tab-separated files written with a European locale).
    /// - Complexity: O(n) in the length of the text; no allocation.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, decimalComma: Bool = false) -> Double? {
        var start = 0, end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        var i = start
        var negative = false
        if i < end, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var mantissa: UInt64 = 0, significantDigits = 0, digitCount = 0, exponent10 = 0
        var exact = true
        var pointAt: Int?
        while i < end {
            let byte = bytes[i]
            let digit = byte &- 0x30
            if digit < 10 {
                digitCount += 1
                let fractional = pointAt != nil
                if mantissa == 0 && digit == 0 {
                    if fractional { exponent10 -= 1 }  // leading zeros carry no information
                } else if significantDigits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    significantDigits += 1
                    if fractional { exponent10 -= 1 }
                } else {
                    exact = false  // more digits than the fast path holds
                    if !fractional { exponent10 += 1 }
                }
            } else if pointAt == nil, byte == UInt8(ascii: ".") || (decimalComma && byte == UInt8(ascii: ",")) {
                pointAt = i
            } else {
                break
            }
            i += 1
        }
        guard digitCount > 0 else { return nil }
        if i < end {
            guard bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") else { return nil }
            i += 1
            var exponentNegative = false
            if i < end, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            var written = 0, exponentDigits = 0
            while i < end, bytes[i] &- 0x30 < 10 {
                if written < 100_000 { written = written * 10 + Int(bytes[i] &- 0x30) }
                exponentDigits += 1
                i += 1
            }
            guard exponentDigits > 0, i == end else { return nil }
            exponent10 += exponentNegative ? -written : written
        }
        if exact, mantissa <= 1 << 53, let power = ExactPowerOfTen.value(abs(exponent10)) {
            let m = Double(mantissa)  // exact
            let magnitude = exponent10 >= 0 ? m * power : m / power
            return negative ? -magnitude : magnitude
        }
        return strtodCopy(UnsafeBufferPointer(rebasing: bytes[start..<end]), commaAt: pointAt.map { $0 - start })
    }

    /// The number in `bytes` (see the overload for buffers).
    public static func parse(_ bytes: ArraySlice<UInt8>, decimalComma: Bool = false) -> Double? {
        bytes.withUnsafeBufferPointer { parse($0, decimalComma: decimalComma) }
    }

    /// The number in `text` (see the overload for buffers).
    public static func parse(_ text: String, decimalComma: Bool = false) -> Double? {
        var text = text
        return text.withUTF8 { parse($0, decimalComma: decimalComma) }
    }

    /// `strtod` on a NUL-terminated stack copy of syntax already checked, with a decimal comma at
    /// `commaAt` (if any) turned into the point `strtod` reads in the C locale.
    private static func strtodCopy(_ bytes: UnsafeBufferPointer<UInt8>, commaAt: Int?) -> Double? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { text -> Double? in
            guard let start = text.baseAddress else { return nil }
            for k in 0..<bytes.count { text[k] = CChar(bitPattern: bytes[k]) }
            if let commaAt { text[commaAt] = CChar(bitPattern: UInt8(ascii: ".")) }
            text[bytes.count] = 0
            return strtod(start, nil)
        }
    }
}
