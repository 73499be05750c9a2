import Foundation

/// A geodesic given by a starting point and azimuth, with everything that does not depend on the
/// distance precomputed: the direct problem for any number of distances along one line.
///
/// Source: C. F. F. Karney, "Algorithms for geodesics", J. Geodesy 87 (2013) 43–55, §3 (the
/// direct problem, eqs. 5–21), eqs. (38)–(41) for the reduced length and (58)–(62) for the area.
struct GeodesicLine {
    let geodesic: Geodesic
    let extras: Geodesic.Extras
    let longitude1: Double
    /// sin α1, cos α1 of the (rounded) starting azimuth.
    let sinα1: Double, cosα1: Double
    /// The azimuth at the equator crossing: sin α0 = sin α1 cos β1.
    let sinα0: Double, cosα0: Double
    /// σ1 (arc from the northward equator crossing) and ω1 (its longitude on the auxiliary sphere).
    let ssig1: Double, csig1: Double, somg1: Double, comg1: Double
    let dn1: Double
    /// k² = e′² cos² α0.
    let k2: Double
    let a1Minus1: Double
    let series1: SineSeries, series1Reverted: SineSeries
    /// B11 = I1(σ1)/A1 − σ1 (the periodic part of I1 at σ1), and τ1 = σ1 + B11.
    let b11: Double, stau1: Double, ctau1: Double
    /// −f sin α0 A3, and the periodic part of I3 at σ1.
    let a3c: Double, series3: SineSeries, b31: Double
    let a2Minus1: Double, series2: SineSeries, b21: Double
    let a4: Double, series4: OddCosineSeries, b41: Double

    /// The line from (latitude1, longitude1) with azimuth azimuth1, all in degrees.
    init(_ geodesic: Geodesic, latitude1: Double, longitude1: Double, azimuth1: Double, extras: Geodesic.Extras) {
        self.geodesic = geodesic
        self.extras = extras
        self.longitude1 = longitude1
        // Rounding the azimuth keeps sin α1 from underflowing to a tiny non-zero and turns -0 into 0.
        (sinα1, cosα1) = DegreeArithmetic.sinCos(DegreeArithmetic.rounded(DegreeArithmetic.normalized(azimuth1)))
        var (sinβ1, cosβ1) = DegreeArithmetic.sinCos(
            DegreeArithmetic.rounded(DegreeArithmetic.checkedLatitude(latitude1)))
        sinβ1 *= geodesic.oneMinusFlattening
        normalize(&sinβ1, &cosβ1)
        cosβ1 = max(Geodesic.tiny, cosβ1)  // a pole is approached, never reached
        dn1 = (1 + geodesic.secondEccentricitySquared * (sinβ1 * sinβ1)).squareRoot()
        sinα0 = sinα1 * cosβ1               // α0 in [0, π/2 − |β1|]
        cosα0 = hypot(cosα1, sinα1 * sinβ1)
        // tan β1 = tan σ1 cos α1 and tan ω1 = sin α0 tan σ1, with σ = 0 at the northward equator
        // crossing; on the equator heading east, σ1 = 0.
        var s1 = sinβ1, c1 = sinβ1 != 0 || cosα1 != 0 ? cosβ1 * cosα1 : 1
        somg1 = sinα0 * sinβ1
        comg1 = c1
        normalize(&s1, &c1)
        ssig1 = s1
        csig1 = c1

        k2 = cosα0 * cosα0 * geodesic.secondEccentricitySquared
        let ε = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
        a1Minus1 = Geodesic.a1Minus1(ε)
        series1 = Geodesic.c1(ε)
        series1Reverted = Geodesic.c1Reverted(ε)
        b11 = series1.sum(sin: ssig1, cos: csig1)
        let sinB = sin(b11), cosB = cos(b11)
        stau1 = ssig1 * cosB + csig1 * sinB  // τ1 = σ1 + B11
        ctau1 = csig1 * cosB - ssig1 * sinB
        series3 = geodesic.c3(ε)
        a3c = -geodesic.flattening * sinα0 * geodesic.a3(ε)
        b31 = series3.sum(sin: ssig1, cos: csig1)
        if extras.contains(.reducedLength) {
            a2Minus1 = Geodesic.a2Minus1(ε)
            series2 = Geodesic.c2(ε)
            b21 = series2.sum(sin: ssig1, cos: csig1)
        } else {
            a2Minus1 = 0; series2 = SineSeries(); b21 = 0
        }
        if extras.contains(.area) {
            series4 = geodesic.c4(ε)
            a4 = geodesic.semiMajorAxisMeters * geodesic.semiMajorAxisMeters * cosα0 * sinα0 * geodesic.eccentricitySquared
            b41 = series4.sum(sin: ssig1, cos: csig1)
        } else {
            series4 = OddCosineSeries(); a4 = 0; b41 = 0
        }
    }

