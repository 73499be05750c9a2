import Foundation

/// The starting azimuth for Newton's method, or the whole solution for a short line.
struct InverseStart {
    /// The short-line solution (Karney 2013, eqs. 48–51); nil when Newton's method is needed.
    struct ShortLine {
        var σ12: Double
        var sinα2: Double, cosα2: Double
        /// `√(1 + e′² sin²βm)` at the mean reduced latitude.
        var dnm: Double
    }

    var sinα1: Double, cosα1: Double
    var shortLine: ShortLine?
}

extension Geodesic {
    /// A first estimate of α1: the great-circle azimuth on a sphere of suitable radius, or for nearly
    /// antipodal points the solution of the astroid equation (Karney 2013, §5, eqs. 48–57).
    /// - Complexity: O(1).
    func inverseStart(_ p: CanonicalEndpoints, lam12: Double, slam12: Double, clam12: Double) -> InverseStart {
        // β12 = β2 − β1 in [0, π); β12a = β2 + β1 in (−π, 0].
        let sinβ12 = p.sinβ2 * p.cosβ1 - p.cosβ2 * p.sinβ1
        let cosβ12 = p.cosβ2 * p.cosβ1 + p.sinβ2 * p.sinβ1
        let sinβ12a = p.sinβ2 * p.cosβ1 + p.cosβ2 * p.sinβ1
        let isShort = cosβ12 >= 0 && sinβ12 < 0.5 && p.cosβ2 * lam12 < 0.5
        var somg12 = slam12, comg12 = clam12, dnm = 1.0
        if isShort {
            // sin²((β1 + β2)/2) = (sinβ1 + sinβ2)² / ((sinβ1 + sinβ2)² + (cosβ1 + cosβ2)²)
            var sinβm2 = (p.sinβ1 + p.sinβ2) * (p.sinβ1 + p.sinβ2)
            sinβm2 /= sinβm2 + (p.cosβ1 + p.cosβ2) * (p.cosβ1 + p.cosβ2)
            dnm = (1 + secondEccentricitySquared * sinβm2).squareRoot()
            let ω12 = lam12 / (oneMinusFlattening * dnm)
            somg12 = sin(ω12)
            comg12 = cos(ω12)
        }
        var sinα1 = p.cosβ2 * somg12
        var cosα1 = comg12 >= 0
            ? sinβ12 + p.cosβ2 * p.sinβ1 * (somg12 * somg12) / (1 + comg12)
            : sinβ12a - p.cosβ2 * p.sinβ1 * (somg12 * somg12) / (1 - comg12)
        let ssig12 = hypot(sinα1, cosα1)
        let csig12 = p.sinβ1 * p.sinβ2 + p.cosβ1 * p.cosβ2 * comg12
        var shortLine: InverseStart.ShortLine?

        if isShort && ssig12 < shortLineTolerance {
            // Really short: the spherical solution is exact to round-off.
            var sinα2 = p.cosβ1 * somg12
            var cosα2 = sinβ12 - p.cosβ1 * p.sinβ2 * (comg12 >= 0 ? somg12 * somg12 / (1 + comg12) : 1 - comg12)
            normalize(&sinα2, &cosα2)
            shortLine = .init(σ12: Foundation.atan2(ssig12, csig12), sinα2: sinα2, cosα2: cosα2, dnm: dnm)
        } else if abs(thirdFlattening) > 0.1 || csig12 >= 0
                    || ssig12 >= 6 * abs(thirdFlattening) * .pi * (p.cosβ1 * p.cosβ1) {
            // Not nearly antipodal (or too eccentric for the astroid): the spherical estimate will do.
        } else {
            // Nearly antipodal: scale to coordinates (x, y) centred on the antipode, in which the
            // singular point is (−1, 0), and solve the astroid problem there.
            let lam12x = Foundation.atan2(-slam12, -clam12)  // λ12 − π
            let x, y, lamScale: Double
            if flattening >= 0 {  // oblate: x is along longitude, y along latitude
                let ε = epsilon(cosα0: p.sinβ1)  // k² = e′² sin²β1 for α0 at the vertex through point 1
                lamScale = flattening * p.cosβ1 * a3(ε) * .pi
                let betScale = lamScale * p.cosβ1
                x = lam12x / lamScale
                y = sinβ12a / betScale
            } else {              // prolate: the roles swap
                let cosβ12a = p.cosβ2 * p.cosβ1 - p.sinβ2 * p.sinβ1
                let β12a = Foundation.atan2(sinβ12a, cosβ12a)
                let l = lengths(ε: thirdFlattening, σ12: .pi + β12a, ssig1: p.sinβ1, csig1: -p.cosβ1, dn1: p.dn1,
                                ssig2: p.sinβ2, csig2: p.cosβ2, dn2: p.dn2, wantDistance: false, wantReducedLength: true)
                x = -1 + l.reducedLength / (p.cosβ1 * p.cosβ2 * l.m0 * .pi)
                let betScale = x < -0.01 ? sinβ12a / x : -flattening * (p.cosβ1 * p.cosβ1) * .pi
                lamScale = betScale / p.cosβ1
                y = lam12x / lamScale
            }
            if y > -Geodesic.toleranceLoose && x > -1 - Geodesic.astroidThreshold {
                // Strip near the cut: the astroid solution degenerates; use its limit.
                if flattening >= 0 {
                    sinα1 = min(1, -x)
                    cosα1 = -(1 - sinα1 * sinα1).squareRoot()
                } else {
                    cosα1 = max(x > -Geodesic.toleranceLoose ? 0 : -1, x)
                    sinα1 = (1 - cosα1 * cosα1).squareRoot()
                }
            } else {
                // Estimate ω12 from the astroid, then α1 from the spherical formula with it
                // (fewer Newton steps than taking α1 from the astroid directly).
                let k = Geodesic.astroid(x, y)
                let omg12a = lamScale * (flattening >= 0 ? -x * k / (1 + k) : -y * (1 + k) / k)  // π − ω12
                somg12 = sin(omg12a)
                comg12 = -cos(omg12a)
                sinα1 = p.cosβ2 * somg12
                cosα1 = sinβ12a - p.cosβ2 * p.sinβ1 * (somg12 * somg12) / (1 - comg12)
            }
        }
        // Sanity check, written so that a NaN passes through.
        if !(sinα1 <= 0) {
            normalize(&sinα1, &cosα1)
        } else {
            sinα1 = 1
            cosα1 = 0
        }
        return InverseStart(sinα1: sinα1, cosα1: cosα1, shortLine: shortLine)
    }

