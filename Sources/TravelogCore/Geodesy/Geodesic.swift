import Foundation

// PLACEHOLDER (skeleton only): spherical formulas with the final public API, so that other files
// can be written against it. Replaced by Karney's algorithm before the first merge.

/// Geodesics on an ellipsoid of revolution.
public struct Geodesic: Sendable {
    public let semiMajorAxisMeters: Double
    public let flattening: Double

    public init(semiMajorAxisMeters: Double, flattening: Double) {
        self.semiMajorAxisMeters = semiMajorAxisMeters
        self.flattening = flattening
    }

    /// The WGS84 ellipsoid.
    public static let wgs84 = Geodesic(semiMajorAxisMeters: WGS84.semiMajorAxisMeters, flattening: WGS84.flattening)

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
    }

    /// Solves the inverse problem for raw degrees (latitudes must be in [-90, 90]).
    public func inverse(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Inverse {
        let r = WGS84.meanRadiusMeters
        let φ1 = latitude1 * .pi / 180, φ2 = latitude2 * .pi / 180
        let Δλ = (longitude2 - longitude1) * .pi / 180
        let h = sin((φ2 - φ1) / 2) * sin((φ2 - φ1) / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        let σ = 2 * atan2(sqrt(h), sqrt(1 - h))
        let azi1 = atan2(sin(Δλ) * cos(φ2), cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(Δλ)) * 180 / .pi
        let azi2 = atan2(sin(Δλ) * cos(φ1), -cos(φ2) * sin(φ1) + sin(φ2) * cos(φ1) * cos(Δλ)) * 180 / .pi
        return Inverse(distanceMeters: σ * r, initialAzimuthDegrees: azi1, finalAzimuthDegrees: azi2,
                       arcLengthDegrees: σ * 180 / .pi)
    }

    /// Solves the inverse problem between two coordinates.
    public func inverse(from start: Coordinate, to end: Coordinate) -> Inverse {
        inverse(latitude1: start.latitude, longitude1: start.longitude, latitude2: end.latitude, longitude2: end.longitude)
    }

    /// The geodesic distance between two coordinates, in metres.
    public func distanceMeters(from start: Coordinate, to end: Coordinate) -> Double {
        inverse(from: start, to: end).distanceMeters
    }

    /// Solves the direct problem for raw degrees and metres.
    public func direct(latitude: Double, longitude: Double, azimuthDegrees: Double, distanceMeters: Double) -> Direct {
        let r = WGS84.meanRadiusMeters
        let φ1 = latitude * .pi / 180, λ1 = longitude * .pi / 180, θ = azimuthDegrees * .pi / 180
        let δ = distanceMeters / r
        let φ2 = asin(sin(φ1) * cos(δ) + cos(φ1) * sin(δ) * cos(θ))
        let λ2 = λ1 + atan2(sin(θ) * sin(δ) * cos(φ1), cos(δ) - sin(φ1) * sin(φ2))
        let back = inverse(latitude1: φ2 * 180 / .pi, longitude1: λ2 * 180 / .pi, latitude2: latitude, longitude2: longitude)
        var azi2 = back.initialAzimuthDegrees + 180
        if azi2 > 180 { azi2 -= 360 }
        return Direct(latitude: φ2 * 180 / .pi, longitude: Coordinate.normalizedLongitude(λ2 * 180 / .pi),
                      finalAzimuthDegrees: azi2, arcLengthDegrees: δ * 180 / .pi)
    }

    /// Solves the direct problem from a coordinate.
    public func direct(from start: Coordinate, azimuthDegrees: Double, distanceMeters: Double) -> (coordinate: Coordinate, finalAzimuthDegrees: Double) {
        let d = direct(latitude: start.latitude, longitude: start.longitude, azimuthDegrees: azimuthDegrees, distanceMeters: distanceMeters)
        return (Coordinate(validLatitude: d.latitude, longitude: d.longitude)!, d.finalAzimuthDegrees)
    }
}

extension Coordinate {
    /// The WGS84 geodesic distance to another coordinate, in metres.
    public func distanceMeters(to other: Coordinate) -> Double { Geodesic.wgs84.distanceMeters(from: self, to: other) }

    /// The initial bearing (azimuth) of the geodesic to another coordinate, degrees in [0, 360).
    public func initialBearingDegrees(to other: Coordinate) -> Double {
        let azimuth = Geodesic.wgs84.inverse(from: self, to: other).initialAzimuthDegrees
        return azimuth < 0 ? azimuth + 360 : azimuth
    }

    /// The point reached by following the geodesic from here for a distance on a bearing.
    /// - Parameters:
    ///   - bearingDegrees: initial azimuth, degrees clockwise from north.
    ///   - distanceMeters: distance along the geodesic, metres (may be negative).
    public func destination(bearingDegrees: Double, distanceMeters: Double) -> Coordinate {
        Geodesic.wgs84.direct(from: self, azimuthDegrees: bearingDegrees, distanceMeters: distanceMeters).coordinate
    }
}
