import Foundation

/// The two end points of an inverse problem in Karney's canonical position, as reduced latitudes
/// β (tan β = (1 − f) tan φ) on the auxiliary sphere: point 1 has the larger |latitude| and lies
/// in the southern hemisphere, and the longitude difference is in [0, 180°].
struct CanonicalEndpoints {
    var sinβ1: Double, cosβ1: Double
    var sinβ2: Double, cosβ2: Double
    /// `√(1 + e′² sin²β)` at each point.
    var dn1: Double, dn2: Double
}

/// The solution of the inverse problem before conversion to degrees.
struct InverseSolution {
    var distanceMeters: Double
    var arcLengthDegrees: Double
    var sinα1: Double, cosα1: Double
    var sinα2: Double, cosα2: Double
    var reducedLengthMeters: Double = .nan
    var areaSquareMeters: Double = .nan
}

extension Geodesic {
    /// Solves the inverse problem (Karney 2013, §4–§5): canonical position, then the meridional,
    /// equatorial, short and general cases, then the symmetries undone.
    /// - Complexity: O(1).
    func solveInverse(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double,
                      extras: Extras) -> InverseSolution {
        // λ12 in [0, 180] with its rounding error, so that sin and cos of it are exact.
        var (lon12, lon12Error) = DegreeArithmetic.difference(from: longitude1, to: longitude2)
        var lonSign: Double = lon12.sign == .minus ? -1 : 1
        lon12 *= lonSign
        lon12Error *= lonSign
        let lam12 = lon12 * DegreeArithmetic.radiansPerDegree
        let (slam12, clam12) = DegreeArithmetic.sinCos(lon12, correction: lon12Error)
        let lon12Supplement = (180 - lon12) - lon12Error  // 180° − λ12, for the equatorial test

        var lat1 = DegreeArithmetic.rounded(DegreeArithmetic.checkedLatitude(latitude1))
        var lat2 = DegreeArithmetic.rounded(DegreeArithmetic.checkedLatitude(latitude2))
        // Point 1 has the larger |latitude| (a NaN latitude becomes point 1) and is made southern.
        let swapSign: Double = abs(lat1) < abs(lat2) || lat2.isNaN ? -1 : 1
        if swapSign < 0 {
            lonSign = -lonSign
            swap(&lat1, &lat2)
        }
        let latSign: Double = lat1.sign == .minus ? 1 : -1
        lat1 *= latSign
        lat2 *= latSign
        // Now 0 <= λ12 <= 180, -90 <= lat1 <= -0 and lat1 <= lat2 <= -lat1.

        let points = canonicalEndpoints(lat1, lat2)
        let wantReducedLength = extras.contains(.reducedLength), wantArea = extras.contains(.area)
        var s: InverseSolution
        var meridian = lat1 == -90 || slam12 == 0
        var meridional: InverseSolution?
        if meridian {
            // Both points on one meridian: the geodesic may run along it.
            meridional = meridianSolution(points, slam12: slam12, clam12: clam12)
            meridian = meridional != nil
        }
        // sin and cos of ω12, the longitude difference on the auxiliary sphere, for the area.
        var sinCosω12: (sin: Double, cos: Double)?
        if let meridional {
            s = meridional
        } else if points.sinβ1 == 0 && (flattening <= 0 || lon12Supplement >= flattening * 180) {
            // Both points on the equator, and the equator is the shortest path.
            let σ12 = lam12 / oneMinusFlattening
            s = InverseSolution(distanceMeters: semiMajorAxisMeters * lam12, arcLengthDegrees: lon12 / oneMinusFlattening,
                                sinα1: 1, cosα1: 0, sinα2: 1, cosα2: 0)
            if wantReducedLength { s.reducedLengthMeters = semiMinorAxisMeters * sin(σ12) }
            if wantArea { sinCosω12 = (sin(σ12), cos(σ12)) }
        } else {
            let start = inverseStart(points, lam12: lam12, slam12: slam12, clam12: clam12)
            if let short = start.shortLine {
                // A short line: the spherical solution with a mean radius is already exact.
                let σ12 = short.σ12, ω12 = lam12 / (oneMinusFlattening * short.dnm)
                s = InverseSolution(
                    distanceMeters: σ12 * semiMinorAxisMeters * short.dnm,
                    arcLengthDegrees: σ12 / DegreeArithmetic.radiansPerDegree,
                    sinα1: start.sinα1, cosα1: start.cosα1, sinα2: short.sinα2, cosα2: short.cosα2)
                if wantReducedLength {
                    s.reducedLengthMeters = short.dnm * short.dnm * semiMinorAxisMeters * sin(σ12 / short.dnm)
                }
                if wantArea { sinCosω12 = (sin(ω12), cos(ω12)) }
            } else {
                let solved = solveAzimuth(points, start: (start.sinα1, start.cosα1), slam12: slam12, clam12: clam12,
                                          wantReducedLength: wantReducedLength)
                s = solved.solution
                if wantArea {
                    // ω12 = λ12 − Δω12, where Δω12 is the ellipsoidal correction to the longitude.
                    let sinΔ = sin(solved.domg12), cosΔ = cos(solved.domg12)
                    sinCosω12 = (slam12 * cosΔ - clam12 * sinΔ, clam12 * cosΔ + slam12 * sinΔ)
                }
            }
        }
        s.distanceMeters += 0  // -0 becomes 0
        s.reducedLengthMeters += 0
        if wantArea {
            s.areaSquareMeters = area(points, s, meridian: meridian, sinCosω12: sinCosω12)
                * swapSign * lonSign * latSign + 0
        }

        // Undo the symmetries.
        if swapSign < 0 {
            swap(&s.sinα1, &s.sinα2)
            swap(&s.cosα1, &s.cosα2)
        }
        s.sinα1 *= swapSign * lonSign
        s.cosα1 *= swapSign * latSign
        s.sinα2 *= swapSign * lonSign
        s.cosα2 *= swapSign * latSign
        return s
    }

