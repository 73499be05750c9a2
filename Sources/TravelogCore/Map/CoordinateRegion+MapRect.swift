extension MapRect {
    /// The rect covering a region (MapKit's `MKMapRect(region)`), wrapped so that its west edge
    /// lies in [0, 2^28); a region across the 180th meridian gives a rect that
    /// ``spansAntimeridian``. Latitudes beyond ±85.0511° are clamped to the world's edges.
    public init(_ region: CoordinateRegion) {
        let westX = WebMercator.x(longitudeDegrees: region.center.longitude - region.span.longitudeDeltaDegrees / 2)
        let eastX = WebMercator.x(longitudeDegrees: region.center.longitude + region.span.longitudeDeltaDegrees / 2)
        let northY = WebMercator.y(latitudeDegrees: region.northLatitude)
        let southY = WebMercator.y(latitudeDegrees: region.southLatitude)
        self = MapRect(x: westX, y: northY, width: eastX - westX, height: southY - northY).worldWrapped
    }
}

extension CoordinateRegion {
    /// The region a map rect shows (MapKit's `MKCoordinateRegion(_: MKMapRect)`): its edges are
    /// the latitudes and longitudes of the rect's edges, so the centre latitude is the mean of
    /// the edge latitudes, not the latitude of the rect's middle. The rect's y is clamped to the
    /// world, and a rect a world wide or wider gives a span of 360°.
    /// - Throws: ``MapGeometryError/nullMapRect`` for the null rect.
    public init(_ mapRect: MapRect) throws(MapGeometryError) {
        guard !mapRect.isNull else { throw .nullMapRect }
        let world = WebMercator.worldSizeMapPoints
        let north = WebMercator.latitudeDegrees(y: mapRect.minY)
        let south = WebMercator.latitudeDegrees(y: mapRect.maxY)
        let longitudeDelta = min(mapRect.width / world * 360, 360)
        let centerLongitude = WebMercator.longitudeDegrees(x: WebMercator.wrappedX(mapRect.midX))
        let center = try Self.coordinate(latitude: (north + south) / 2, longitude: centerLongitude)
        try self.init(
            center: center,
            span: CoordinateSpan(latitudeDeltaDegrees: north - south, longitudeDeltaDegrees: longitudeDelta)
        )
    }

    /// A coordinate from values computed inside the world; anything else is reported as a
    /// region beyond the poles rather than trapping.
    private static func coordinate(latitude: Double, longitude: Double) throws(MapGeometryError) -> Coordinate {
        guard let coordinate = Coordinate(validLatitude: latitude, longitude: longitude) else {
            throw .regionBeyondPole(southLatitudeDegrees: latitude, northLatitudeDegrees: latitude)
        }
        return coordinate
    }
}
