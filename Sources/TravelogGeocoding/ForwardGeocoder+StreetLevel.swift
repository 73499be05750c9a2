import Foundation
import TravelogCore

extension ForwardGeocoder {
    /// The addresses ``streetLevel`` has for `text` as placemarks: named "Street 10", with
    /// thoroughfare, house number and postcode filled as reverse geocoding fills them, and the town,
    /// division, country and time zone of the gazetteer place nearest to the address (`addr:city`
    /// names the town when tagged).
    func streetAddressPlacemarks(for text: String, limit: Int) -> [Placemark] {
        guard let streetLevel, limit > 0 else { return [] }
        return streetLevel.addresses(matching: text, limit: limit).map { found in
            let town = nearestPlace(to: found.coordinate).map { gazetteer.placemark(at: $0) }
            var placemark = Placemark(name: found.name, locality: found.locality ?? town?.locality,
                                      subAdministrativeArea: town?.subAdministrativeArea, administrativeArea: town?.administrativeArea,
                                      country: town?.country, isoCountryCode: town?.isoCountryCode,
                                      timeZoneIdentifier: town?.timeZoneIdentifier, population: nil, coordinate: found.coordinate,
                                      distanceMeters: nil)
            placemark.thoroughfare = found.thoroughfare
            placemark.subThoroughfare = found.subThoroughfare
            placemark.postalCode = found.postalCode
            return placemark
        }
    }

    /// The gazetteer place nearest to a coordinate, by a plane approximation (degrees of longitude
    /// scaled by the latitude's cosine): exact enough to name the town of an address.
    /// - Complexity: O(n) for n places (a forward lookup is not a hot path: one per address found).
    func nearestPlace(to coordinate: Coordinate) -> Int? {
        let scale = cos(coordinate.latitude * .pi / 180)
        var best: (index: Int, distance: Double)?
        for index in 0..<gazetteer.count {
            let place = gazetteer.coordinate(at: index)
            var longitude = abs(place.longitude - coordinate.longitude)
            if longitude > 180 { longitude = 360 - longitude }
            let x = longitude * scale, y = place.latitude - coordinate.latitude
            let distance = x * x + y * y
            if best == nil || distance < best!.distance { best = (index, distance) }
        }
        return best?.index
    }
}
