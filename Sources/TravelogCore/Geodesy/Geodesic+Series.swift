// The series of Karney's algorithm, to sixth order in ε and in the third flattening n.
//
// Source: C. F. F. Karney, "Algorithms for geodesics", J. Geodesy 87 (2013) 43–55:
// I₁ eqs. (15)–(18), its reversion eqs. (20)–(21), I₂ eqs. (42)–(43), I₃ eqs. (23)–(25) and the
// area integral I₄ eqs. (58)–(64). ε = (√(1+k²) − 1)/(√(1+k²) + 1), k² = e′² cos²α₀.
// scripts/derive-geodesic-series.py re-derives every coefficient below with sympy.

extension Geodesic {
    /// `A₁ − 1`, where I₁(σ) = A₁ (σ + Σ C₁ₗ sin 2lσ) gives the distance s = b I₁(σ).
    static func a1Minus1(_ ε: Double) -> Double {
        let ε² = ε * ε
        let t = ε² * (ε² * (ε² + 4) + 64) / 256  // (1 − ε) A₁ − 1
        return (t + ε) / (1 - ε)
    }

    /// The coefficients C₁ₗ of I₁.
    static func c1(_ ε: Double) -> SineSeries {
        let ε² = ε * ε
        var d = ε, c = SineSeries()
        c.c1 = d * (ε² * (6 - ε²) - 16) / 32
        d *= ε
        c.c2 = d * (ε² * (64 - 9 * ε²) - 128) / 2048
        d *= ε
        c.c3 = d * (9 * ε² - 16) / 768
        d *= ε
        c.c4 = d * (3 * ε² - 5) / 512
        d *= ε
        c.c5 = -7 * d / 1280
        d *= ε
        c.c6 = -7 * d / 2048
        return c
    }

    /// The coefficients C′₁ₗ of the reversion σ = τ + Σ C′₁ₗ sin 2lτ of τ = I₁(σ)/A₁.
    static func c1Reverted(_ ε: Double) -> SineSeries {
        let ε² = ε * ε
        var d = ε, c = SineSeries()
        c.c1 = d * (ε² * (205 * ε² - 432) + 768) / 1536
        d *= ε
        c.c2 = d * (ε² * (4005 * ε² - 4736) + 3840) / 12288
        d *= ε
        c.c3 = d * (116 - 225 * ε²) / 384
        d *= ε
        c.c4 = d * (2695 - 7173 * ε²) / 7680
        d *= ε
        c.c5 = 3467 * d / 7680
        d *= ε
        c.c6 = 38081 * d / 61440
        return c
    }

    /// `A₂ − 1`, where I₂(σ) = A₂ (σ + Σ C₂ₗ sin 2lσ) enters the reduced length.
    static func a2Minus1(_ ε: Double) -> Double {
        let ε² = ε * ε
        let t = ε² * (ε² * (-11 * ε² - 28) - 192) / 256  // (1 + ε) A₂ − 1
        return (t - ε) / (1 + ε)
    }

    /// The coefficients C₂ₗ of I₂.
    static func c2(_ ε: Double) -> SineSeries {
        let ε² = ε * ε
        var d = ε, c = SineSeries()
        c.c1 = d * (ε² * (ε² + 2) + 16) / 32
        d *= ε
        c.c2 = d * (ε² * (35 * ε² + 64) + 384) / 2048
        d *= ε
        c.c3 = d * (15 * ε² + 80) / 768
        d *= ε
        c.c4 = d * (7 * ε² + 35) / 512
        d *= ε
        c.c5 = 63 * d / 1280
        d *= ε
        c.c6 = 77 * d / 2048
        return c
    }

    /// A₃, where I₃(σ) = A₃ (σ + Σ C₃ₗ sin 2lσ) gives the longitude: λ = ω − f sin α₀ I₃(σ).
    func a3(_ ε: Double) -> Double {
        let k = a3Coefficients
        return k[0] + ε * (k[1] + ε * (k[2] + ε * (k[3] + ε * (k[4] + ε * k[5]))))
    }

