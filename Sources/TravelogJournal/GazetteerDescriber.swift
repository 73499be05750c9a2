import Foundation
import TravelogCore
import TravelogGeocoding
import TravelogStore

/// Describes places with the offline gazetteer: the nearest GeoNames place, its region and
/// country, and the time zone: the one whose boundaries hold the point when the time-zone
/// boundaries are loaded, else the nearest place's.
public struct GazetteerDescriber: PlaceDescriber {
    public let geocoder: ReverseGeocoder
    /// The time-zone boundaries (`make timezones`), when found.
    public let timeZones: TimeZoneBoundaries?

    public init(gazetteer: Gazetteer, timeZones: TimeZoneBoundaries? = nil) {
        geocoder = ReverseGeocoder(gazetteer: gazetteer)
        self.timeZones = timeZones
    }

    public func placemark(for coordinate: Coordinate) -> VisitPlacemark? {
        guard let placemark = geocoder.placemark(for: coordinate) else { return nil }
        let timeZone = timeZones?.timeZoneIdentifier(for: coordinate) ?? placemark.timeZoneIdentifier
        return VisitPlacemark(name: placemark.name, locality: placemark.locality,
                              administrativeArea: placemark.administrativeArea, country: placemark.country,
                              isoCountryCode: placemark.isoCountryCode, timeZone: timeZone)
    }
}
