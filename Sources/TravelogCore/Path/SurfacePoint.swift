import Foundation

/// A point on the surface of the WGS84 ellipsoid (height 0) in Earth-centred, Earth-fixed
/// Cartesian metres.
///
/// Path algorithms that run over a whole track use it as a frame with no seams: it has no
/// antimeridian and no singular pole, and the straight-line (chord) distance between two points
/// a few kilometres apart equals the geodesic distance to better than a micrometre per metre.
public struct SurfacePoint: Sendable, Equatable {
    /// Metres along the axis through (0°, 0°).
    public var x: Double
    /// Metres along the axis through (0°, 90° E).
    public var y: Double
    /// Metres along the axis through the North Pole.
    public var z: Double

    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The surface point below a latitude and longitude, in degrees.
    public init(latitude: Double, longitude: Double) {
        let φ = latitude * .pi / 180, λ = longitude * .pi / 180
        let sinφ = sin(φ), cosφ = cos(φ)
        let primeVerticalRadius = WGS84.semiMajorAxisMeters / (1 - WGS84.eccentricitySquared * sinφ * sinφ).squareRoot()
        x = primeVerticalRadius * cosφ * cos(λ)
        y = primeVerticalRadius * cosφ * sin(λ)
        z = primeVerticalRadius * (1 - WGS84.eccentricitySquared) * sinφ
    }

    /// The surface point below a coordinate.
    public init(_ coordinate: Coordinate) {
        self.init(latitude: coordinate.latitude, longitude: coordinate.longitude)
    }

    /// Geodetic latitude and longitude in degrees of this point (or of the surface point
    /// nearest to it, for a centroid a fraction of a millimetre below the surface).
    ///
    /// Bowring's one-step formula (Bowring 1976, "Transformation from spatial to geographical
    /// coordinates"), accurate to well under a millimetre near the surface.
    var latitudeLongitude: (latitude: Double, longitude: Double) {
        let a = WGS84.semiMajorAxisMeters, b = WGS84.semiMinorAxisMeters, e2 = WGS84.eccentricitySquared
        let secondEccentricitySquared = e2 / (1 - e2)
        let p = (x * x + y * y).squareRoot()
        let θ = atan2(z * a, p * b)
        let sinθ = sin(θ), cosθ = cos(θ)
        let φ = atan2(z + secondEccentricitySquared * b * sinθ * sinθ * sinθ, p - e2 * a * cosθ * cosθ * cosθ)
        return (φ * 180 / .pi, atan2(y, x) * 180 / .pi)
    }

    /// The straight-line distance to another point, in metres.
    public func chordMeters(to other: SurfacePoint) -> Double {
        let dx = other.x - x, dy = other.y - y, dz = other.z - z
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }

    /// The WGS84 geodesic distance to another point, in metres (Karney 2013 via `Geodesic`).
    func geodesicMeters(to other: SurfacePoint) -> Double {
        let start = latitudeLongitude, end = other.latitudeLongitude
        return Geodesic.wgs84.inverse(latitude1: start.latitude, longitude1: start.longitude,
                                      latitude2: end.latitude, longitude2: end.longitude).distanceMeters
    }

    /// The distance from this point to the straight segment `start`–`end`, in metres.
    func distanceMeters(toSegmentFrom start: SurfacePoint, to end: SurfacePoint) -> Double {
        let dx = end.x - start.x, dy = end.y - start.y, dz = end.z - start.z
        let px = x - start.x, py = y - start.y, pz = z - start.z
        let lengthSquared = dx * dx + dy * dy + dz * dz
        let t = lengthSquared > 0 ? min(max((px * dx + py * dy + pz * dz) / lengthSquared, 0), 1) : 0
        let ex = px - t * dx, ey = py - t * dy, ez = pz - t * dz
        return (ex * ex + ey * ey + ez * ez).squareRoot()
    }
}
