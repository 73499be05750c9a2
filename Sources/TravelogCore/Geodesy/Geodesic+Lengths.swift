import Foundation

/// The value of λ12(α1) − λ12 for a trial azimuth α1, and what comes with it (Karney 2013, §4).
struct LongitudeResidual {
    /// λ12(α1) − λ12, radians.
    var residual: Double
    /// dλ12/dα1 (eq. 46), when asked for.
    var derivative: Double = .nan
    var sinα2: Double, cosα2: Double
    var σ12: Double
    var ssig1: Double, csig1: Double, ssig2: Double, csig2: Double
    var ε: Double
    /// The ellipsoidal correction λ12 − ω12 (radians): −f A3 sin α0 (σ12 + ΔI3).
    var domg12: Double
}

extension Geodesic {
    /// The distance and reduced length, divided by b, of the geodesic from σ1 to σ2 (Karney 2013,
    /// eqs. 7, 38 and 40–41); `m0` is the coefficient of the secular term of the reduced length.
    /// - Complexity: O(1).
    func lengths(ε: Double, σ12: Double, ssig1: Double, csig1: Double, dn1: Double,
                 ssig2: Double, csig2: Double, dn2: Double,
                 wantDistance: Bool, wantReducedLength: Bool) -> (distance: Double, reducedLength: Double, m0: Double) {
        var a1 = Geodesic.a1Minus1(ε), a2 = 0.0, m0 = 0.0, j12 = 0.0, distance = Double.nan
        var series1 = Geodesic.c1(ε), series2 = SineSeries()
        if wantReducedLength {
            a2 = Geodesic.a2Minus1(ε)
            series2 = Geodesic.c2(ε)
            m0 = a1 - a2
            a2 += 1
        }
        a1 += 1
        if wantDistance {
            let b1 = series1.sum(sin: ssig2, cos: csig2) - series1.sum(sin: ssig1, cos: csig1)
            distance = a1 * (σ12 + b1)
            if wantReducedLength {
                let b2 = series2.sum(sin: ssig2, cos: csig2) - series2.sum(sin: ssig1, cos: csig1)
                j12 = m0 * σ12 + (a1 * b1 - a2 * b2)
            }
        } else if wantReducedLength {
            // One series for J12 = I1 − I2 saves a summation.
            series1.c1 = a1 * series1.c1 - a2 * series2.c1
            series1.c2 = a1 * series1.c2 - a2 * series2.c2
            series1.c3 = a1 * series1.c3 - a2 * series2.c3
            series1.c4 = a1 * series1.c4 - a2 * series2.c4
            series1.c5 = a1 * series1.c5 - a2 * series2.c5
            series1.c6 = a1 * series1.c6 - a2 * series2.c6
            j12 = m0 * σ12 + (series1.sum(sin: ssig2, cos: csig2) - series1.sum(sin: ssig1, cos: csig1))
        }
        var reducedLength = Double.nan
        if wantReducedLength {
            // The parentheses keep the cancellation exact for coincident points.
            reducedLength = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        }
        return (distance, reducedLength, m0)
    }