    /// The coefficients C₃ₗ of I₃ (l = 1…5; the sixth is zero at this order).
    func c3(_ ε: Double) -> SineSeries {
        let k = c3Coefficients
        var d = ε, c = SineSeries()
        c.c1 = d * (k[0] + ε * (k[1] + ε * (k[2] + ε * (k[3] + ε * k[4]))))
        d *= ε
        c.c2 = d * (k[5] + ε * (k[6] + ε * (k[7] + ε * k[8])))
        d *= ε
        c.c3 = d * (k[9] + ε * (k[10] + ε * k[11]))
        d *= ε
        c.c4 = d * (k[12] + ε * k[13])
        d *= ε
        c.c5 = d * k[14]
        return c
    }

    /// The coefficients C₄ₗ of the area integral I₄(σ) = Σ C₄ₗ cos((2l+1)σ), l = 0…5.
    func c4(_ ε: Double) -> OddCosineSeries {
        let k = c4Coefficients
        var d = 1.0, c = OddCosineSeries()
        c.c0 = k[0] + ε * (k[1] + ε * (k[2] + ε * (k[3] + ε * (k[4] + ε * k[5]))))
        d *= ε
        c.c1 = d * (k[6] + ε * (k[7] + ε * (k[8] + ε * (k[9] + ε * k[10]))))
        d *= ε
        c.c2 = d * (k[11] + ε * (k[12] + ε * (k[13] + ε * k[14])))
        d *= ε
        c.c3 = d * (k[15] + ε * (k[16] + ε * k[17]))
        d *= ε
        c.c4 = d * (k[18] + ε * k[19])
        d *= ε
        c.c5 = d * k[20]
        return c
    }

    /// ε for the geodesic whose equatorial azimuth has cosine `cosα₀`.
    func epsilon(cosα0: Double) -> Double {
        let k² = cosα0 * cosα0 * secondEccentricitySquared
        return k² / (2 * (1 + (1 + k²).squareRoot()) + k²)
    }
}

/// A polynomial with rational coefficients: integer numerators (highest power first) over one
/// denominator, so that each coefficient of the series is rounded once.
struct RationalPolynomial: Sendable {
    var numerators: [Double]
    var denominator: Double

    init(_ numerators: [Double], _ denominator: Double) {
        self.numerators = numerators
        self.denominator = denominator
    }

    /// The value at `x` (Horner's rule).
    func value(at x: Double) -> Double {
        numerators.reduce(0) { $0 * x + $1 } / denominator
    }
}

extension Geodesic {
    /// The coefficient of εᵏ in A₃, k = 0…5, as a polynomial in n.
    static let a3Table: [RationalPolynomial] = [
        .init([1], 1),
        .init([1, -1], 2),
        .init([3, -1, -2], 8),
        .init([-1, -3, -1], 16),
        .init([-2, -3], 64),
        .init([-3], 128),
    ]

    /// The coefficient of εᵏ in C₃ₗ (l = 1…5, k = l…5), as polynomials in n, in that order.
    static let c3Table: [RationalPolynomial] = [
        .init([-1, 1], 4), .init([-1, 0, 1], 8), .init([-1, 3, 3], 64), .init([2, 5], 128), .init([3], 128),
        .init([1, -3, 2], 32), .init([-3, -2, 3], 64), .init([1, 3], 128), .init([5], 256),
        .init([5, -9, 5], 192), .init([-10, 9], 384), .init([7], 512),
        .init([-14, 7], 512), .init([7], 512),
        .init([21], 2560),
    ]

    /// The coefficient of εᵏ in C₄ₗ (l = 0…5, k = l…5), as polynomials in n, in that order.
    static let c4Table: [RationalPolynomial] = [
        .init([100, 208, 572, 3432, -12012, 30030], 45045),
        .init([64, 624, -4576, 6864, -3003], 15015),
        .init([-10656, 14144, -4576, -858], 45045),
        .init([-224, -4784, 1573], 45045),
        .init([1088, 156], 45045),
        .init([97], 15015),
        .init([-64, -624, 4576, -6864, 3003], 135135),
        .init([5952, -11648, 9152, -2574], 135135),
        .init([5792, 1040, -1287], 135135),
        .init([-2944, 468], 135135),
        .init([1], 9009),
        .init([-1440, 4160, -4576, 1716], 225225),
        .init([-8448, 4992, -1144], 225225),
        .init([1856, -936], 225225),
        .init([8], 10725),
        .init([3584, -3328, 1144], 315315),
        .init([1024, -208], 105105),
        .init([-136], 63063),
        .init([-2560, 832], 405405),
        .init([-128], 135135),
        .init([128], 99099),
    ]
}
