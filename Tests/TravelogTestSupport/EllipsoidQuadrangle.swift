import Foundation

/// The area of the quadrangle between two parallels and two meridians on the WGS84 ellipsoid, km²
/// (the zone's closed form, Snyder's "Map projections: a working manual", 1987, eq. 3-12 via the authalic q).
public func ellipsoidQuadrangleSquareKilometers(south: Double, north: Double, westToEastDegrees: Double) -> Double {
    let a = 6_378_137.0, f = 1 / 298.257223563
    let e2 = f * (2 - f), e = e2.squareRoot()
    func q(_ degrees: Double) -> Double {
        let s = sin(degrees * .pi / 180)
        return (1 - e2) * (s / (1 - e2 * s * s) - 1 / (2 * e) * log((1 - e * s) / (1 + e * s)))
    }
    return a * a / 2 * (q(north) - q(south)) * westToEastDegrees * .pi / 180 / 1_000_000
}
