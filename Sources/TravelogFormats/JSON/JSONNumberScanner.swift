#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks a JSON number (RFC 8259 §6) and converts it exactly: to the nearest Double, and to Int64
/// when its value is an integer that fits.
///
/// Up to 19 significant digits are gathered in a UInt64. When that mantissa is at most 2^53 and the
/// decimal exponent within ±22, both it and the power of ten are exact Doubles, so one IEEE
/// multiplication or division rounds correctly (Clinger, "How to read floating point numbers
/// accurately", PLDI 1990). Everything else goes to the C library's correctly rounded `strtod`,
/// in the C locale, from a small buffer on the stack.
///
/// - Complexity: O(length of the number).
enum JSONNumberScanner {
    /// A checked number.
    struct Scanned {
        /// How many bytes form the number (the grammar may end before the text does).
        var length: Int
        var double: Double
        var integer: Int64
        var isInt64: Bool
    }

    /// Why the text is not a number; offsets are from the start of the text.
    enum Failure: Error {
        case expectedDigit(at: Int)
        case leadingZero(at: Int)
        case outOfRange
    }

    /// Checks the number at the start of `text` and, when `converting`, computes its value.
    static func scan(_ text: UnsafeBufferPointer<UInt8>, converting: Bool) throws(Failure) -> Scanned {
        let count = text.count
        var index = 0
        let negative = count > 0 && text[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        guard index < count, text[index] &- UInt8(ascii: "0") < 10 else { throw .expectedDigit(at: index) }

        var mantissa: UInt64 = 0  // the first 19 significant digits
        var significantDigits = 0
        var exponent = 0  // value = mantissa × 10^exponent (before dropped digits)
        var dropped = false  // a non-zero digit did not fit in the mantissa
        if text[index] == UInt8(ascii: "0") {
            index += 1
            if index < count, text[index] &- UInt8(ascii: "0") < 10 { throw .leadingZero(at: index - 1) }
        } else {
            while index < count {
                let digit = text[index] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                if significantDigits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    significantDigits += 1
                } else {
                    exponent += 1
                    if digit != 0 { dropped = true }
                }
                index += 1
            }
        }
        if index < count, text[index] == UInt8(ascii: ".") {
            index += 1
            guard index < count, text[index] &- UInt8(ascii: "0") < 10 else { throw .expectedDigit(at: index) }
            while index < count {
                let digit = text[index] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                if significantDigits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    exponent -= 1
                    if mantissa != 0 { significantDigits += 1 }
                } else if digit != 0 {
                    dropped = true
                }
                index += 1
            }
        }
        if index < count, text[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var negativeExponent = false
            if index < count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                negativeExponent = text[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < count, text[index] &- UInt8(ascii: "0") < 10 else { throw .expectedDigit(at: index) }
            var explicitExponent = 0
            while index < count {
                let digit = text[index] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                // Beyond a million the value is 0 or infinite anyway; stop growing.
                if explicitExponent < 1_000_000 { explicitExponent = explicitExponent * 10 + Int(digit) }
                index += 1
            }
            exponent += negativeExponent ? -explicitExponent : explicitExponent
        }
        guard converting else { return Scanned(length: index, double: 0, integer: 0, isInt64: false) }

        var magnitude: Double
        if mantissa == 0 {
            magnitude = 0
        } else if !dropped, mantissa <= 1 << 53, let power = ExactPowerOfTen.value(abs(exponent)) {
            let exact = Double(mantissa)
            magnitude = exponent < 0 ? exact / power : exact * power
        } else {
            let digits = UnsafeBufferPointer(rebasing: text[(negative ? 1 : 0)..<index])
            magnitude = correctlyRounded(digits)
            guard magnitude.isFinite else { throw .outOfRange }
        }
        let (integer, isInt64) = dropped ? (0, false) : exactInteger(mantissa, exponent, negative: negative)
        return Scanned(length: index, double: negative ? -magnitude : magnitude, integer: integer, isInt64: isInt64)
    }

    /// `mantissa × 10^exponent` (negated when `negative`) when that is an integer within Int64.
    static func exactInteger(_ mantissa: UInt64, _ exponent: Int, negative: Bool) -> (Int64, Bool) {
        var value = mantissa
        var exponent = exponent
        guard value != 0 else { return (0, true) }
        while exponent < 0, value % 10 == 0 {
            value /= 10
            exponent += 1
        }
        guard exponent >= 0 else { return (0, false) }
        while exponent > 0 {
            let (product, overflow) = value.multipliedReportingOverflow(by: 10)
            if overflow { return (0, false) }
            value = product
            exponent -= 1
        }
        if negative {
            guard value <= UInt64(Int64.max) + 1 else { return (0, false) }
            return (Int64(bitPattern: 0 &- value), true)
        }
        guard value <= UInt64(Int64.max) else { return (0, false) }
        return (Int64(value), true)
    }

    /// The C locale, so that `strtod` reads `.` as the decimal point whatever the process locale is.
    nonisolated(unsafe) static let cLocale = newlocale(LC_NUMERIC_MASK, "C", nil)

    /// `strtod` of an unsigned decimal number (checked by `scan`), correctly rounded; infinite when it
    /// overflows.
    static func correctlyRounded(_ digits: UnsafeBufferPointer<UInt8>) -> Double {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: digits.count + 1) { text in
            for offset in 0..<digits.count { text[offset] = CChar(bitPattern: digits[offset]) }
            text[digits.count] = 0
            let previous = uselocale(cLocale)
            defer { uselocale(previous) }
            guard let start = text.baseAddress else { return .nan }
            return strtod(start, nil)
        }
    }
}
