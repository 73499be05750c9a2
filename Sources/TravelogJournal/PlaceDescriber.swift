import Foundation
import TravelogCore
import TravelogStore

/// What the journal needs from a geocoder: a description of a place and its time zone. The offline
/// gazetteer with the OSM extracts added (`TravelogGeocoding`) provides it; tests pass a fixed one.
public protocol PlaceDescriber: Sendable {
    /// A placemark for a coordinate, or `nil` when nothing is known.
    func placemark(for coordinate: Coordinate) -> VisitPlacemark?

    /// A placemark for a visit: besides the town, the point of interest it most likely was and its
    /// address, where the describer knows them. The default is `placemark(for:)` of the centre.
    func placemark(forVisitAt center: Coordinate, radiusMeters: Double) -> VisitPlacemark?

    /// What the describer's answers come from (its data files), or `nil` when they never change: a
    /// visit described with other data (``VisitPlacemark/describedBy``) is described again.
    var fingerprint: String? { get }
}

extension PlaceDescriber {
    public func placemark(forVisitAt center: Coordinate, radiusMeters: Double) -> VisitPlacemark? { placemark(for: center) }

    public var fingerprint: String? { nil }

    /// The time zone of the place at a coordinate.
    public func timeZone(for coordinate: Coordinate) -> TimeZone? {
        placemark(for: coordinate)?.timeZone.flatMap(TimeZone.init(identifier:))
    }

    /// Whether a visit should be described (again): it has no placemark, or one from other data.
    public func isStale(_ placemark: VisitPlacemark?) -> Bool {
        guard let placemark else { return true }
        return fingerprint != nil && placemark.describedBy != fingerprint
    }
}