    /// The point at `distanceMeters` along the line (negative goes backwards).
    /// - Complexity: O(1).
    func position(distanceMeters s12: Double) -> Geodesic.Direct {
        let b = geodesic.semiMinorAxisMeters
        // τ12 = s12 / (b A1); revert τ2 = τ1 + τ12 to σ2 with the series C′1.
        let tau12 = s12 / (b * (1 + a1Minus1))
        let s = sin(tau12), c = cos(tau12)
        var b12 = -series1Reverted.sum(sin: stau1 * c + ctau1 * s, cos: ctau1 * c - stau1 * s)
        var σ12 = tau12 - (b12 - b11)
        var ssig12 = sin(σ12), csig12 = cos(σ12)
        if abs(geodesic.flattening) > 0.01 {
            // The reverted series loses accuracy beyond |f| = 1/100: one Newton step on s(σ) fixes it.
            let ssig2 = ssig1 * csig12 + csig1 * ssig12, csig2 = csig1 * csig12 - ssig1 * ssig12
            b12 = series1.sum(sin: ssig2, cos: csig2)
            let error = (1 + a1Minus1) * (σ12 + (b12 - b11)) - s12 / b
            σ12 -= error / (1 + k2 * (ssig2 * ssig2)).squareRoot()
            ssig12 = sin(σ12)
            csig12 = cos(σ12)
        }
        // σ2 = σ1 + σ12
        let ssig2 = ssig1 * csig12 + csig1 * ssig12
        var csig2 = csig1 * csig12 - ssig1 * ssig12
        let dn2 = (1 + k2 * (ssig2 * ssig2)).squareRoot()
        let sinβ2 = cosα0 * ssig2           // sin β2 = cos α0 sin σ2
        var cosβ2 = hypot(sinα0, cosα0 * csig2)
        if cosβ2 == 0 { cosβ2 = Geodesic.tiny; csig2 = Geodesic.tiny }  // a meridian through a pole
        let sinα2 = sinα0, cosα2 = cosα0 * csig2  // tan α0 = cos σ2 tan α2; no need to normalise

        // Longitude: tan ω2 = sin α0 tan σ2, λ12 = ω12 − f sin α0 A3 (σ12 + ΔI3).
        let somg2 = sinα0 * ssig2, comg2 = csig2
        let omg12 = Foundation.atan2(somg2 * comg1 - comg2 * somg1, comg2 * comg1 + somg2 * somg1)
        let lam12 = omg12 + a3c * (σ12 + (series3.sum(sin: ssig2, cos: csig2) - b31))
        let lon12 = lam12 / DegreeArithmetic.radiansPerDegree
        var result = Geodesic.Direct(
            latitude: DegreeArithmetic.atan2(sinβ2, geodesic.oneMinusFlattening * cosβ2),
            longitude: DegreeArithmetic.normalized(
                DegreeArithmetic.normalized(longitude1) + DegreeArithmetic.normalized(lon12)),
            finalAzimuthDegrees: DegreeArithmetic.atan2(sinα2, cosα2),
            arcLengthDegrees: σ12 / DegreeArithmetic.radiansPerDegree)

        if extras.contains(.reducedLength) {
            let ab1 = (1 + a1Minus1) * (series1.sum(sin: ssig2, cos: csig2) - b11)
            let ab2 = (1 + a2Minus1) * (series2.sum(sin: ssig2, cos: csig2) - b21)
            let j12 = (a1Minus1 - a2Minus1) * σ12 + (ab1 - ab2)
            // The parentheses keep the cancellation exact for coincident points.
            result.reducedLengthMeters = b * ((dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2)) - csig1 * csig2 * j12)
        }
        if extras.contains(.area) {
            let sinα12, cosα12: Double
            if cosα0 == 0 || sinα0 == 0 {
                // α12 = α2 − α1 directly (signed zeros give the right answer on meridians).
                sinα12 = sinα2 * cosα1 - cosα2 * sinα1
                cosα12 = cosα2 * cosα1 + sinα2 * sinα1
            } else {
                // tan(α2 − α1) = cos α0 sin α0 (cos σ1 − cos σ2) / (sin² α0 + cos² α0 cos σ1 cos σ2),
                // with cos σ1 − cos σ2 rewritten to avoid cancellation.
                sinα12 = cosα0 * sinα0 * (csig12 <= 0 ? csig1 * (1 - csig12) + ssig12 * ssig1
                                                      : ssig12 * (csig1 * ssig12 / (1 + csig12) + ssig1))
                cosα12 = sinα0 * sinα0 + cosα0 * cosα0 * csig1 * csig2
            }
            result.areaSquareMeters = geodesic.authalicRadiusSquared * Foundation.atan2(sinα12, cosα12)
                + a4 * (series4.sum(sin: ssig2, cos: csig2) - b41)
        }
        return result
    }
}
