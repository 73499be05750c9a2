import Foundation
import TravelogCore
import TravelogFormats
import TravelogGeocoding

/// How the geocoding commands print a placemark: one line for people, or one JSON object per line
/// (JSON Lines) for scripts.
enum PlacemarkOutput {
    /// "Cupertino, Santa Clara County, California, United States (US); America/Los_Angeles; 1038 m"
    /// (the distance only for reverse geocoding; unknown parts are left out).
    static func text(_ placemark: Placemark) -> String {
        var place: [String] = []
        for part in [placemark.name, placemark.subAdministrativeArea, placemark.administrativeArea] {
            if let part, part != place.last { place.append(part) }  // "Paris, Paris" once
        }
        if let country = placemark.country {
            place.append(placemark.isoCountryCode.map { "\(country) (\($0))" } ?? country)
        }
        var parts = [place.joined(separator: ", ")]
        if let street = streetText(placemark) { parts.insert(street, at: 0) }
        parts.append(placemark.timeZoneIdentifier ?? "time zone unknown")
        if let distance = placemark.distanceMeters {
            parts.append(distance < 10_000 ? "\(Int(distance.rounded())) m" : String(format: "%.1f km", distance / 1000))
        }
        return parts.joined(separator: "; ")
    }

    /// What an OSM extract adds, for people: "Cafe Ekberg (amenity=cafe), Bulevardi 9, 00120, in
    /// Kamppi"; `nil` without it. The named areas around the point (a park, a square) come after
    /// "in", smallest first, leaving out the point of interest's own name.
    static func streetText(_ placemark: Placemark) -> String? {
        var parts: [String] = []
        if let poi = placemark.pointOfInterest { parts.append("\(poi.name) (\(poi.category))") }
        if let street = placemark.thoroughfare { parts.append(placemark.subThoroughfare.map { "\(street) \($0)" } ?? street) }
        if let postcode = placemark.postalCode { parts.append(postcode) }
        let areas = placemark.areasOfInterest.filter { $0 != placemark.pointOfInterest?.name }
        if !areas.isEmpty { parts.append("in " + areas.joined(separator: ", ")) }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// One JSON object on one line, keys in alphabetical order: `admin1`, `countryCode`,
    /// `latitude`, `longitude` (degrees, to 1e-7), `name`, `timeZone`, and for reverse geocoding also
    /// `admin2`, `country` and `distanceMeters` (to the millimetre), and where an OSM extract covers the
    /// coordinate (or gave the address forward geocoding found) `areasOfInterest` (the named areas
    /// around it, smallest first), `poi`, `poiCategory`, `postalCode`, `subLocality`,
    /// `subThoroughfare`, `thoroughfare`.
    /// Unknown values are `null`.
    /// Written by `JSONLineWriter` (no Foundation per line: `--json` is as fast as the text).
    static func json(_ placemark: Placemark, reverse: Bool, into writer: JSONLineWriter) {
        writer.beginObject()
        let streetLevel = placemark.thoroughfare != nil || placemark.pointOfInterest != nil || !placemark.areasOfInterest.isEmpty
        writer.member("admin1", string: placemark.administrativeArea)
        if reverse { writer.member("admin2", string: placemark.subAdministrativeArea) }
        if streetLevel { writer.member("areasOfInterest", strings: placemark.areasOfInterest) }
        if reverse { writer.member("country", string: placemark.country) }
        writer.member("countryCode", string: placemark.isoCountryCode)
        if reverse { writer.member("distanceMeters", number: placemark.distanceMeters, decimals: 3) }
        writer.member("latitude", number: placemark.coordinate.latitude, decimals: 7)
        writer.member("longitude", number: placemark.coordinate.longitude, decimals: 7)
        writer.member("name", string: placemark.name)
        if streetLevel {
            writer.member("poi", string: placemark.pointOfInterest?.name)
            writer.member("poiCategory", string: placemark.pointOfInterest?.category)
            writer.member("postalCode", string: placemark.postalCode)
            writer.member("subLocality", string: placemark.subLocality)
            writer.member("subThoroughfare", string: placemark.subThoroughfare)
            writer.member("thoroughfare", string: placemark.thoroughfare)
        }
        writer.member("timeZone", string: placemark.timeZoneIdentifier)
        writer.endObject()
    }

    /// `json(_:reverse:into:)` as a string.
    static func json(_ placemark: Placemark, reverse: Bool) -> String {
        let writer = JSONLineWriter()
        json(placemark, reverse: reverse, into: writer)
        return writer.takeText()
    }
}