    /// λ12(α1) − λ12 for a trial azimuth at point 1 (Karney 2013, eqs. 5–13 and 23), and its
    /// derivative when `wantDerivative`.
    /// - Complexity: O(1).
    func longitudeResidual(_ p: CanonicalEndpoints, sinα1: Double, cosα1: Double,
                           slam12: Double, clam12: Double, wantDerivative: Bool) -> LongitudeResidual {
        // An equatorial start would be degenerate; that case was handled before.
        let cosα1 = p.sinβ1 == 0 && cosα1 == 0 ? -Geodesic.tiny : cosα1
        let sinα0 = sinα1 * p.cosβ1                 // Clairaut: sin α cos β = sin α0
        let cosα0 = hypot(cosα1, sinα1 * p.sinβ1)   // > 0
        // tan β1 = tan σ1 cos α1; tan ω1 = sin α0 tan σ1.
        var ssig1 = p.sinβ1, csig1 = cosα1 * p.cosβ1
        let somg1 = sinα0 * p.sinβ1, comg1 = csig1
        normalize(&ssig1, &csig1)
        // At point 2, keep the symmetry |β2| = |β1| exact: it is a singular case for Newton.
        let sinα2 = p.cosβ2 != p.cosβ1 ? sinα0 / p.cosβ2 : sinα1
        let cosα2: Double
        if p.cosβ2 != p.cosβ1 || abs(p.sinβ2) != -p.sinβ1 {
            let d = p.cosβ1 < -p.sinβ1 ? (p.cosβ2 - p.cosβ1) * (p.cosβ1 + p.cosβ2)
                                       : (p.sinβ1 - p.sinβ2) * (p.sinβ1 + p.sinβ2)
            cosα2 = ((cosα1 * p.cosβ1) * (cosα1 * p.cosβ1) + d).squareRoot() / p.cosβ2
        } else {
            cosα2 = abs(cosα1)
        }
        var ssig2 = p.sinβ2, csig2 = cosα2 * p.cosβ2
        let somg2 = sinα0 * p.sinβ2, comg2 = csig2
        normalize(&ssig2, &csig2)
        // σ12 = σ2 − σ1 and ω12 = ω2 − ω1, both in [0, π].
        let σ12 = Foundation.atan2(Double.maximum(0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
        let somg12 = Double.maximum(0, comg1 * somg2 - somg1 * comg2) + 0
        let comg12 = comg1 * comg2 + somg1 * somg2
        // η = ω12 − λ12 (target), exactly as an angle difference.
        let η = Foundation.atan2(somg12 * clam12 - comg12 * slam12, comg12 * clam12 + somg12 * slam12)
        let ε = epsilon(cosα0: cosα0)
        let series3 = c3(ε)
        let b312 = series3.sum(sin: ssig2, cos: csig2) - series3.sum(sin: ssig1, cos: csig1)
        let domg12 = -flattening * a3(ε) * sinα0 * (σ12 + b312)
        var result = LongitudeResidual(residual: η + domg12, sinα2: sinα2, cosα2: cosα2, σ12: σ12,
                                       ssig1: ssig1, csig1: csig1, ssig2: ssig2, csig2: csig2, ε: ε, domg12: domg12)
        if wantDerivative {
            if cosα2 == 0 {
                result.derivative = -2 * oneMinusFlattening * p.dn1 / p.sinβ1
            } else {
                let m12 = lengths(ε: ε, σ12: σ12, ssig1: ssig1, csig1: csig1, dn1: p.dn1,
                                  ssig2: ssig2, csig2: csig2, dn2: p.dn2,
                                  wantDistance: false, wantReducedLength: true).reducedLength
                result.derivative = m12 * (oneMinusFlattening / (cosα2 * p.cosβ2))
            }
        }
        return result
    }

    /// Finds α1 with λ12(α1) = λ12 by Newton's method, keeping a bracket of the root and
    /// bisecting it whenever a Newton step fails (Karney 2013, §5 and the addenda). The root is
    /// unique in (0, π) and the residual increases through it.
    /// - Complexity: O(1): at most `totalIterations` evaluations; about two on average.
    func solveAzimuth(_ p: CanonicalEndpoints, start: (sin: Double, cos: Double), slam12: Double, clam12: Double,
                      wantReducedLength: Bool) -> (solution: InverseSolution, domg12: Double) {
        var sinα1 = start.sin, cosα1 = start.cos
        var sinα1a = Geodesic.tiny, cosα1a = 1.0, sinα1b = Geodesic.tiny, cosα1b = -1.0  // the bracket
        var tripNewton = false, tripBisection = false
        var iteration = 0
        var r: LongitudeResidual
        while true {
            defer { iteration += 1 }
            r = longitudeResidual(p, sinα1: sinα1, cosα1: cosα1, slam12: slam12, clam12: clam12,
                                  wantDerivative: iteration < Geodesic.newtonIterations)
            let v = r.residual
            // Written so that a NaN residual ends the loop.
            if tripBisection || !(abs(v) >= (tripNewton ? 8 : 1) * Geodesic.tolerance)
                || iteration == Geodesic.totalIterations { break }
            if v > 0 && (iteration > Geodesic.newtonIterations || cosα1 / sinα1 > cosα1b / sinα1b) {
                sinα1b = sinα1; cosα1b = cosα1
            } else if v < 0 && (iteration > Geodesic.newtonIterations || cosα1 / sinα1 < cosα1a / sinα1a) {
                sinα1a = sinα1; cosα1a = cosα1
            }
            if iteration < Geodesic.newtonIterations && r.derivative > 0 {
                let step = -v / r.derivative
                if abs(step) < .pi {
                    let sinStep = sin(step), cosStep = cos(step)
                    let newSin = sinα1 * cosStep + cosα1 * sinStep
                    if newSin > 0 {
                        cosα1 = cosα1 * cosStep - sinα1 * sinStep
                        sinα1 = newSin
                        normalize(&sinα1, &cosα1)
                        // Convergence may be only linear where the slope vanishes: test on ε, not √ε.
                        tripNewton = abs(v) <= 16 * Geodesic.tolerance
                        continue
                    }
                }
            }
            // No usable Newton step: bisect the bracket.
            sinα1 = (sinα1a + sinα1b) / 2
            cosα1 = (cosα1a + cosα1b) / 2
            normalize(&sinα1, &cosα1)
            tripNewton = false
            tripBisection = abs(sinα1a - sinα1) + (cosα1a - cosα1) < Geodesic.toleranceBisection
                || abs(sinα1 - sinα1b) + (cosα1 - cosα1b) < Geodesic.toleranceBisection
        }
        let l = lengths(ε: r.ε, σ12: r.σ12, ssig1: r.ssig1, csig1: r.csig1, dn1: p.dn1,
                        ssig2: r.ssig2, csig2: r.csig2, dn2: p.dn2,
                        wantDistance: true, wantReducedLength: wantReducedLength)
        let solution = InverseSolution(
            distanceMeters: l.distance * semiMinorAxisMeters, arcLengthDegrees: r.σ12 / DegreeArithmetic.radiansPerDegree,
            sinα1: sinα1, cosα1: cosα1, sinα2: r.sinα2, cosα2: r.cosα2,
            reducedLengthMeters: l.reducedLength * semiMinorAxisMeters)
        return (solution, r.domg12)
    }
}
