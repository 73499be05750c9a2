/// A point on the Web Mercator plane, in map points (see ``WebMercator``): x grows east from
/// the 180th meridian, y grows south from latitude +85.0511°.
///
/// Any values are allowed: points east or west of the world stand for the same place on a
/// neighbouring copy of the world, which lets a line cross the 180th meridian without jumping.
public struct MapPoint: Hashable, Sendable, CustomStringConvertible {
    /// East-west position in map points; [0, 2^28] inside the world.
    public var x: Double
    /// North-south position in map points; [0, 2^28] inside the world, 0 at the top.
    public var y: Double

    /// Creates a map point from raw map-point values.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Projects a coordinate (MapKit's `MKMapPoint(_:)`); latitudes beyond ±85.0511° land on the
    /// top or bottom edge of the world.
    public init(_ coordinate: Coordinate) {
        x = WebMercator.x(longitudeDegrees: coordinate.longitude)
        y = WebMercator.y(latitudeDegrees: coordinate.latitude)
    }

    /// The coordinate of this point: x is wrapped into the world and y clamped to it, so every
    /// finite map point has a coordinate. Asking for the coordinate of a point with an infinite or
    /// NaN component (such as the origin of ``MapRect/null``) is a programming error.
    public var coordinate: Coordinate {
        let longitude = WebMercator.longitudeDegrees(x: WebMercator.wrappedX(x))
        let latitude = WebMercator.latitudeDegrees(y: y)
        guard let coordinate = Coordinate(validLatitude: latitude, longitude: longitude) else {
            preconditionFailure("\(self) has no coordinate: its components must be finite")
        }
        return coordinate
    }

    /// This point moved by whole world widths so that its x lies within half a world of
    /// `reference.x`: the copy of the same place nearest to `reference`.
    public func wrapped(near reference: MapPoint) -> MapPoint {
        let world = WebMercator.worldSizeMapPoints
        let shift = ((reference.x - x) / world).rounded() * world
        return MapPoint(x: x + shift, y: y)
    }

    /// The WGS84 geodesic distance between the places of two map points, in metres
    /// (MapKit's `MKMetersBetweenMapPoints`).
    public func distanceMeters(to other: MapPoint) -> Double {
        coordinate.distanceMeters(to: other.coordinate)
    }

    public var description: String { "MapPoint(x: \(x), y: \(y))" }
}
