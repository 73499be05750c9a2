/// A truncated sine series `Σₗ₌₁⁶ cₗ sin(2lσ)`, the periodic part of Karney's integrals I₁, I₂, I₃
/// and of the reversion of I₁.
///
/// Source: C. F. F. Karney, "Algorithms for geodesics", J. Geodesy 87 (2013) 43–55, eq. (54)
/// (Clenshaw summation).
struct SineSeries: Sendable {
    var c1 = 0.0, c2 = 0.0, c3 = 0.0, c4 = 0.0, c5 = 0.0, c6 = 0.0

    /// The sum at σ, given sin σ and cos σ, by Clenshaw's recurrence.
    /// - Complexity: O(1): nine multiplications and fourteen additions.
    func sum(sin: Double, cos: Double) -> Double {
        let twiceCos2σ = 2 * (cos - sin) * (cos + sin)
        var b0 = 0.0, b1 = 0.0
        b1 = twiceCos2σ * b0 - b1 + c6
        b0 = twiceCos2σ * b1 - b0 + c5
        b1 = twiceCos2σ * b0 - b1 + c4
        b0 = twiceCos2σ * b1 - b0 + c3
        b1 = twiceCos2σ * b0 - b1 + c2
        b0 = twiceCos2σ * b1 - b0 + c1
        return 2 * sin * cos * b0  // sin(2σ) b0
    }
}

/// A truncated series of odd cosines `Σₗ₌₀⁵ cₗ cos((2l+1)σ)`: Karney's area integral I₄.
///
/// Source: Karney (2013), eqs. (60)–(62) and (54).
struct OddCosineSeries: Sendable {
    var c0 = 0.0, c1 = 0.0, c2 = 0.0, c3 = 0.0, c4 = 0.0, c5 = 0.0

    /// The sum at σ, given sin σ and cos σ, by Clenshaw's recurrence.
    /// - Complexity: O(1).
    func sum(sin: Double, cos: Double) -> Double {
        let twiceCos2σ = 2 * (cos - sin) * (cos + sin)
        var b0 = 0.0, b1 = 0.0
        b1 = twiceCos2σ * b0 - b1 + c5
        b0 = twiceCos2σ * b1 - b0 + c4
        b1 = twiceCos2σ * b0 - b1 + c3
        b0 = twiceCos2σ * b1 - b0 + c2
        b1 = twiceCos2σ * b0 - b1 + c1
        b0 = twiceCos2σ * b1 - b0 + c0
        return cos * (b0 - b1)
    }
}
