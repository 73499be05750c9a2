import Foundation

/// Angle arithmetic in degrees that keeps exact values exact: reduction into a quadrant is done in
/// degrees (where it is exact) before converting to radians, so that `sin(180°)` is 0, not 1e-16,
/// and angles differing by whole turns give identical results.
///
/// Source: C. F. F. Karney, "Algorithms for geodesics", J. Geodesy 87 (2013) 43–55, §7 (handling
/// of the end points and of round-off).
enum DegreeArithmetic {
    /// Radians in one degree.
    static let radiansPerDegree: Double = .pi / 180

    /// The sine and cosine of an angle in degrees, exact at multiples of 90°; `sin(-0°)` is -0.
    static func sinCos(_ degrees: Double) -> (sin: Double, cos: Double) {
        var quadrant: Int32 = 0
        let reduced = remquo(degrees, 90, &quadrant)  // |reduced| <= 45, exact
        return rotated(reduced * radiansPerDegree, quadrant: quadrant, signOf: degrees)
    }

    /// The sine and cosine of `degrees + correction`, where `correction` is the small error term of
    /// an exact difference (see `difference(_:_:)`); the sum is rounded like `rounded(_:)`.
    static func sinCos(_ degrees: Double, correction: Double) -> (sin: Double, cos: Double) {
        var quadrant: Int32 = 0
        let reduced = rounded(remquo(degrees, 90, &quadrant) + correction)
        return rotated(reduced * radiansPerDegree, quadrant: quadrant, signOf: degrees)
    }

    private static func rotated(_ radians: Double, quadrant: Int32, signOf degrees: Double) -> (sin: Double, cos: Double) {
        let s = sin(radians), c = cos(radians)
        var result: (sin: Double, cos: Double)
        switch quadrant & 3 {
        case 0: result = (s, c)
        case 1: result = (c, -s)
        case 2: result = (-s, -c)
        default: result = (-c, s)
        }
        result.cos += 0  // cos is never -0
        if result.sin == 0 { result.sin = Double(signOf: degrees, magnitudeOf: result.sin) }
        return result
    }

    /// `atan2(y, x)` in degrees, in [-180, 180], computed in the octant where it is most accurate.
    static func atan2(_ y: Double, _ x: Double) -> Double {
        var x = x, y = y, quadrant = 0
        if abs(y) > abs(x) { swap(&x, &y); quadrant = 2 }
        if x.sign == .minus { x = -x; quadrant += 1 }
        let angle = Foundation.atan2(y, x) / radiansPerDegree  // in [-45, 45]
        switch quadrant {
        case 1: return Double(signOf: y, magnitudeOf: 180) - angle
        case 2: return 90 - angle
        case 3: return -90 + angle
        default: return angle
        }
    }

    /// An angle wrapped into [-180, 180]; ±180 keeps the sign of the input.
    static func normalized(_ degrees: Double) -> Double {
        let wrapped = remainder(degrees, 360)
        return abs(wrapped) == 180 ? Double(signOf: degrees, magnitudeOf: 180) : wrapped
    }

    /// `to - from`, wrapped into [-180, 180], with the rounding error of the wrapped difference.
    ///
    /// `difference + error` equals the true difference (modulo 360°) exactly. A difference of
    /// 0 or ±180 takes its sign from `to - from` (or from the error), so that the two directions
    /// round a half turn stay distinguishable.
    static func difference(from: Double, to: Double) -> (difference: Double, error: Double) {
        var (d, e) = CompensatedSum.twoSum(remainder(-from, 360), remainder(to, 360))
        // Only a sum below 360 in magnitude can change here, so no second remainder is needed.
        let (d2, e2) = CompensatedSum.twoSum(remainder(d, 360), e)
        d = d2; e = e2
        if d == 0 || abs(d) == 180 {
            d = Double(signOf: e == 0 ? to - from : -e, magnitudeOf: d)
        }
        return (d, e)
    }

    /// Rounds tiny angles so that values below 1/16° keep at most about 57 fractional bits:
    /// latitudes within 1e-20° of the equator become exactly 0, which keeps the equatorial case
    /// exact. The sign (and -0) is kept.
    static func rounded(_ degrees: Double) -> Double {
        let limit = 1.0 / 16
        var y = abs(degrees)
        let w = limit - y
        if w > 0 { y = limit - w }  // not simplified away: this is the rounding
        return Double(signOf: degrees, magnitudeOf: y)
    }

    /// A latitude in [-90, 90], or NaN for anything outside.
    static func checkedLatitude(_ degrees: Double) -> Double {
        abs(degrees) > 90 ? .nan : degrees
    }
}
