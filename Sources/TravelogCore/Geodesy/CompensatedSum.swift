import Foundation

/// A running sum kept as an unevaluated pair `high + low` of doubles (about 106 bits), so that
/// adding many terms of different sizes loses nothing but the final rounding.
///
/// Used for polygon areas, where the edge contributions are up to 10¹⁴ m² and their sum may be a
/// few square metres. Source: J. R. Shewchuk, "Adaptive precision floating-point arithmetic and
/// fast robust geometric predicates", Discrete Comput. Geom. 18 (1997) 305–363.
struct CompensatedSum: Sendable, Equatable {
    /// The rounded value of the sum.
    private(set) var high: Double = 0
    /// The rest of the sum, much smaller than `high`.
    private(set) var low: Double = 0

    init(_ value: Double = 0) { high = value }

    /// The sum rounded to a double.
    var value: Double { high }

    /// `u + v` rounded, and the exact rounding error, so that `sum + error == u + v` exactly
    /// (Knuth's branch-free two-sum). The error of a zero sum is a zero of the same sign.
    static func twoSum(_ u: Double, _ v: Double) -> (sum: Double, error: Double) {
        let s = u + v
        var up = s - v, vpp = s - up
        up -= u
        vpp -= v
        return (s, s != 0 ? 0 - (up + vpp) : s)
    }

    /// Adds `term` exactly (up to the 106-bit width of the pair).
    /// - Complexity: O(1).
    mutating func add(_ term: Double) {
        let (partial, smallest) = CompensatedSum.twoSum(term, low)
        (high, low) = CompensatedSum.twoSum(partial, high)
        // high, low, smallest are non-overlapping and decreasing; fold the smallest into low.
        if high == 0 { high = smallest } else { low += smallest }
    }

    /// The sum with `term` added, leaving this one unchanged.
    func adding(_ term: Double) -> CompensatedSum {
        var copy = self
        copy.add(term)
        return copy
    }

    /// Reduces the sum to `remainder(sum, modulus)`, i.e. into [-modulus/2, modulus/2].
    mutating func formRemainder(dividingBy modulus: Double) {
        high = remainder(high, modulus)
        add(0)  // renormalise the pair
    }

    mutating func negate() {
        high = -high
        low = -low
    }
}
