import Foundation
import TravelogCore
import TravelogGeocoding
import TravelogJournal

/// The answer of local search, the same for `GET /api/v1/search`, `travelog search --json` and the page.
public struct SearchAnswer: Encodable, Hashable, Sendable {
    public var query: String
    public var results: [SearchResult]
    /// "© OpenStreetMap contributors" when a result comes from an OSM extract, else `nil` (written as null).
    public var attribution: String?

    enum CodingKeys: String, CodingKey { case query, results, attribution }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(query, forKey: .query)
        try container.encode(results, forKey: .results)
        try container.encode(attribution, forKey: .attribution)
    }
}

/// One place found; unknown values are written as null (every key is always there).
public struct SearchResult: Encodable, Hashable, Sendable {
    /// "poi", "address", "street", "town", "place" (a person's own place) or "visit" (their titled visits).
    public var kind: String
    public var name: String
    public var address: String?
    /// OSM `key=value`.
    public var category: String?
    /// The category in English ("Café").
    public var categoryName: String?
    public var latitude: Double
    public var longitude: Double
    /// From `near` (or the region's centre), to 0.1 m.
    public var distanceMeters: Double?
    public var openingHours: String?
    public var website: String?
    public var phone: String?
    public var own: Bool
    public var placeID: Int64?
    /// ISO 8601 (UTC) arrival of the last visit, for own results.
    public var lastVisit: String?
    public var visitCount: Int?
    /// "osm", "gazetteer" or "journal".
    public var source: String
    public var osmType: String?
    public var osmID: Int64?

    init(kind: String, name: String, coordinate: Coordinate, distanceMeters: Double?, source: String) {
        self.kind = kind
        self.name = name
        latitude = coordinate.latitude
        longitude = coordinate.longitude
        self.distanceMeters = distanceMeters.map { ($0 * 10).rounded() / 10 }
        own = false
        self.source = source
    }

    /// A place of an OSM extract.
    init(_ found: OSMSearchResult) {
        self.init(kind: found.kind.rawValue, name: found.name, coordinate: found.coordinate, distanceMeters: found.distanceMeters, source: "osm")
        address = found.address
        category = found.category
        categoryName = found.category.map(OSMSearchCategories.name(of:))
        openingHours = found.openingHours
        website = found.website
        phone = found.phone
        osmType = switch found.elementType {
        case .node: "node"
        case .way: "way"
        case .relation: "relation"
        }
        osmID = found.osmID
    }

    /// A town of the gazetteer.
    init(town placemark: Placemark, distanceMeters: Double?) {
        self.init(kind: "town", name: placemark.name, coordinate: placemark.coordinate, distanceMeters: distanceMeters, source: "gazetteer")
        let parts = [placemark.administrativeArea, placemark.country].compactMap { $0 }.filter { $0 != placemark.name }
        address = parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// A person's own place or titled visits.
    init(own place: LocalSearch.OwnPlace, distanceMeters: Double?) {
        self.init(kind: place.placeID == nil ? "visit" : "place", name: place.name, coordinate: place.coordinate,
                  distanceMeters: distanceMeters, source: "journal")
        own = true
        placeID = place.placeID
        lastVisit = place.lastVisit.map { LocalTime.iso($0, in: nil) }
        visitCount = place.visitCount
    }

    enum CodingKeys: String, CodingKey {
        case kind, name, address, category, categoryName, latitude, longitude, distanceMeters, openingHours, website, phone
        case own, placeID, lastVisit, visitCount, source, osmType, osmID
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(name, forKey: .name)
        try container.encode(address, forKey: .address)
        try container.encode(category, forKey: .category)
        try container.encode(categoryName, forKey: .categoryName)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
        try container.encode(distanceMeters, forKey: .distanceMeters)
        try container.encode(openingHours, forKey: .openingHours)
        try container.encode(website, forKey: .website)
        try container.encode(phone, forKey: .phone)
        try container.encode(own, forKey: .own)
        try container.encode(placeID, forKey: .placeID)
        try container.encode(lastVisit, forKey: .lastVisit)
        try container.encode(visitCount, forKey: .visitCount)
        try container.encode(source, forKey: .source)
        try container.encode(osmType, forKey: .osmType)
        try container.encode(osmID, forKey: .osmID)
    }
}
