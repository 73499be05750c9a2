/// The powers of ten that a binary64 double holds exactly: 10^0 … 10^22 (10^23 is not exact).
/// Number parsers and formatters use them for the fast path that needs no rounding of its own
/// (Clinger, "How to read floating point numbers accurately", 1990).
enum ExactPowerOfTen {
    /// The largest exponent with an exact power.
    static let maximumExponent = 22

    /// 10^`exponent` when it is exact in binary64 (0 ≤ exponent ≤ 22), else `nil`. A switch, so
    /// no lazily initialised table is checked on every call.
    @inline(__always)
    static func value(_ exponent: Int) -> Double? {
        switch exponent {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        case 22: 1e22
        default: nil
        }
    }
}
