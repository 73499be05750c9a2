import Foundation
import TravelogCore

extension WorldMagneticModel {
    /// The lowest and highest heights the model is defined for, in metres above the ellipsoid.
    public static let heightRangeMeters: ClosedRange<Double> = -1_000...850_000

    /// The field at a place and time.
    /// - Parameters:
    ///   - latitudeDegrees: geodetic (WGS84) latitude, -90...90.
    ///   - longitudeDegrees: longitude, any range.
    ///   - heightMeters: height above the WGS84 ellipsoid, in metres (-1 km to 850 km).
    ///   - decimalYear: the date as a decimal year (see `DecimalYear`).
    /// - Throws: `WorldMagneticModelError.dateOutsideModel` or `.heightOutsideModel`.
    /// - Complexity: O(N²) for degree N (91 coefficients for the WMM), no allocation, no bounds checks
    ///   in the sums.
    public func field(latitudeDegrees: Double, longitudeDegrees: Double, heightMeters: Double = 0,
                      decimalYear: Double) throws(WorldMagneticModelError) -> MagneticFieldElements {
        guard validYears.contains(decimalYear) else { throw .dateOutsideModel(decimalYear: decimalYear, valid: validYears) }
        guard Self.heightRangeMeters.contains(heightMeters) else { throw .heightOutsideModel(meters: heightMeters) }
        return unvalidatedField(latitudeDegrees: latitudeDegrees, longitudeDegrees: longitudeDegrees,
                                heightMeters: heightMeters, decimalYear: decimalYear)
    }

    /// The declination (degrees east of true north) at a place and time: what to add to a
    /// magnetic heading to get the true heading.
    public func declinationDegrees(latitudeDegrees: Double, longitudeDegrees: Double, heightMeters: Double = 0,
                                   decimalYear: Double) throws(WorldMagneticModelError) -> Double {
        try field(latitudeDegrees: latitudeDegrees, longitudeDegrees: longitudeDegrees,
                  heightMeters: heightMeters, decimalYear: decimalYear).declinationDegrees
    }

