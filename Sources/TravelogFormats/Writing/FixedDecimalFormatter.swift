/// Writes a `Double` with a fixed number of decimals, correctly rounded, without Foundation and
/// without allocating.
///
/// **Rounding.** The digits are those of the *exact* binary value of the double, rounded to
/// `decimals` places with round-half-to-even: the same digits as C's `printf("%.*f")` and so
/// Foundation's `String(format:)`. Exact ties are rare but real: 0.00390625 (1/256) lies exactly
/// halfway between 0.0039062 and 0.0039063 and is written "0.0039062". One deliberate difference
/// from `printf`, unless asked to keep it (`keepingSignOfZero`, as the command line's GeodSolve-style
/// output does): a value that rounds to zero is written without a sign ("0.0000000", never
/// "-0.0000000"). Non-finite values are written "nan", "inf" and "-inf" (they are not numbers in
/// GPX, KML or JSON; the writers never pass them).
///
/// **Algorithm.** When |x|·10^d < 2^53 (every coordinate at 7 decimals, every plausible altitude or
/// speed at 3), the product p = |x|·10^d is computed in floating point together with its exact
/// rounding error e = fma(|x|, 10^d, −p) (the "2MultFMA" error-free transformation, Ogita, Rump and
/// Oishi 2005, "Accurate sum and dot product"); comparing the exact fraction of p + e with ½ then
/// rounds without error. Larger magnitudes use exact 128-bit or multi-word integer arithmetic.
/// - Complexity: O(number of digits written).
public enum FixedDecimalFormatter {
    /// The most decimals supported; requests beyond it are clamped to it.
    public static let maximumDecimals = 17

    /// The most bytes one number can take with `decimals` places: a sign, 309 integer digits
    /// (`Double.greatestFiniteMagnitude` has 309), a point and the decimals.
    public static func maximumByteCount(decimals: Int) -> Int { 311 + clamped(decimals) }

