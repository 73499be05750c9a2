import Foundation
import TravelogCore

/// A visit's identifier in a store. It stays the same while re-processing refines the visit, so a
/// notification or a person's decision about it is tied to it for good.
public struct VisitID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }
}

/// A place's identifier in a store.
public struct PlaceID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }
}

/// Where a visit came from: detected from the locations, or described by the data itself.
public enum VisitSource: String, Hashable, Sendable, CaseIterable, Codable {
    case detected
    /// Google Semantic Location History and Timeline visits.
    case google
    /// Overland's visit actions.
    case overland
    /// Any other file that describes stays.
    case file
}

/// What reverse geocoding said about a visit's place.
public struct VisitPlacemark: Hashable, Sendable, Codable {
    /// The placemark as the stores keep it (a JSON object), or nil for none.
    public static func storedJSON(_ placemark: VisitPlacemark?) -> String? {
        placemark.flatMap { try? JSONEncoder().encode($0) }.map { String(decoding: $0, as: UTF8.self) }
    }

    public var name: String
    public var locality: String?
    public var administrativeArea: String?
    public var country: String?
    public var isoCountryCode: String?
    /// IANA time zone of the place.
    public var timeZone: String?
    /// The point of interest the visit most likely was ("Café Regatta"), from an OSM extract.
    public var poi: String?
    /// Its OSM category (`amenity=cafe`).
    public var poiCategory: String?
    /// The street address there ("Merikannontie 8, 00260 Helsinki"), from an OSM extract.
    public var address: String?
    /// What described it (the gazetteer's and the OSM extracts' fingerprint): when the data at hand
    /// differs, the visit is described again (`JournalProcessor.describeStale`).
    public var describedBy: String?

    public init(name: String, locality: String? = nil, administrativeArea: String? = nil, country: String? = nil,
                isoCountryCode: String? = nil, timeZone: String? = nil, poi: String? = nil, poiCategory: String? = nil,
                address: String? = nil, describedBy: String? = nil) {
        self.name = name
        self.locality = locality
        self.administrativeArea = administrativeArea
        self.country = country
        self.isoCountryCode = isoCountryCode
        self.timeZone = timeZone
        self.poi = poi
        self.poiCategory = poiCategory
        self.address = address
        self.describedBy = describedBy
    }
}

/// A visit as processing produces it, before the store gives it an identity.
public struct JournalVisit: Hashable, Sendable {
    public var deviceID: DeviceID
    public var source: VisitSource
    public var arrival: Date
    /// `nil` while the stay goes on.
    public var departure: Date?
    public var center: Coordinate
    public var radiusMeters: Double
    public var locationCount: Int
    /// The name, address and place identifier the source gave (Google's), if any.
    public var name: String?
    public var address: String?
    public var externalPlaceID: String?
    public var placemark: VisitPlacemark?

    public init(deviceID: DeviceID, source: VisitSource, arrival: Date, departure: Date?, center: Coordinate,
                radiusMeters: Double, locationCount: Int, name: String? = nil, address: String? = nil,
                externalPlaceID: String? = nil, placemark: VisitPlacemark? = nil) {
        self.deviceID = deviceID
        self.source = source
        self.arrival = arrival
        self.departure = departure
        self.center = center
        self.radiusMeters = radiusMeters
        self.locationCount = locationCount
        // A file's names are stripped, never refused (`DisplayName`).
        self.name = name.map(DisplayName.stripped)
        self.address = address.map(DisplayName.stripped)
        self.externalPlaceID = externalPlaceID
        self.placemark = placemark
    }

    /// Whether two visits of a device overlap in time (an ongoing one reaches to the end of time).
    package func overlaps(arrival otherArrival: Date, departure otherDeparture: Date?) -> Bool {
        arrival <= (otherDeparture ?? .distantFuture) && otherArrival <= (departure ?? .distantFuture)
    }
}

/// A visit as stored, with the person's decisions about it: a title of their own, hidden (deleted:
/// it never comes back, whatever re-processing finds), merged with the following visits up to
/// `mergedUntil`.
public struct StoredVisit: Hashable, Sendable {
    public var id: VisitID
    public var visit: JournalVisit
    public var placeID: PlaceID?
    public var title: String?
    public var hidden: Bool
    public var mergedUntil: Date?

    public init(id: VisitID, visit: JournalVisit, placeID: PlaceID? = nil, title: String? = nil, hidden: Bool = false,
                mergedUntil: Date? = nil) {
        self.id = id
        self.visit = visit
        self.placeID = placeID
        self.title = title
        self.hidden = hidden
        self.mergedUntil = mergedUntil
    }

    /// The departure to show: the end of the last visit merged into this one, or its own.
    public var shownDeparture: Date? {
        guard let mergedUntil else { return visit.departure }
        guard let departure = visit.departure else { return nil }
        return max(departure, mergedUntil)
    }
}

/// A place visits return to; a name given to it names all its visits.
public struct StoredPlace: Hashable, Sendable {
    public var id: PlaceID
    public var userID: UserID
    public var name: String?
    public var center: Coordinate
    public var radiusMeters: Double

    public init(id: PlaceID, userID: UserID, name: String?, center: Coordinate, radiusMeters: Double) {
        self.id = id
        self.userID = userID
        self.name = name
        self.center = center
        self.radiusMeters = radiusMeters
    }
}

/// What replacing a stretch of visits changed, for notifications.
public struct VisitChanges: Hashable, Sendable {
    /// Visits stored for the first time (not hidden); the latest `retainedLimit` after `absorb`.
    public var arrived: [StoredVisit] = []
    /// Visits whose departure became known now (not hidden); the latest `retainedLimit` after `absorb`.
    public var completed: [StoredVisit] = []
    /// Arrivals `absorb` let go of (the oldest), counted in `arrivedCount`.
    public private(set) var earlierArrivals = 0

    /// How many visits of each kind a run over a long history keeps: notifications are about the
    /// latest, and thousands of old visits re-processed in an import must not all stay in memory.
    public static let retainedLimit = 1_000

    public init(arrived: [StoredVisit] = [], completed: [StoredVisit] = []) {
        self.arrived = arrived
        self.completed = completed
    }

    /// Every visit stored for the first time, also the ones `absorb` let go of.
    public var arrivedCount: Int { earlierArrivals + arrived.count }

    /// Adds the changes of a later step of the same run, keeping the latest `retainedLimit` of each kind.
    public mutating func absorb(_ later: VisitChanges) {
        earlierArrivals += later.earlierArrivals
        arrived += later.arrived
        completed += later.completed
        if arrived.count > Self.retainedLimit {
            earlierArrivals += arrived.count - Self.retainedLimit
            arrived.removeFirst(arrived.count - Self.retainedLimit)
        }
        if completed.count > Self.retainedLimit { completed.removeFirst(completed.count - Self.retainedLimit) }
    }
}

/// A change a person makes to a journal entry.
public struct VisitEdit: Hashable, Sendable {
    /// A title of their own (`.some(nil)` removes it).
    public var title: String??
    public var hidden: Bool?
    public var mergedUntil: Date??
    public var placeID: PlaceID??
    /// A description of the place found later (a gazetteer installed after the visit was stored);
    /// `nil` leaves the stored one. A person's title is never touched by it.
    public var placemark: VisitPlacemark?

    public init(title: String?? = nil, hidden: Bool? = nil, mergedUntil: Date?? = nil, placeID: PlaceID?? = nil,
                placemark: VisitPlacemark? = nil) {
        self.title = title
        self.hidden = hidden
        self.mergedUntil = mergedUntil
        self.placeID = placeID
        self.placemark = placemark
    }
}
