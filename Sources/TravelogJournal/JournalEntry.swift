import Foundation
import TravelogCore
import TravelogStore
import TravelogFormats

/// A visit as the journal shows it: what to call it, and its times in the local time of the place.
public struct JournalEntry: Encodable, Hashable, Sendable {
    public var id: Int64
    /// The person's title, else the place's name, else the name the data gave, else the point of
    /// interest it most likely was, else its street address, else the gazetteer's description of
    /// where it is (``describe(_:)-swift.type.method``).
    public var place: String
    /// The point of interest (an OSM extract's) the visit most likely was, and its OSM category.
    public var poi: String?
    public var poiCategory: String?
    /// The street address there ("Merikannontie 8, 00260 Helsinki"), from an OSM extract.
    public var address: String?
    /// The town, from the gazetteer.
    public var locality: String?
    public var placeID: Int64?
    /// ISO 8601 in UTC.
    public var arrival: String
    /// `nil` while the visit goes on.
    public var departure: String?
    /// ISO 8601 with the offset of the place's time zone at that moment.
    public var localArrival: String
    public var localDeparture: String?
    public var timeZone: String?
    public var latitude: Double
    public var longitude: Double
    public var radius: Double
    public var durationSeconds: Double?
    public var source: String
    public var device: String
    public var countryCode: String?
    public var hidden: Bool

    /// - Parameter placeTimeZone: the zone of the place, for a visit stored without one.
    public init(_ stored: StoredVisit, place: StoredPlace?, deviceName: String, placeTimeZone: TimeZone? = nil) {
        let visit = stored.visit
        id = stored.id.rawValue
        self.place = stored.title ?? place?.name ?? Self.describe(visit)
        poi = visit.placemark?.poi
        poiCategory = visit.placemark?.poiCategory
        address = visit.placemark?.address
        locality = visit.placemark?.locality ?? visit.placemark?.name
        placeID = stored.placeID?.rawValue
        let zone = visit.placemark?.timeZone.flatMap(TimeZone.init(identifier:)) ?? placeTimeZone
        timeZone = zone?.identifier
        arrival = LocalTime.iso(visit.arrival, in: nil)
        departure = stored.shownDeparture.map { LocalTime.iso($0, in: nil) }
        localArrival = LocalTime.iso(visit.arrival, in: zone)
        localDeparture = stored.shownDeparture.map { LocalTime.iso($0, in: zone) }
        latitude = visit.center.latitude
        longitude = visit.center.longitude
        radius = (visit.radiusMeters * 10).rounded() / 10
        durationSeconds = stored.shownDeparture.map { $0.timeIntervalSince(visit.arrival) }
        source = visit.source.rawValue
        device = deviceName
        countryCode = visit.placemark?.isoCountryCode
        hidden = stored.hidden
    }

    enum CodingKeys: String, CodingKey {
        case id, place, poi, poiCategory, address, locality, placeID, arrival, departure, localArrival, localDeparture, timeZone, latitude, longitude, radius
        case durationSeconds, source, device, countryCode, hidden
    }

    /// Unknown values are written as `null` (a departure not known yet is `null`, not absent).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(place, forKey: .place)
        try container.encode(poi, forKey: .poi)
        try container.encode(poiCategory, forKey: .poiCategory)
        try container.encode(address, forKey: .address)
        try container.encode(locality, forKey: .locality)
        try container.encode(placeID, forKey: .placeID)
        try container.encode(arrival, forKey: .arrival)
        try container.encode(departure, forKey: .departure)
        try container.encode(localArrival, forKey: .localArrival)
        try container.encode(localDeparture, forKey: .localDeparture)
        try container.encode(timeZone, forKey: .timeZone)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
        try container.encode(radius, forKey: .radius)
        try container.encode(durationSeconds, forKey: .durationSeconds)
        try container.encode(source, forKey: .source)
        try container.encode(device, forKey: .device)
        try container.encode(countryCode, forKey: .countryCode)
        try container.encode(hidden, forKey: .hidden)
    }

    /// What a visit is called without a title or a place of the person's: the name the data gave,
    /// else the point of interest, else the street address, else the town ("Kreuzberg, Berlin, DE"),
    /// else its coordinates.
    static func describe(_ visit: JournalVisit) -> String {
        describedName(visit) ?? String(format: "%.5f, %.5f", visit.center.latitude, visit.center.longitude)
    }

    /// ``describe(_:)-swift.type.method`` without the coordinates: `nil` when nothing names it.
    static func describedName(_ visit: JournalVisit) -> String? {
        visit.name ?? visit.placemark?.poi ?? visit.placemark?.address ?? describe(visit.placemark)
    }

    /// "Kreuzberg, Berlin, DE".
    static func describe(_ placemark: VisitPlacemark?) -> String? {
        guard let placemark else { return nil }
        var parts = [placemark.name]
        if let area = placemark.administrativeArea, area != placemark.name { parts.append(area) }
        if let country = placemark.isoCountryCode { parts.append(country) }
        return parts.joined(separator: ", ")
    }
}

/// Times written in a place's own time zone.
public enum LocalTime {
    /// ISO 8601 to the second: `Z` in UTC (`zone` nil), else the zone's offset at that moment.
    public static func iso(_ date: Date, in zone: TimeZone?) -> String {
        ISO8601TimeFormatter.string(date, utcOffsetSeconds: zone?.secondsFromGMT(for: date) ?? 0)
    }
}