    /// `value` written with `decimals` places (clamped to 0...17).
    /// - Parameters:
    ///   - value: the number.
    ///   - decimals: digits after the point; 0 writes no point.
    ///   - trimmingTrailingZeros: drop zeros at the end of the fraction, and the point when
    ///     nothing is left after it ("12.500" becomes "12.5", "3.000" becomes "3").
    ///   - keepingSignOfZero: write "-0.000" for -0 and for negative values that round to zero,
    ///     exactly as `printf("%.*f")` does.
    public static func string(_ value: Double, decimals: Int, trimmingTrailingZeros: Bool = false,
                              keepingSignOfZero: Bool = false) -> String {
        let capacity = maximumByteCount(decimals: decimals)
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            return write(value, decimals: decimals, trimmingTrailingZeros: trimmingTrailingZeros,
                         keepingSignOfZero: keepingSignOfZero, to: base)
        }
    }

    /// Appends `value` with `decimals` places to `output` (see `string`).
    public static func append(_ value: Double, decimals: Int, keepingSignOfZero: Bool = false, to output: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumByteCount(decimals: decimals)) { buffer in
            guard let base = buffer.baseAddress else { return }
            let count = write(value, decimals: decimals, trimmingTrailingZeros: false, keepingSignOfZero: keepingSignOfZero, to: base)
            output.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
        }
    }

    /// Writes `value` at `output`, which must have room for `maximumByteCount(decimals:)` bytes,
    /// and returns how many bytes were written.
    static func write(_ value: Double, decimals: Int, trimmingTrailingZeros: Bool, keepingSignOfZero: Bool = false,
                      to output: UnsafeMutablePointer<UInt8>) -> Int {
        guard value.isFinite else { return writeNonFinite(value, to: output) }
        let decimals = clamped(decimals)
        let magnitude = value.magnitude
        let scale = powerOfTen(decimals)
        let exactProduct = magnitude * scale
        if exactProduct < twoToThe53 {
            let scaled = roundedProduct(magnitude, scale, product: exactProduct)
            // Constant divisors for the decimals the writers use become multiplications.
            let (integer, fraction) = switch decimals {
            case 7: scaled.quotientAndRemainder(dividingBy: 10_000_000)
            case 3: scaled.quotientAndRemainder(dividingBy: 1_000)
            default: scaled.quotientAndRemainder(dividingBy: UInt64(scale))
            }
            return writeParts(negative: value.sign == .minus && (scaled != 0 || keepingSignOfZero),
                              integer: integer, fraction: fraction, decimals: decimals,
                              trimming: trimmingTrailingZeros, to: output)
        }
        return writeLarge(value, decimals: decimals, trimming: trimmingTrailingZeros, to: output)
    }

    static let twoToThe53: Double = 9_007_199_254_740_992

    /// 10^`exponent` for 0...17 (decimals are clamped to that range), exact in binary64.
    @inline(__always)
    static func powerOfTen(_ exponent: Int) -> Double { ExactPowerOfTen.value(min(max(exponent, 0), maximumDecimals)) ?? 1e17 }

    static func clamped(_ decimals: Int) -> Int { min(max(decimals, 0), maximumDecimals) }

    /// round-half-even(magnitude × scale) from the rounded product and its exact error.
    @inline(__always)
    private static func roundedProduct(_ magnitude: Double, _ scale: Double, product: Double) -> UInt64 {
        // product + error == magnitude × scale exactly (no underflow: a tiny product rounds to 0 anyway).
        let error = (-product).addingProduct(magnitude, scale)
        // 0 ≤ product < 2^53, so truncation is the floor.
        var result = UInt64(product)
        // product − floor and (product − floor) − ½ are exact; only the sign of the last sum
        // matters, and rounding never changes the sign of a sum.
        let aboveHalf = ((product - Double(result)) - 0.5) + error
        if aboveHalf > 0 || (aboveHalf == 0 && result & 1 == 1) { result += 1 }
        return result
    }

    /// Writes "[-]integer[.fraction]" where `fraction` has exactly `decimals` digits before trimming.
    static func writeParts(negative: Bool, integer: UInt64, fraction: UInt64, decimals: Int,
                           trimming: Bool, to output: UnsafeMutablePointer<UInt8>) -> Int {
        var cursor = output
        if negative {
            cursor.pointee = UInt8(ascii: "-")
            cursor += 1
        }
        cursor += writeUnsigned(integer, to: cursor)
        var digits = decimals
        var remaining = fraction
        if trimming {
            while digits > 0 && remaining % 10 == 0 {
                remaining /= 10
                digits -= 1
            }
        }
        if digits > 0 {
            cursor.pointee = UInt8(ascii: ".")
            cursor += 1
            writePadded(remaining, width: digits, to: cursor)
            cursor += digits
        }
        return cursor - output
    }

    /// Writes the decimal digits of `number` and returns how many.
    @inline(__always)
    static func writeUnsigned(_ number: UInt64, to output: UnsafeMutablePointer<UInt8>) -> Int {
        var count = 1
        var probe = number
        while probe >= 10 {
            probe /= 10
            count += 1
        }
        writePadded(number, width: count, to: output)
        return count
    }

    /// Writes the last `width` decimal digits of `number`, with leading zeros, two at a time.
    @inline(__always)
    static func writePadded(_ number: UInt64, width: Int, to output: UnsafeMutablePointer<UInt8>) {
        let pairs = digitPairs.utf8Start
        var remaining = number
        var index = width
        while index >= 2 {
            let pair = Int(remaining % 100) &* 2
            remaining /= 100
            index -= 2
            output[index] = pairs[pair]
            output[index + 1] = pairs[pair + 1]
        }
        if index == 1 { output[0] = UInt8(truncatingIfNeeded: remaining % 10) &+ UInt8(ascii: "0") }
    }

    /// "00" "01" … "99" back to back: the two digits of n are at 2n and 2n + 1.
    @inline(__always)
    static var digitPairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }

    private static func writeNonFinite(_ value: Double, to output: UnsafeMutablePointer<UInt8>) -> Int {
        let text: StaticString = value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf")
        output.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        return text.utf8CodeUnitCount
    }
}