    /// The field without checking the date and height (the recursion of NOAA's `MAG_PcupLow` and
    /// `MAG_Summation`, then the rotation from the geocentric to the geodetic frame).
    func unvalidatedField(latitudeDegrees: Double, longitudeDegrees: Double, heightMeters: Double,
                          decimalYear: Double) -> MagneticFieldElements {
        let degree = maximumDegree
        let years = decimalYear - epochYear
        // Geodetic to geocentric spherical coordinates (WMM report, equation 7).
        let latitude = latitudeDegrees * .pi / 180
        let longitude = longitudeDegrees * .pi / 180
        let sinLatitude = sin(latitude), cosLatitude = cos(latitude)
        let a = WGS84.semiMajorAxisMeters, e2 = WGS84.eccentricitySquared
        let primeVerticalRadius = a / (1 - e2 * sinLatitude * sinLatitude).squareRoot()
        let p = (primeVerticalRadius + heightMeters) * cosLatitude
        let z = (primeVerticalRadius * (1 - e2) + heightMeters) * sinLatitude
        let radius = (p * p + z * z).squareRoot()
        let x = z / radius          // sin of the geocentric latitude, cos of the colatitude
        let s = p / radius          // cos of the geocentric latitude, sin of the colatitude
        let ratio = Self.referenceRadiusMeters / radius

        return coefficients.withUnsafeBufferPointer { terms in
          withUnsafeTemporaryAllocation(of: SIMD2<Double>.self, capacity: 4 * (degree + 1)) { scratch in
            // Rows n-2, n-1 and n of the associated Legendre functions beside their derivatives,
            // (P, dP) pairs (MAG_PcupLow), kept three rows at a time; each row is summed as soon
            // as it is made (MAG_Summation), so the whole triangle is never stored.
            let width = degree + 1
            var twoBack = scratch.baseAddress!, oneBack = twoBack + width, current = oneBack + width
            let cosSinM = current + width  // (cos mλ, sin mλ)
            cosSinM[0] = SIMD2(1, 0)
            let cosL = cos(longitude), sinL = sin(longitude)
            for m in stride(from: 1, through: degree, by: 1) {
                let previous = cosSinM[m &- 1]
                cosSinM[m] = SIMD2(previous.x * cosL - previous.y * sinL, previous.x * sinL + previous.y * cosL)
            }
            oneBack[0] = SIMD2(1, 0)  // row 0
            var bx = 0.0, by = 0.0, bz = 0.0
            var radiusPower = ratio * ratio
            for n in 1...degree {
                let row = n &* (n &+ 1) / 2
                // m ≤ n-2: the three-term recursion with K (Schmidt-unnormalised Gauss functions).
                var m = 0
                while m < n &- 1 {
                    let k = terms[row &+ m].recursionK
                    let one = oneBack[m]
                    current[m] = x * one - k * twoBack[m] - SIMD2(0, s * one.x)
                    m &+= 1
                }
                // m = n-1 and m = n.
                let last = oneBack[n &- 1]
                current[n &- 1] = x * last - SIMD2(0, s * last.x)
                current[n] = s * last + SIMD2(0, x * last.x)
                // The field in the geocentric frame (derivatives with respect to latitude).
                radiusPower *= ratio
                var sumZX = SIMD2<Double>(0, 0), sumY = 0.0, mDouble = 0.0
                for m in 0...n {
                    let term = terms[row &+ m]  // Schmidt-normalised
                    let g = term.g + years * term.gDot
                    let h = term.h + years * term.hDot
                    let cs = cosSinM[m], pair = current[m]
                    let cosTerm = g * cs.x + h * cs.y
                    sumZX += cosTerm * pair
                    sumY += (g * cs.y - h * cs.x) * mDouble * pair.x
                    mDouble += 1
                }
                bz -= radiusPower * Double(n &+ 1) * sumZX.x
                by += radiusPower * sumY
                bx += radiusPower * sumZX.y
                (twoBack, oneBack, current) = (oneBack, current, twoBack)
            }
            if abs(s) > 1e-10 {
                by /= s
            } else {
                by = poleEastComponent(sinLatitude: x, ratio: ratio, years: years, cosL: cosL, sinL: sinL)
            }
            // Rotate by ψ = geocentric - geodetic latitude (MAG_RotateMagneticVector), its sine
            // and cosine from those of the two latitudes (no trigonometric call).
            let sinPsi = x * cosLatitude - s * sinLatitude
            let cosPsi = s * cosLatitude + x * sinLatitude
            let north = bx * cosPsi - bz * sinPsi
            let down = bx * sinPsi + bz * cosPsi
            return MagneticFieldElements(northNanotesla: north, eastNanotesla: by, downNanotesla: down)
          }
        }
    }

    /// The east component at a geographic pole, where the general sum divides by zero
    /// (NOAA's `MAG_SummationSpecial`).
    private func poleEastComponent(sinLatitude: Double, ratio: Double, years: Double, cosL: Double, sinL: Double) -> Double {
        var previous = 1.0, beforePrevious = 0.0
        var norm1 = 1.0
        var by = 0.0
        var radiusPower = ratio * ratio
        for n in 1...maximumDegree {
            radiusPower *= ratio
            let index = n * (n + 1) / 2 + 1
            let norm2 = norm1 * Double(2 * n - 1) / Double(n)
            let norm3 = norm2 * (Double(n * 2) / Double(n + 1)).squareRoot()
            norm1 = norm2
            let current: Double
            if n == 1 {
                current = previous
            } else {
                let k = Double((n - 1) * (n - 1) - 1) / Double((2 * n - 1) * (2 * n - 3))
                current = sinLatitude * previous - k * beforePrevious
            }
            beforePrevious = previous
            previous = current
            let term = coefficients[index]  // back to the plain coefficients: this sum has its own norm
            let g = (term.g + years * term.gDot) / term.schmidt
            let h = (term.h + years * term.hDot) / term.schmidt
            by += radiusPower * (g * sinL - h * cosL) * current * norm3
        }
        return by
    }
}
