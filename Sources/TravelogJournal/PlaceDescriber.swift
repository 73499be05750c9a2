import Foundation
import TravelogCore
import TravelogStore

/// What the journal needs from a geocoder: a description of a place and its time zone. The offline
/// gazetteer (`TravelogGeocoding`) provides it; tests pass a fixed one.
public protocol PlaceDescriber: Sendable {
    /// A placemark for a coordinate, or `nil` when nothing is known.
    func placemark(for coordinate: Coordinate) -> VisitPlacemark?
}

extension PlaceDescriber {
    /// The time zone of the place at a coordinate.
    public func timeZone(for coordinate: Coordinate) -> TimeZone? {
        placemark(for: coordinate)?.timeZone.flatMap(TimeZone.init(identifier:))
    }
}
