import TravelogCore

/// A place local search found in the OSM extracts (© OpenStreetMap contributors, ODbL).
public struct OSMSearchResult: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        case pointOfInterest = "poi"
        case address
        case street
    }

    public let kind: Kind
    /// What to show: the point of interest's or street's name, or "Street 10" for an address.
    public let name: String
    /// "Street 10, 00100 City", when known (a point of interest without one of its own gets the
    /// address at its coordinate).
    public let address: String?
    /// `key=value` (`amenity=cafe`) for a point of interest.
    public let category: String?
    public let coordinate: Coordinate
    /// Geodesic distance from the point searched near, metres; `nil` without one.
    public let distanceMeters: Double?
    public let openingHours: String?
    public let website: String?
    public let phone: String?
    public let thoroughfare: String?
    public let subThoroughfare: String?
    public let postalCode: String?
    /// `addr:city`, when tagged.
    public let locality: String?
    public let elementType: OSMPlace.ElementType
    public let osmID: Int64
    /// How well the text matched (`SearchTextMatch`), in (0, 1].
    public let score: Double

    public init(kind: Kind, name: String, address: String?, category: String?, coordinate: Coordinate, distanceMeters: Double?,
                openingHours: String?, website: String?, phone: String?, thoroughfare: String?, subThoroughfare: String?,
                postalCode: String?, locality: String?, elementType: OSMPlace.ElementType, osmID: Int64, score: Double) {
        self.kind = kind
        self.name = name
        self.address = address
        self.category = category
        self.coordinate = coordinate
        self.distanceMeters = distanceMeters
        self.openingHours = openingHours
        self.website = website
        self.phone = phone
        self.thoroughfare = thoroughfare
        self.subThoroughfare = subThoroughfare
        self.postalCode = postalCode
        self.locality = locality
        self.elementType = elementType
        self.osmID = osmID
        self.score = score
    }

    /// "Street 10, 00100 City" from the parts known; `nil` without a street.
    public static func formatAddress(street: String?, number: String?, postalCode: String?, city: String?) -> String? {
        guard let street else { return nil }
        let first = [street, number].compactMap { $0 }.joined(separator: " ")
        let second = [postalCode, city].compactMap { $0 }.joined(separator: " ")
        return second.isEmpty ? first : first + ", " + second
    }
}

extension SearchTextMatch {
    /// Local search's order: by text match (scores within 0.05 of each other are equal), then by
    /// distance from the point searched near (known distances first), then by score and name.
    public static func ranksBefore(score a: Double, distanceMeters da: Double?, name na: String,
                                   score b: Double, distanceMeters db: Double?, name nb: String) -> Bool {
        let bucketA = (a * 20 + 1e-9).rounded(.down), bucketB = (b * 20 + 1e-9).rounded(.down)
        if bucketA != bucketB { return bucketA > bucketB }
        switch (da, db) {
        case let (x?, y?) where x != y: return x < y
        case (.some, nil): return true
        case (nil, .some): return false
        default: break
        }
        if a != b { return a > b }
        return na < nb
    }
}
