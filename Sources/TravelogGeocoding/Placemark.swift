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

    /// The time zone, when the identifier is known to this system's time zone database.
    public var timeZone: TimeZone? { timeZoneIdentifier.flatMap(TimeZone.init(identifier:)) }
}
