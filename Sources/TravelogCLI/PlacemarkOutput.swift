import Foundation
import TravelogCore
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
        parts.append(placemark.timeZoneIdentifier ?? "time zone unknown")
        if let distance = placemark.distanceMeters {
            parts.append(distance < 10_000 ? "\(Int(distance.rounded())) m" : String(format: "%.1f km", distance / 1000))
        }
        return parts.joined(separator: "; ")
    }

    /// One JSON object on one line: `name`, `admin1`, `countryCode`, `timeZone`, `latitude`,
    /// `longitude` (degrees), and for reverse geocoding also `admin2`, `country` and
    /// `distanceMeters` (to the millimetre). Unknown values are `null`.
    static func json(_ placemark: Placemark, reverse: Bool) -> String {
        func value(_ text: String?) -> Any { text ?? NSNull() }
        var object: [String: Any] = [
            "name": placemark.name,
            "admin1": value(placemark.administrativeArea),
            "countryCode": value(placemark.isoCountryCode),
            "timeZone": value(placemark.timeZoneIdentifier),
            "latitude": placemark.coordinate.latitude,
            "longitude": placemark.coordinate.longitude,
        ]
        if reverse {
            object["admin2"] = value(placemark.subAdministrativeArea)
            object["country"] = value(placemark.country)
            object["distanceMeters"] = placemark.distanceMeters.map { ($0 * 1000).rounded() / 1000 } ?? NSNull()
        }
        // Only strings, numbers and null: serialisation cannot fail.
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
