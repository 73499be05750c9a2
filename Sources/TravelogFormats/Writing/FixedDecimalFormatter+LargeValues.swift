extension FixedDecimalFormatter {
    /// The exact path for |value|·10^decimals ≥ 2^53: magnitudes of a billion or more at 7 decimals,
    /// which no coordinate and no sane measurement reaches, but which an export must still write
    /// correctly rather than crash on.
    static func writeLarge(_ value: Double, decimals: Int, trimming: Bool,
                           to output: UnsafeMutablePointer<UInt8>) -> Int {
        // |value| ≥ 2^53 / 10^17 > 0.09, so it is a normal number m · 2^exponent with m < 2^53.
        let magnitude = value.magnitude
        let significand = magnitude.significandBitPattern | (1 << 52)
        let exponent = Int(magnitude.exponent) - 52
        let negative = value.sign == .minus
        let unit = UInt64(powerOfTen(decimals))
        if exponent < 0 {
            // m · 10^d / 2^shift, rounded half to even, in 128 bits (m · 10^d < 2^103).
            let shift = -exponent
            let product = UInt128(significand) * UInt128(unit)
            var scaled = product >> shift
            let remainder = product & ((UInt128(1) << shift) - 1)
            let half = UInt128(1) << (shift - 1)
            if remainder > half || (remainder == half && scaled & 1 == 1) { scaled += 1 }
            // |value| < 2^52 here, so the integer part fits in 64 bits.
            return writeParts(negative: negative, integer: UInt64(scaled / UInt128(unit)),
                              fraction: UInt64(scaled % UInt128(unit)), decimals: decimals,
                              trimming: trimming, to: output)
        }
        // An integer (every double ≥ 2^52 is one): its digits, then a fraction of zeros.
        var cursor = output
        if negative {
            cursor.pointee = UInt8(ascii: "-")
            cursor += 1
        }
        cursor += writeInteger(significand, timesTwoToThe: exponent, to: cursor)
        if !trimming && decimals > 0 {
            cursor.pointee = UInt8(ascii: ".")
            cursor += 1
            cursor.update(repeating: UInt8(ascii: "0"), count: decimals)
            cursor += decimals
        }
        return cursor - output
    }

    /// Writes the decimal digits of `significand` · 2^`exponent` (exponent ≥ 0, up to 971) with
    /// schoolbook multiplication on base-10^9 words.
    private static func writeInteger(_ significand: UInt64, timesTwoToThe exponent: Int,
                                     to output: UnsafeMutablePointer<UInt8>) -> Int {
        let wordBase: UInt64 = 1_000_000_000
        var words: [UInt64] = []  // least significant first, each < 10^9
        var rest = significand
        repeat {
            words.append(rest % wordBase)
            rest /= wordBase
        } while rest > 0
        var remainingShift = exponent
        while remainingShift > 0 {
            let step = min(remainingShift, 28)  // a word < 2^30 times 2^28 plus a carry stays < 2^64
            var carry: UInt64 = 0
            for index in words.indices {
                let product = words[index] << step + carry
                words[index] = product % wordBase
                carry = product / wordBase
            }
            while carry > 0 {
                words.append(carry % wordBase)
                carry /= wordBase
            }
            remainingShift -= step
        }
        var cursor = output
        cursor += writeUnsigned(words[words.count - 1], to: cursor)
        for word in words.dropLast().reversed() {
            writePadded(word, width: 9, to: cursor)
            cursor += 9
        }
        return cursor - output
    }
}
