import Foundation
import TravelogCore

/// A place found by geocoding, with the fields of Core Location's `CLPlacemark` that a gazetteer
/// of populated places can fill.
public struct Placemark: Hashable, Sendable {
    /// The place's name ("Cupertino").
    public let name: String
    /// The city or town; for a populated place of the gazetteer, its name.
    public let locality: String?
    /// The second-level administrative division ("Santa Clara County"), when known.
    public let subAdministrativeArea: String?
    /// The first-level administrative division: a state, region or province ("California").
    public let administrativeArea: String?
    /// The country's name ("United States").
    public let country: String?
    /// The ISO 3166-1 alpha-2 country code ("US").
    public let isoCountryCode: String?
    /// The IANA time zone identifier ("America/Los_Angeles"), when known.
    public let timeZoneIdentifier: String?
    /// Inhabitants, when known.
    public let population: Int?
    /// Where the place is.
    public let coordinate: Coordinate
    /// For reverse geocoding, the WGS84 geodesic distance from the searched coordinate to the
    /// place, in metres; `nil` for forward geocoding.
    public let distanceMeters: Double?
    /// The street (`CLPlacemark.thoroughfare`), from an OSM extract that covers the coordinate.
    public var thoroughfare: String?
    /// The house number (`CLPlacemark.subThoroughfare`), from an OSM extract.
    public var subThoroughfare: String?
    /// The postcode, from an OSM extract.
    public var postalCode: String?
    /// The district (`addr:suburb`), from an OSM extract.
    public var subLocality: String?
    /// The named areas the coordinate is in, smallest first, from an OSM extract.
    public var areasOfInterest: [String] = []
    /// The point of interest at the coordinate (its name and OSM category), from an OSM extract.
    public var pointOfInterest: OSMStreetAddress.PointOfInterest?

    public init(name: String, locality: String?, subAdministrativeArea: String?, administrativeArea: String?,
                country: String?, isoCountryCode: String?, timeZoneIdentifier: String?, population: Int?,
                coordinate: Coordinate, distanceMeters: Double?) {
        self.name = name
        self.locality = locality
        self.subAdministrativeArea = subAdministrativeArea
        self.administrativeArea = administrativeArea
        self.country = country
        self.isoCountryCode = isoCountryCode
        self.timeZoneIdentifier = timeZoneIdentifier
        self.population = population
        self.coordinate = coordinate
        self.distanceMeters = distanceMeters
    }

    /// This placemark with what an OSM extract says of its coordinate (street, number, postcode,
    /// district, areas, point of interest); the town stays the gazetteer's unless `addr:city` says.
    public func adding(_ address: OSMStreetAddress) -> Placemark {
        var placemark = Placemark(name: name, locality: address.locality ?? locality, subAdministrativeArea: subAdministrativeArea,
                                  administrativeArea: administrativeArea, country: country, isoCountryCode: isoCountryCode,
                                  timeZoneIdentifier: timeZoneIdentifier, population: population, coordinate: coordinate,
                                  distanceMeters: distanceMeters)
        placemark.thoroughfare = address.thoroughfare
        placemark.subThoroughfare = address.subThoroughfare
        placemark.postalCode = address.postalCode
        placemark.subLocality = address.subLocality
        placemark.areasOfInterest = address.areasOfInterest
        placemark.pointOfInterest = address.pointOfInterest
        return placemark
    }

    /// The time zone, when the identifier is known to this system's time zone database.
    public var timeZone: TimeZone? { timeZoneIdentifier.flatMap(TimeZone.init(identifier:)) }
}
