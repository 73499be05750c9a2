import Foundation
import TravelogCore
import TravelogGeocoding
import TravelogStore

/// Describes places with the offline gazetteer: the nearest GeoNames place, its region and
/// country, and the time zone: the one whose boundaries hold the point when the time-zone
/// boundaries are loaded, else the nearest place's. Where OSM extracts are added (`travelog osm
/// add`), a visit also gets the point of interest it most likely was and its street address.
public struct GazetteerDescriber: PlaceDescriber {
    public let geocoder: ReverseGeocoder
    /// The time-zone boundaries (`make timezones`), when found.
    public let timeZones: TimeZoneBoundaries?
    /// The OSM extracts' places, when any is added.
    public let streetLevel: OSMReverseGeocoder?
    public let fingerprint: String?

    public init(gazetteer: Gazetteer, timeZones: TimeZoneBoundaries? = nil, streetLevel: OSMReverseGeocoder? = nil) {
        geocoder = ReverseGeocoder(gazetteer: gazetteer)
        self.timeZones = timeZones
        self.streetLevel = streetLevel
        fingerprint = "gazetteer \(gazetteer.count)" + (streetLevel.map { "; osm \($0.sources)" } ?? "")
    }

    public func placemark(for coordinate: Coordinate) -> VisitPlacemark? {
        guard let nearest = geocoder.nearest(to: coordinate) else { return nil }
        let placemark = geocoder.gazetteer.placemark(at: nearest.placeIndex, distanceMeters: nearest.distanceMeters)
        let timeZone = timeZones?.timeZoneIdentifier(for: coordinate) ?? placemark.timeZoneIdentifier
        return VisitPlacemark(name: placemark.name, locality: placemark.locality,
                              administrativeArea: placemark.administrativeArea, country: placemark.country,
                              isoCountryCode: placemark.isoCountryCode, timeZone: timeZone, describedBy: fingerprint)
    }

    /// The town (``placemark(for:)``), and where an extract covers the centre: the point of
    /// interest the visit most likely was (`OSMReverseGeocoder.pointOfInterest(forVisitAt:radiusMeters:)`)
    /// and its address, else the address at the centre.
    public func placemark(forVisitAt center: Coordinate, radiusMeters: Double) -> VisitPlacemark? {
        guard var placemark = placemark(for: center) else { return nil }
        guard let streetLevel else { return placemark }
        let poi = streetLevel.pointOfInterest(forVisitAt: center, radiusMeters: radiusMeters)
        placemark.poi = poi?.place.name
        placemark.poiCategory = poi?.place.category
        placemark.address = streetLevel.address(for: poi?.place.coordinate ?? center)?.formatted(town: placemark.locality ?? placemark.name)
        return placemark
    }
}
