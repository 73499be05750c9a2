extension Geodesic {
    /// Solves the direct problem for raw degrees and metres: where a geodesic from a point, with
    /// a given initial azimuth, is after a given distance.
    /// - Parameters:
    ///   - latitude: degrees in [-90, 90] (outside, the results are NaN).
    ///   - longitude: degrees, any finite value.
    ///   - azimuthDegrees: initial azimuth, degrees clockwise from north.
    ///   - distanceMeters: distance along the geodesic, metres; negative goes backwards.
    ///   - extras: what to compute besides the end point and azimuth.
    /// - Returns: the end point (longitude in [-180, 180]) and the forward azimuth there.
    /// - Complexity: O(1), no iteration.
    public func direct(latitude: Double, longitude: Double, azimuthDegrees: Double, distanceMeters: Double,
                       extras: Extras = []) -> Direct {
        GeodesicLine(self, latitude1: latitude, longitude1: longitude, azimuth1: azimuthDegrees, extras: extras)
            .position(distanceMeters: distanceMeters)
    }
}
