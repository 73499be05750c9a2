#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Formats doubles with a fixed number of fractional digits exactly as C's `printf("%.*f")` does
/// (and so as GeographicLib's tools do): the exact binary value rounded half-to-even, a minus sign
/// on negative values including -0 and values that round to zero, "nan", "inf" and "-inf".
///
/// The common case (|value| × 10^digits below 2⁶⁴) is computed with integer arithmetic, about
/// ten times faster than `String(format:)`; larger values fall back to the C library.
enum FixedPointFormatter {
    /// The largest number of fractional digits supported.
    static let maximumFractionDigits = 17

    private static let powersOfTen: [UInt64] = (0...19).map { (0..<$0).reduce(1) { r, _ in r * 10 } }

    /// Appends `value` with `fractionDigits` digits after the point (no exponent) to `output`.
    /// - Precondition: `fractionDigits` is in 0...17.
    /// - Complexity: O(number of digits).
    static func append(_ value: Double, fractionDigits: Int, to output: inout [UInt8]) {
        precondition((0...maximumFractionDigits).contains(fractionDigits), "fractionDigits must be in 0...17")
        guard value.isFinite else {
            output.append(contentsOf: value.isNaN ? Array("nan".utf8) : value < 0 ? Array("-inf".utf8) : Array("inf".utf8))
            return
        }
        guard let scaled = roundedScaledMagnitude(value, fractionDigits: fractionDigits) else {
            appendWithCLibrary(value, fractionDigits: fractionDigits, to: &output)
            return
        }
        if value.sign == .minus { output.append(UInt8(ascii: "-")) }
        let unit = powersOfTen[fractionDigits]
        appendDigits(scaled / unit, minimumCount: 1, to: &output)
        if fractionDigits > 0 {
            output.append(UInt8(ascii: "."))
            appendDigits(scaled % unit, minimumCount: fractionDigits, to: &output)
        }
    }

    /// The string form of `append(_:fractionDigits:to:)`.
    static func string(_ value: Double, fractionDigits: Int) -> String {
        var bytes: [UInt8] = []
        append(value, fractionDigits: fractionDigits, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// round(|value| × 10^digits), ties to even, computed exactly; nil when it needs more than 64 bits.
    private static func roundedScaledMagnitude(_ value: Double, fractionDigits: Int) -> UInt64? {
        let magnitude = value.magnitude
        guard magnitude != 0 else { return 0 }
        // magnitude = significand × 2^exponent exactly, with an integer significand below 2⁵³.
        let significand: UInt64, exponent: Int
        if magnitude.isNormal {
            significand = (1 << UInt64(Double.significandBitCount)) | magnitude.significandBitPattern
            exponent = Int(magnitude.exponent) - Double.significandBitCount
        } else {
            significand = magnitude.significandBitPattern
            exponent = Int(Double.leastNormalMagnitude.exponent) - Double.significandBitCount
        }
        let product = UInt128(significand) * UInt128(powersOfTen[fractionDigits])  // < 2¹¹⁰
        let rounded: UInt128
        if exponent >= 0 {
            guard exponent < 18 else { return nil }
            rounded = product << exponent
        } else if -exponent >= 120 {
            rounded = 0  // below half a unit in the last digit
        } else {
            let shift = -exponent
            let quotient = product >> shift
            let remainder = product & ((UInt128(1) << shift) - 1)
            let half = UInt128(1) << (shift - 1)
            rounded = remainder > half || (remainder == half && quotient & 1 == 1) ? quotient + 1 : quotient
        }
        return rounded <= UInt128(UInt64.max) ? UInt64(rounded) : nil
    }

    private static func appendDigits(_ value: UInt64, minimumCount: Int, to output: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var v = value, count = 0
            repeat {
                let (q, r) = v.quotientAndRemainder(dividingBy: 10)
                digits[19 - count] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: r)
                count += 1
                v = q
            } while v != 0 || count < minimumCount
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[(20 - count)...]))
        }
    }

    private static func appendWithCLibrary(_ value: Double, fractionDigits: Int, to output: inout [UInt8]) {
        var buffer = [CChar](repeating: 0, count: 400)  // 1.8e308 has 309 integer digits
        let count = withVaList([Int32(fractionDigits), value]) { arguments in
            buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, "%.*f", arguments) }
        }
        output.append(contentsOf: buffer[0..<Int(min(max(count, 0), 399))].map { UInt8(bitPattern: $0) })
    }
}
