extension CoordinateRegion {
    /// A region around a centre that is `latitudinalMeters` tall and `longitudinalMeters` wide
    /// (MapKit's `MKCoordinateRegion(center:latitudinalMeters:longitudinalMeters:)`).
    ///
    /// The north-south extent is measured along the meridian through the centre with the WGS84
    /// geodesic (a meridian is a geodesic), half to the north and half to the south. The
    /// east-west extent is measured along the parallel through the centre, a circle of radius
    /// `N cos φ`; wider than the whole parallel gives 360°.
    ///
    /// - Parameters:
    ///   - center: the centre of the region.
    ///   - latitudinalMeters: north-south extent in metres, finite and non-negative.
    ///   - longitudinalMeters: east-west extent in metres, finite and non-negative.
    /// - Throws: ``MapGeometryError/distanceOutOfRange(meters:)`` for a negative or non-finite
    ///   distance, ``MapGeometryError/regionBeyondPole(southLatitudeDegrees:northLatitudeDegrees:)``
    ///   when half the north-south extent reaches past a pole.
    public init(center: Coordinate, latitudinalMeters: Double, longitudinalMeters: Double) throws(MapGeometryError) {
        for meters in [latitudinalMeters, longitudinalMeters] where !(meters.isFinite && meters >= 0) {
            throw .distanceOutOfRange(meters: meters)
        }
        let halfMeters = latitudinalMeters / 2
        let latitudeDelta: Double
        if halfMeters == 0 {
            latitudeDelta = 0
        } else {
            try Self.checkPoles(center: center, halfMeters: halfMeters)
            let north = center.destination(bearingDegrees: 0, distanceMeters: halfMeters).latitude
            let south = center.destination(bearingDegrees: 180, distanceMeters: halfMeters).latitude
            latitudeDelta = north - south
        }
        let parallelRadius = WGS84.parallelRadiusMeters(latitudeDegrees: center.latitude)
        let longitudeDelta: Double
        if longitudinalMeters == 0 {
            longitudeDelta = 0
        } else if parallelRadius == 0 {
            longitudeDelta = 360
        } else {
            longitudeDelta = min(longitudinalMeters / parallelRadius * 180 / .pi, 360)
        }
        try self.init(
            center: center,
            span: CoordinateSpan(latitudeDeltaDegrees: latitudeDelta, longitudeDeltaDegrees: longitudeDelta)
        )
    }

    /// Throws when walking `halfMeters` north or south along the meridian would pass a pole.
    private static func checkPoles(center: Coordinate, halfMeters: Double) throws(MapGeometryError) {
        guard let northPole = Coordinate(validLatitude: 90, longitude: center.longitude),
              let southPole = Coordinate(validLatitude: -90, longitude: center.longitude) else { return }
        let toNorthPole = center.distanceMeters(to: northPole)
        let toSouthPole = center.distanceMeters(to: southPole)
        guard halfMeters <= toNorthPole, halfMeters <= toSouthPole else {
            // Degrees of latitude per metre near the centre, enough to say roughly where the
            // region would have ended.
            let degreesPerMeter = 180 / (toNorthPole + toSouthPole)
            throw .regionBeyondPole(
                southLatitudeDegrees: center.latitude - halfMeters * degreesPerMeter,
                northLatitudeDegrees: center.latitude + halfMeters * degreesPerMeter
            )
        }
    }
}
