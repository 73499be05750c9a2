import Foundation
import TravelogCore
import TravelogGeocoding
import TravelogStore

/// Describes places with the offline gazetteer: the nearest GeoNames place, its region, country
/// and time zone.
public struct GazetteerDescriber: PlaceDescriber {
    public let geocoder: ReverseGeocoder

    public init(gazetteer: Gazetteer) {
        geocoder = ReverseGeocoder(gazetteer: gazetteer)
    }

    public func placemark(for coordinate: Coordinate) -> VisitPlacemark? {
        guard let placemark = geocoder.placemark(for: coordinate) else { return nil }
        return VisitPlacemark(name: placemark.name, locality: placemark.locality,
                              administrativeArea: placemark.administrativeArea, country: placemark.country,
                              isoCountryCode: placemark.isoCountryCode, timeZone: placemark.timeZoneIdentifier)
    }
}