    /// The reduced latitudes of two canonical points, with the poles nudged off (cos β ≥ tiny) and
    /// |β2| = |β1| made exact when the computed values differ only by round-off.
    func canonicalEndpoints(_ lat1: Double, _ lat2: Double) -> CanonicalEndpoints {
        var (sinβ1, cosβ1) = DegreeArithmetic.sinCos(lat1)
        sinβ1 *= oneMinusFlattening
        normalize(&sinβ1, &cosβ1)
        cosβ1 = max(Geodesic.tiny, cosβ1)
        var (sinβ2, cosβ2) = DegreeArithmetic.sinCos(lat2)
        sinβ2 *= oneMinusFlattening
        normalize(&sinβ2, &cosβ2)
        cosβ2 = max(Geodesic.tiny, cosβ2)
        // For β1 near -90°, cosβ2 − cosβ1 measures |β1| − |β2| best; elsewhere |sinβ2| + sinβ1.
        if cosβ1 < -sinβ1 {
            if cosβ2 == cosβ1 { sinβ2 = Double(signOf: sinβ2, magnitudeOf: sinβ1) }
        } else if abs(sinβ2) == -sinβ1 {
            cosβ2 = cosβ1
        }
        let e2 = secondEccentricitySquared
        return CanonicalEndpoints(sinβ1: sinβ1, cosβ1: cosβ1, sinβ2: sinβ2, cosβ2: cosβ2,
                                  dn1: (1 + e2 * (sinβ1 * sinβ1)).squareRoot(), dn2: (1 + e2 * (sinβ2 * sinβ2)).squareRoot())
    }

