import TravelogCore

/// A pin on the map with a title and an optional subtitle (MapKit's `MKPointAnnotation`).
public struct MapPin: Hashable, Sendable {
    public var coordinate: Coordinate
    public var title: String
    public var subtitle: String?

    public init(coordinate: Coordinate, title: String, subtitle: String? = nil) {
        self.coordinate = coordinate
        self.title = title
        self.subtitle = subtitle
    }
}
