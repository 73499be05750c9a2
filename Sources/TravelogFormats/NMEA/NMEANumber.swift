/// Numbers as NMEA fields write them, parsed straight from the bytes of a line.
///
/// A decimal with at most 15 significant digits and 22 decimals is computed as one division of
/// two exactly representable doubles, which IEEE 754 rounds correctly (Clinger, "How to read
/// floating point numbers accurately", 1990: the fast path); longer ones go through the standard
/// library's parser. Either way the result is the double nearest to the text.
enum NMEANumber {
    /// The largest integer below which every integer is a double (2^53).
    private static let exactIntegerLimit: UInt64 = 1 << 53

    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
    static let dot = UInt8(ascii: ".")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")

    /// A decimal number and how many digits its text had after the point.
    struct Decimal {
        var value: Double
        var fractionDigits: Int
    }

    /// Parses `[+-]digits[.digits]` (either side of the point may be empty, not both);
    /// `nil` for anything else.
    /// - Complexity: O(n) in the field's length.
    static func decimal<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Decimal? where Bytes.Index == Int {
        var index = bytes.startIndex
        var negative = false
        if index < bytes.endIndex, bytes[index] == minus || bytes[index] == plus {
            negative = bytes[index] == minus
            index += 1
        }
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var digitCount = 0
        var fractionDigits = 0
        var sawDot = false
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte >= zero && byte <= nine {
                digitCount += 1
                if sawDot { fractionDigits += 1 }
                if significantDigits > 0 || byte != zero { significantDigits += 1 }
                if significantDigits <= 19 { mantissa = mantissa &* 10 &+ UInt64(byte - zero) }
            } else if byte == dot && !sawDot {
                sawDot = true
            } else {
                return nil
            }
            index += 1
        }
        guard digitCount > 0 else { return nil }
        var value: Double
        if significantDigits <= 15, mantissa < exactIntegerLimit, let power = ExactPowerOfTen.value(fractionDigits) {
            value = Double(mantissa) / power
        } else {
            let text = String(decoding: bytes, as: UTF8.self)
            guard let parsed = Double(text), parsed.isFinite else { return nil }
            return Decimal(value: parsed, fractionDigits: fractionDigits)
        }
        if negative { value = -value }
        return Decimal(value: value, fractionDigits: fractionDigits)
    }

    /// Parses one or more ASCII digits (at most 18) as a non-negative integer; `nil` otherwise.
    static func unsignedInteger<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= zero && byte <= nine else { return nil }
            value = value * 10 + Int(byte - zero)
        }
        return value
    }

    /// Parses an optionally signed integer (`-1`, `+05`, `12`); `nil` otherwise.
    static func integer<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int? where Bytes.SubSequence: Collection<UInt8> {
        guard let first = bytes.first else { return nil }
        if first == minus { return unsignedInteger(bytes.dropFirst()).map { -$0 } }
        if first == plus { return unsignedInteger(bytes.dropFirst()) }
        return unsignedInteger(bytes)
    }
}
