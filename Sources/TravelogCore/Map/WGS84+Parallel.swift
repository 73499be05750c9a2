import Foundation

extension WGS84 {
    /// The radius of the parallel (circle of latitude) at a geodetic latitude, `N cos φ` with the
    /// prime-vertical radius of curvature `N = a / √(1 − e² sin² φ)`, in metres: a degree of
    /// longitude along that parallel is `radius × π / 180` metres.
    ///
    /// Source: B. Hofmann-Wellenhof, H. Lichtenegger, E. Wasle, "GNSS" (2008), §10.2.1.
    static func parallelRadiusMeters(latitudeDegrees: Double) -> Double {
        let latitude = latitudeDegrees * .pi / 180
        let sine = sin(latitude)
        let primeVertical = semiMajorAxisMeters / (1 - eccentricitySquared * sine * sine).squareRoot()
        return max(primeVertical * cos(latitude), 0)
    }
}
