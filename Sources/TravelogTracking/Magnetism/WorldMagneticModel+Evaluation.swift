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
        let geocentricLatitude = asin(z / radius)
        let x = sin(geocentricLatitude)          // cos of the colatitude
        let s = cos(geocentricLatitude)          // sin of the colatitude
        let ratio = Self.referenceRadiusMeters / radius

        return coefficients.withUnsafeBufferPointer { terms in
          withUnsafeTemporaryAllocation(of: Double.self, capacity: 8 * (degree + 1)) { scratch in
            // Rows n-2, n-1 and n of the associated Legendre functions and their derivatives
            // (MAG_PcupLow), kept three rows at a time; each row is summed as soon as it is made
            // (MAG_Summation), so the whole triangle is never stored.
            let width = degree + 1
            var twoBack = scratch.baseAddress!, oneBack = twoBack + width, current = oneBack + width
            var dTwoBack = current + width, dOneBack = dTwoBack + width, dCurrent = dOneBack + width
            let cosM = dCurrent + width, sinM = cosM + width
            cosM[0] = 1; sinM[0] = 0
            let cosL = cos(longitude), sinL = sin(longitude)
            for m in stride(from: 1, through: degree, by: 1) {
                cosM[m] = cosM[m - 1] * cosL - sinM[m - 1] * sinL
                sinM[m] = cosM[m - 1] * sinL + sinM[m - 1] * cosL
            }
            oneBack[0] = 1; dOneBack[0] = 0  // row 0
            var bx = 0.0, by = 0.0, bz = 0.0
            var radiusPower = ratio * ratio
            for n in 1...degree {
                let row = n * (n + 1) / 2
                // m ≤ n-2: the three-term recursion with K (Schmidt-unnormalised Gauss functions).
                if n >= 2 {
                    for m in 0...(n - 2) {
                        let k = terms[row + m].recursionK
                        current[m] = x * oneBack[m] - k * twoBack[m]
                        dCurrent[m] = x * dOneBack[m] - s * oneBack[m] - k * dTwoBack[m]
                    }
                }
                // m = n-1 and m = n.
                current[n - 1] = x * oneBack[n - 1]
                dCurrent[n - 1] = x * dOneBack[n - 1] - s * oneBack[n - 1]
                current[n] = s * oneBack[n - 1]
                dCurrent[n] = s * dOneBack[n - 1] + x * oneBack[n - 1]
                // The field in the geocentric frame (derivatives with respect to latitude).
                radiusPower *= ratio
                var sumX = 0.0, sumY = 0.0, sumZ = 0.0
                for m in 0...n {
                    let term = terms[row + m]  // Schmidt-normalised
                    let g = term.g + years * term.gDot
                    let h = term.h + years * term.hDot
                    let p = current[m]
                    let cosTerm = g * cosM[m] + h * sinM[m]
                    sumZ += cosTerm * p
                    sumY += (g * sinM[m] - h * cosM[m]) * Double(m) * p
                    sumX -= cosTerm * dCurrent[m]
                }
                bz -= radiusPower * Double(n + 1) * sumZ
                by += radiusPower * sumY
                bx -= radiusPower * sumX
                (twoBack, oneBack, current) = (oneBack, current, twoBack)
                (dTwoBack, dOneBack, dCurrent) = (dOneBack, dCurrent, dTwoBack)
            }
            if abs(s) > 1e-10 {
                by /= s
            } else {
                by = poleEastComponent(sinLatitude: x, ratio: ratio, years: years, cosL: cosL, sinL: sinL)
            }
            // Rotate by ψ = geocentric - geodetic latitude (MAG_RotateMagneticVector).
            let psi = geocentricLatitude - latitude
            let north = bx * cos(psi) - bz * sin(psi)
            let down = bx * sin(psi) + bz * cos(psi)
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
