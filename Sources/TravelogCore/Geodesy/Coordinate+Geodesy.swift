import Foundation

extension Coordinate {
    /// The WGS84 geodesic distance to another coordinate, in metres (Karney 2013; accurate to
    /// about 15 nm).
    /// - Complexity: O(1).
    public func distanceMeters(to other: Coordinate) -> Double {
        Geodesic.wgs84.distanceMeters(from: self, to: other)
    }

    /// The initial bearing (azimuth) of the WGS84 geodesic to another coordinate, degrees
    /// clockwise from north in [0, 360).
    ///
    /// For coincident points, and for points on a common meridian through a pole, the bearing
    /// follows GeographicLib's conventions (a bearing along the meridian).
    /// - Complexity: O(1).
    public func initialBearingDegrees(to other: Coordinate) -> Double {
        let azimuth = Geodesic.wgs84.inverse(from: self, to: other).initialAzimuthDegrees
        guard azimuth < 0 else { return azimuth + 0 }  // -0 becomes 0
        let bearing = azimuth + 360
        return bearing < 360 ? bearing : 0  // a tiny negative azimuth would round to 360
    }

    /// The point reached by following the WGS84 geodesic from here for a distance on a bearing.
    /// - Parameters:
    ///   - bearingDegrees: initial azimuth, degrees clockwise from north; finite.
    ///   - distanceMeters: distance along the geodesic, metres (may be negative); finite.
    /// - Precondition: both arguments are finite.
    /// - Complexity: O(1).
    public func destination(bearingDegrees: Double, distanceMeters: Double) -> Coordinate {
        Geodesic.wgs84.direct(from: self, azimuthDegrees: bearingDegrees, distanceMeters: distanceMeters).coordinate
    }

    /// The great-circle distance to another coordinate on a sphere of radius
    /// `WGS84.meanRadiusMeters`, in metres, by the haversine formula.
    ///
    /// An approximation: it differs from the geodesic distance by up to about 0.56 % (short
    /// north–south steps near the equator), typically 0.2 %. Use `distanceMeters(to:)` for
    /// distances; this exists as a cheaper fast path for coarse filtering.
    /// - Complexity: O(1).
    public func haversineDistanceMetersApproximate(to other: Coordinate) -> Double {
        let φ1 = latitude * DegreeArithmetic.radiansPerDegree, φ2 = other.latitude * DegreeArithmetic.radiansPerDegree
        let Δφ = φ2 - φ1
        let Δλ = (other.longitude - longitude) * DegreeArithmetic.radiansPerDegree
        let sinHalfΔφ = sin(Δφ / 2), sinHalfΔλ = sin(Δλ / 2)
        let h = sinHalfΔφ * sinHalfΔφ + cos(φ1) * cos(φ2) * sinHalfΔλ * sinHalfΔλ
        return 2 * WGS84.meanRadiusMeters * asin(min(1, h.squareRoot()))
    }
}