    /// The meridional solution, or nil when the meridian is not the shortest path (a prolate
    /// ellipsoid near the antipode, where the reduced length turns negative).
    func meridianSolution(_ p: CanonicalEndpoints, slam12: Double, clam12: Double) -> InverseSolution? {
        // Head to the target longitude at point 1; at point 2 head north.
        let cosα1 = clam12, sinα1 = slam12
        let ssig1 = p.sinβ1, csig1 = cosα1 * p.cosβ1  // tan β = tan σ cos α
        let ssig2 = p.sinβ2, csig2 = p.cosβ2
        var σ12 = Foundation.atan2(Double.maximum(0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
        let l = lengths(ε: thirdFlattening, σ12: σ12, ssig1: ssig1, csig1: csig1, dn1: p.dn1,
                        ssig2: ssig2, csig2: csig2, dn2: p.dn2, wantDistance: true, wantReducedLength: true)
        var s12 = l.distance, m12 = l.reducedLength
        // A meridional geodesic longer than the half meridian is not the shortest when m12 < 0.
        guard σ12 < 1 || m12 >= 0 else { return nil }
        // Coincident points, and short lines whose s12 or m12 came out negative by round-off.
        if σ12 < 3 * Geodesic.tiny || (σ12 < Geodesic.tolerance && (s12 < 0 || m12 < 0)) {
            σ12 = 0; s12 = 0; m12 = 0
        }
        return InverseSolution(
            distanceMeters: s12 * semiMinorAxisMeters, arcLengthDegrees: σ12 / DegreeArithmetic.radiansPerDegree,
            sinα1: sinα1, cosα1: cosα1, sinα2: 0, cosα2: 1, reducedLengthMeters: m12 * semiMinorAxisMeters)
    }

    /// The area S12 between the geodesic and the equator in canonical position (Karney 2013,
    /// eqs. 58–62 and, for short lines, eq. 65 for the spherical excess).
    func area(_ p: CanonicalEndpoints, _ s: InverseSolution, meridian: Bool,
              sinCosω12: (sin: Double, cos: Double)?) -> Double {
        let sinα0 = s.sinα1 * p.cosβ1, cosα0 = hypot(s.cosα1, s.sinα1 * p.sinβ1)
        var area = 0.0
        if cosα0 != 0 && sinα0 != 0 {
            var ssig1 = p.sinβ1, csig1 = s.cosα1 * p.cosβ1
            var ssig2 = p.sinβ2, csig2 = s.cosα2 * p.cosβ2
            normalize(&ssig1, &csig1)
            normalize(&ssig2, &csig2)
            let series = c4(epsilon(cosα0: cosα0))
            let a4 = semiMajorAxisMeters * semiMajorAxisMeters * cosα0 * sinα0 * eccentricitySquared
            area = a4 * (series.sum(sin: ssig2, cos: csig2) - series.sum(sin: ssig1, cos: csig1))
        }  // else the geodesic is the equator or a meridian, where σ1, σ2 are indeterminate: 0
        let α12: Double
        if !meridian, let ω12 = sinCosω12, ω12.cos > -0.7071, p.sinβ2 - p.sinβ1 < 1.75 {
            // Short enough: tan(α12/2) = tan(ω12/2) (tan(β1/2) + tan(β2/2)) / (1 + tan(β1/2) tan(β2/2)).
            let domg12 = 1 + ω12.cos, dbet1 = 1 + p.cosβ1, dbet2 = 1 + p.cosβ2
            α12 = 2 * Foundation.atan2(ω12.sin * (p.sinβ1 * dbet2 + p.sinβ2 * dbet1),
                                       domg12 * (p.sinβ1 * p.sinβ2 + dbet1 * dbet2))
        } else {
            var sinα12 = s.sinα2 * s.cosα1 - s.cosα2 * s.sinα1
            var cosα12 = s.cosα2 * s.cosα1 + s.sinα2 * s.sinα1
            // α1 = ±180°, α2 = 0 must give α12 = -180° with the sign of cos α1.
            if sinα12 == 0 && cosα12 < 0 {
                sinα12 = Geodesic.tiny * s.cosα1
                cosα12 = -1
            }
            α12 = Foundation.atan2(sinα12, cosα12)
        }
        return area + authalicRadiusSquared * α12
    }
}

/// Scales (x, y) to a unit vector.
@inline(__always)
func normalize(_ x: inout Double, _ y: inout Double) {
    let r = hypot(x, y)
    x /= r
    y /= r
}
