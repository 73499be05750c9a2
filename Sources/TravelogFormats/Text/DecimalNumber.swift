/// Reads decimal numbers from UTF-8 bytes, the way text formats write them: `52.52`, `-0.5`,
/// `.5`, `5.0E-4`, `+3`. Spaces and tabs around the number are ignored; `nan`, `inf`, hexadecimal
/// and empty text are not numbers.
enum DecimalNumber {
    /// Powers of ten that a `Double` holds exactly.
    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    /// The number in `bytes`, or `nil` when they are not one.
    /// - Parameter decimalComma: whether a `,` may stand for the decimal point (semicolon- or
    ///   tab-separated files written with a European locale).
    ///
    /// Plain decimals with at most 15 significant digits and at most 22 fraction digits take
    /// Clinger's fast path (an exact integer divided by an exact power of ten is correctly rounded;
    /// W. D. Clinger, "How to Read Floating Point Numbers Accurately", PLDI 1990); anything else
    /// goes to the standard library's correctly rounded conversion.
    /// - Complexity: O(n) in the length of the text.
    static func parse(_ bytes: ArraySlice<UInt8>, decimalComma: Bool = false) -> Double? {
        bytes.withUnsafeBufferPointer { parse($0, decimalComma: decimalComma) }
    }

    /// The number in `bytes`, or `nil` when they are not one (see the overload for slices).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, decimalComma: Bool = false) -> Double? {
        var start = 0, end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        var index = start
        var negative = false
        if index < end, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var mantissa: UInt64 = 0
        var significantDigits = 0, digits = 0, fractionDigits = 0
        var sawPoint = false, sawComma = false, sawExponent = false
        while index < end {
            let byte = bytes[index]
            if byte &- 0x30 < 10 {
                digits += 1
                if significantDigits > 0 || byte != 0x30 { significantDigits += 1 }
                if significantDigits <= 19 { mantissa = mantissa &* 10 &+ UInt64(byte &- 0x30) }
                if sawPoint { fractionDigits += 1 }
            } else if !sawPoint, byte == UInt8(ascii: ".") || (decimalComma && byte == UInt8(ascii: ",")) {
                sawPoint = true
                sawComma = byte == UInt8(ascii: ",")
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                sawExponent = true
                break
            } else {
                return nil
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        if sawExponent {
            // The exponent: e, an optional sign, at least one digit.
            index += 1
            if index < end, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
            guard index < end else { return nil }
            while index < end {
                guard bytes[index] &- 0x30 < 10 else { return nil }
                index += 1
            }
        } else if significantDigits <= 15 && fractionDigits <= 22 {
            let magnitude = Double(mantissa) / exactPowersOfTen[fractionDigits]
            return negative ? -magnitude : magnitude
        }
        var text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        if sawComma { text = String(text.map { $0 == "," ? "." : $0 }) }
        return Double(text)
    }
}
