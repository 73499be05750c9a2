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
        let count = coefficients.count
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
          withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * count + 2 * (degree + 1)) { scratch in
            let legendre = scratch.baseAddress!
            let derivative = legendre + count
            let cosM = derivative + count
            let sinM = cosM + degree + 1
            // Associated Legendre functions and their derivatives (MAG_PcupLow).
            legendre[0] = 1; derivative[0] = 0
            for n in 1...degree {
                let row = n * (n + 1) / 2, previousRow = (n - 1) * n / 2
                for m in 0...n {
                    let index = row + m
                    if n == m {
                        let index1 = previousRow + m - 1
                        legendre[index] = s * legendre[index1]
                        derivative[index] = s * derivative[index1] + x * legendre[index1]
                    } else if n == 1 || m > n - 2 {
                        let index2 = previousRow + m
                        legendre[index] = x * legendre[index2]
                        derivative[index] = x * derivative[index2] - s * legendre[index2]
                    } else {
                        let index1 = (n - 2) * (n - 1) / 2 + m, index2 = previousRow + m
                        let k = terms[index].recursionK
                        legendre[index] = x * legendre[index2] - k * legendre[index1]
                        derivative[index] = x * derivative[index2] - s * legendre[index2] - k * derivative[index1]
                    }
                }
            }
            cosM[0] = 1; sinM[0] = 0
            let cosL = cos(longitude), sinL = sin(longitude)
            for m in stride(from: 1, through: degree, by: 1) {
                cosM[m] = cosM[m - 1] * cosL - sinM[m - 1] * sinL
                sinM[m] = cosM[m - 1] * sinL + sinM[m - 1] * cosL
            }
            // The field in the geocentric frame (MAG_Summation; derivatives with respect to latitude).
            var bx = 0.0, by = 0.0, bz = 0.0
            var radiusPower = ratio * ratio
            for n in 1...degree {
                radiusPower *= ratio
                let row = n * (n + 1) / 2
                var sumX = 0.0, sumY = 0.0, sumZ = 0.0
                for m in 0...n {
                    let index = row + m
                    let term = terms[index]  // Schmidt-normalised
                    let g = term.g + years * term.gDot
                    let h = term.h + years * term.hDot
                    let p = legendre[index]
                    let dp = -derivative[index]
                    let cosTerm = g * cosM[m] + h * sinM[m]
                    sumZ += cosTerm * p
                    sumY += (g * sinM[m] - h * cosM[m]) * Double(m) * p
                    sumX += cosTerm * dp
                }
                bz -= radiusPower * Double(n + 1) * sumZ
                by += radiusPower * sumY
                bx -= radiusPower * sumX
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
