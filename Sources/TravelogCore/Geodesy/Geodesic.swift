import Foundation

/// Geodesics on an ellipsoid of revolution: the shortest paths, their lengths and azimuths, the
/// point reached along one, and the area between one and the equator.
///
/// Implements C. F. F. Karney, "Algorithms for geodesics", J. Geodesy 87 (2013) 43–55
/// (https://doi.org/10.1007/s00190-012-0578-z), with the series to sixth order in the third
/// flattening as GeographicLib uses them. On WGS84 the results are accurate to round-off: about
/// 15 nanometres in distance and 1e-15° in angle, for every pair of points, including nearly
/// antipodal ones, the poles, the equator and coincident points. The solution of the inverse
/// problem always converges (Newton's method with a bisection fallback, started from the
/// astroid solution for nearly antipodal points).
///
/// The accuracy holds for |f| ≤ 1/50; flatter or more prolate ellipsoids are accepted with a
/// slowly growing error.
public struct Geodesic: Sendable {
    /// The equatorial radius `a`, in metres.
    public let semiMajorAxisMeters: Double
    /// The flattening `f = (a − b)/a`; negative for a prolate ellipsoid, 0 for a sphere.
    public let flattening: Double

    // Derived once per ellipsoid (Karney 2013, §2).
    /// `1 − f`.
    let oneMinusFlattening: Double
    /// `e² = f(2 − f)`.
    let eccentricitySquared: Double
    /// `e′² = e²/(1 − f)²`.
    let secondEccentricitySquared: Double
    /// The third flattening `n = f/(2 − f)`.
    let thirdFlattening: Double
    /// The polar radius `b = a(1 − f)`, in metres.
    let semiMinorAxisMeters: Double
    /// The square of the authalic radius `c²`, in m²: the ellipsoid's area is 4πc².
    let authalicRadiusSquared: Double
    /// Below this σ₁₂ the inverse problem uses the short-line solution (Karney 2013, eq. 45).
    let shortLineTolerance: Double
    /// The series coefficients with n substituted (see `Geodesic+Series.swift`).
    let a3Coefficients: SIMD8<Double>
    let c3Coefficients: SIMD16<Double>
    let c4Coefficients: SIMD32<Double>

    /// Creates the geodesic calculator for an ellipsoid.
    /// - Parameters:
    ///   - semiMajorAxisMeters: the equatorial radius `a`, metres; finite and positive.
    ///   - flattening: `f`, finite and less than 1 (0 is a sphere, negative a prolate ellipsoid).
    /// - Precondition: the parameters describe an ellipsoid (a programming error otherwise).
    public init(semiMajorAxisMeters: Double, flattening: Double) {
        precondition(semiMajorAxisMeters.isFinite && semiMajorAxisMeters > 0, "equatorial radius must be finite and positive")
        precondition(flattening.isFinite && flattening < 1, "flattening must be finite and less than 1")
        self.semiMajorAxisMeters = semiMajorAxisMeters
        self.flattening = flattening
        let f = flattening, a = semiMajorAxisMeters
        oneMinusFlattening = 1 - f
        eccentricitySquared = f * (2 - f)
        secondEccentricitySquared = eccentricitySquared / (oneMinusFlattening * oneMinusFlattening)
        thirdFlattening = f / (2 - f)
        semiMinorAxisMeters = a * oneMinusFlattening
        let e2 = eccentricitySquared, e = abs(e2).squareRoot()
        // ∫ over the ellipsoid: c² = (a² + b² atanh(e)/e)/2 (atan for a prolate one).
        let ratio = e2 == 0 ? 1 : (e2 > 0 ? atanh(e) / e : atan(e) / e)
        authalicRadiusSquared = (a * a + semiMinorAxisMeters * semiMinorAxisMeters * ratio) / 2
        shortLineTolerance = 0.1 * Geodesic.toleranceSqrt
            / (max(0.001, abs(f)) * min(1, 1 - f / 2) / 2).squareRoot()
        let n = thirdFlattening
        var a3 = SIMD8<Double>(), c3 = SIMD16<Double>(), c4 = SIMD32<Double>()
        for (i, p) in Geodesic.a3Table.enumerated() { a3[i] = p.value(at: n) }
        for (i, p) in Geodesic.c3Table.enumerated() { c3[i] = p.value(at: n) }
        for (i, p) in Geodesic.c4Table.enumerated() { c4[i] = p.value(at: n) }
        a3Coefficients = a3
        c3Coefficients = c3
        c4Coefficients = c4
    }

    /// The WGS84 ellipsoid.
    public static let wgs84 = Geodesic(semiMajorAxisMeters: WGS84.semiMajorAxisMeters, flattening: WGS84.flattening)

    /// The total area of the ellipsoid, in m² (4πc²).
    public var ellipsoidAreaSquareMeters: Double { 4 * .pi * authalicRadiusSquared }

    // Tolerances of the iterative solution (Karney 2013, §5).
    /// Machine epsilon, 2⁻⁵².
    static let tolerance = Double.ulpOfOne
    /// Convergence of Newton's method, 200 ε.
    static let toleranceLoose = 200 * tolerance
    /// √ε.
    static let toleranceSqrt = tolerance.squareRoot()
    /// End of the bisection, ε^(3/2).
    static let toleranceBisection = tolerance * toleranceSqrt
    /// Within this distance of the cut the astroid start is replaced (Karney 2013, §5).
    static let astroidThreshold = 1000 * toleranceSqrt
    /// √(smallest normal double): replaces exact zeros that would make angles indeterminate.
    static let tiny = Double.leastNormalMagnitude.squareRoot()
    /// Newton steps before falling back to bisection, and the total number of steps.
    static let newtonIterations = 20
    static let totalIterations = newtonIterations + Double.significandBitCount + 1 + 10