    /// The positive root k of the astroid equation k⁴ + 2k³ − (x² + y² − 1)k² − 2y²k − y² = 0
    /// (Karney 2013, eq. 55), solved in closed form as a quartic.
    /// - Complexity: O(1).
    static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = x * x, q = y * y, r = (p + q - 1) / 6
        // y = 0 with |x| <= 1: the root is 0.
        guard !(q == 0 && r <= 0) else { return 0 }
        // Multiplied through by r³ and r to avoid dividing by r = 0.
        let s = p * q / 4             // r³ s
        let r2 = r * r, r3 = r * r2
        let discriminant = s * (s + 2 * r3)  // zero on the evolute p^(1/3) + q^(1/3) = 1
        var u = r
        if discriminant >= 0 {
            var t3 = s + r3
            // Take the root of larger magnitude to avoid cancellation; u does not change.
            t3 += t3 < 0 ? -discriminant.squareRoot() : discriminant.squareRoot()  // (r t)³
            let t = cbrt(t3)          // real cube root
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            // Three real roots; take the one without cancellation. Here r < 0.
            let angle = Foundation.atan2((-discriminant).squareRoot(), -(s + r3))
            u += 2 * r * cos(angle / 3)
        }
        let v = (u * u + q).squareRoot()           // > 0
        let uv = u < 0 ? q / (v - u) : u + v        // u + v without cancellation, > 0
        let w = (uv - q) / (2 * v)                 // >= 0
        return uv / ((uv + w * w).squareRoot() + w)  // > 0
    }
}