    /// Quantities that the inverse and direct solutions compute only when asked.
    public struct Extras: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The reduced length `m12`.
        public static let reducedLength = Extras(rawValue: 1 << 0)
        /// The area `S12` between the geodesic and the equator.
        public static let area = Extras(rawValue: 1 << 1)
    }

    /// The solution of the inverse problem.
    public struct Inverse: Sendable, Equatable {
        /// Geodesic distance `s12` in metres.
        public var distanceMeters: Double
        /// Azimuth at the first point `azi1`, degrees clockwise from north, in [-180, 180].
        public var initialAzimuthDegrees: Double
        /// Azimuth at the second point `azi2` (forward direction), degrees, in [-180, 180].
        public var finalAzimuthDegrees: Double
        /// Arc length on the auxiliary sphere `a12`, in degrees.
        public var arcLengthDegrees: Double
        /// The reduced length `m12` in metres, when asked for with `Extras.reducedLength`.
        public var reducedLengthMeters: Double?
        /// The area `S12` in m² between the geodesic, the equator and the meridians of the two
        /// points (counted as in GeographicLib), when asked for with `Extras.area`.
        public var areaSquareMeters: Double?
    }

    /// The solution of the direct problem.
    public struct Direct: Sendable, Equatable {
        /// Latitude of the end point, degrees.
        public var latitude: Double
        /// Longitude of the end point, degrees, in [-180, 180].
        public var longitude: Double
        /// Azimuth at the end point (forward direction), degrees, in [-180, 180].
        public var finalAzimuthDegrees: Double
        /// Arc length on the auxiliary sphere `a12`, in degrees.
        public var arcLengthDegrees: Double
        /// The reduced length `m12` in metres, when asked for with `Extras.reducedLength`.
        public var reducedLengthMeters: Double?
        /// The area `S12` in m² between the geodesic and the equator, when asked for with
        /// `Extras.area`.
        public var areaSquareMeters: Double?
    }

    /// Solves the inverse problem for raw degrees: the shortest geodesic between two points.
    /// - Parameters:
    ///   - latitude1, latitude2: degrees in [-90, 90] (outside, the results are NaN).
    ///   - longitude1, longitude2: degrees, any finite value.
    ///   - extras: what to compute besides distance and azimuths.
    /// - Complexity: O(1); about two Newton iterations on average, at most 84 steps.
    public func inverse(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double,
                        extras: Extras = []) -> Inverse {
        let solution = solveInverse(latitude1: latitude1, longitude1: longitude1,
                                    latitude2: latitude2, longitude2: longitude2, extras: extras)
        return Inverse(
            distanceMeters: solution.distanceMeters,
            initialAzimuthDegrees: DegreeArithmetic.atan2(solution.sinα1, solution.cosα1),
            finalAzimuthDegrees: DegreeArithmetic.atan2(solution.sinα2, solution.cosα2),
            arcLengthDegrees: solution.arcLengthDegrees,
            reducedLengthMeters: extras.contains(.reducedLength) ? solution.reducedLengthMeters : nil,
            areaSquareMeters: extras.contains(.area) ? solution.areaSquareMeters : nil)
    }

    /// Solves the inverse problem between two coordinates.
    /// - Complexity: O(1).
    public func inverse(from start: Coordinate, to end: Coordinate, extras: Extras = []) -> Inverse {
        inverse(latitude1: start.latitude, longitude1: start.longitude,
                latitude2: end.latitude, longitude2: end.longitude, extras: extras)
    }

    /// The geodesic distance between two coordinates, in metres.
    /// - Complexity: O(1).
    public func distanceMeters(from start: Coordinate, to end: Coordinate) -> Double {
        solveInverse(latitude1: start.latitude, longitude1: start.longitude,
                     latitude2: end.latitude, longitude2: end.longitude, extras: []).distanceMeters
    }

    /// Solves the direct problem from a coordinate.
    /// - Parameters:
    ///   - azimuthDegrees: initial azimuth, degrees clockwise from north; finite.
    ///   - distanceMeters: distance along the geodesic, metres (negative goes backwards); finite.
    /// - Precondition: `azimuthDegrees` and `distanceMeters` are finite.
    /// - Complexity: O(1).
    public func direct(from start: Coordinate, azimuthDegrees: Double, distanceMeters: Double)
        -> (coordinate: Coordinate, finalAzimuthDegrees: Double) {
        precondition(azimuthDegrees.isFinite && distanceMeters.isFinite, "azimuth and distance must be finite")
        let d = direct(latitude: start.latitude, longitude: start.longitude,
                       azimuthDegrees: azimuthDegrees, distanceMeters: distanceMeters)
        guard let end = Coordinate(validLatitude: d.latitude, longitude: d.longitude) else {
            preconditionFailure("the direct problem gave an invalid point \(d.latitude), \(d.longitude)")
        }
        return (end, d.finalAzimuthDegrees)
    }
}
