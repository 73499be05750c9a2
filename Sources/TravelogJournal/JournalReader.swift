import Foundation
import TravelogCore
import TravelogStore

/// What the CLI, the API and the page read from the journal: entries, the trips between them, the
/// places, and where the person has been (countries, cities, days per country).
public struct JournalReader: Sendable {
    public let store: any LocationStore & AccountStore & JournalStore
    /// The zone of a place whose entry was stored without one (no gazetteer then, or none near):
    /// every entry is shown in its place's zone, never in UTC beside entries in local time.
    public let timeZones: PlaceTimeZones?

    public init(store: any LocationStore & AccountStore & JournalStore, timeZones: PlaceTimeZones? = nil) {
        self.store = store
        self.timeZones = timeZones
    }

    /// The visits a person sees in `[from, to)`, oldest first: those no earlier visit of the same
    /// device was merged over, one per stay recorded by several devices (`VisitFusion`), without
    /// the deleted ones unless `includeHidden`. A deleted visit
    /// still covers what was merged into it: deleting a merged entry deletes all of it, and the
    /// entries it joined do not come back.
    func shownVisits(userID: UserID, from: Date?, to: Date?, includeHidden: Bool = false) async throws -> [StoredVisit] {
        let all = try await store.visits(userID: userID, deviceIDs: nil, from: from, to: to, includeHidden: true)
        let shown = VisitFusion.fused(all)
        return includeHidden ? shown : shown.filter { !$0.hidden }
    }

    /// The visible entries overlapping `[from, to)`, oldest first.
    public func entries(userID: UserID, from: Date?, to: Date?, includeHidden: Bool = false) async throws -> [JournalEntry] {
        let visits = try await shownVisits(userID: userID, from: from, to: to, includeHidden: includeHidden)
        let places = Dictionary(uniqueKeysWithValues: try await store.places(userID: userID).map { ($0.id, $0) })
        let devices = Dictionary(uniqueKeysWithValues: try await store.devices(userID: userID).map { ($0.id, $0.name) })
        return visits.map { stored in
            let zone = stored.visit.placemark?.timeZone == nil ? timeZones?.timeZone(at: stored.visit.center) : nil
            return JournalEntry(stored, place: stored.placeID.flatMap { places[$0] }, deviceName: devices[stored.visit.deviceID] ?? "",
                                placeTimeZone: zone)
        }
    }

    /// The person's trips in `[from, to)` (`personTrips`: devices carried together make one trip;
    /// distances from the fused track's ledger, the computation of the day's distance).
    public func trips(userID: UserID, from: Date?, to: Date?, builder: TripBuilder = TripBuilder(),
                      utcOffset: @escaping @Sendable (Location) -> Int = { $0.utcOffsetSeconds ?? 0 }) async throws -> [TripEntry] {
        try await personTrips(userID: userID, from: from, to: to, builder: builder, utcOffset: utcOffset)
    }

    /// The user's places with how often each was visited.
    public func places(userID: UserID) async throws -> [PlaceEntry] {
        let visits = try await shownVisits(userID: userID, from: nil, to: nil)
        return try await store.places(userID: userID).map { place in
            let own = visits.filter { $0.placeID == place.id }
            return PlaceEntry(id: place.id.rawValue, name: place.name ?? own.first.flatMap { JournalEntry.describedName($0.visit) },
                              latitude: place.center.latitude, longitude: place.center.longitude, radius: place.radiusMeters,
                              visits: own.count, lastVisit: own.map(\.visit.arrival).max().map { LocalTime.iso($0, in: nil) })
        }
    }

    /// Countries and cities visited in `[from, to)`, and local days spent in each country: the local
    /// days (in the place's zone) that a visit's portion inside the range touches, so a country
    /// never has more days than the range.
    public func whereabouts(userID: UserID, from: Date?, to: Date?) async throws -> Whereabouts {
        let visits = try await shownVisits(userID: userID, from: from, to: to)
        var daysByCountry: [String: Set<Int>] = [:]
        var cities: [String: Whereabouts.City] = [:]
        for stored in visits {
            guard let placemark = stored.visit.placemark, let country = placemark.isoCountryCode else { continue }
            guard let days = Self.localDays(of: stored, from: from, to: to) else { continue }
            daysByCountry[country, default: []].formUnion(days)
            let key = "\(placemark.name)|\(country)"
            cities[key, default: Whereabouts.City(name: placemark.name, administrativeArea: placemark.administrativeArea,
                                                   countryCode: country, visits: 0)].visits += 1
        }
        return Whereabouts(
            countries: daysByCountry.map { Whereabouts.Country(code: $0.key, days: $0.value.count) }
                .sorted { ($0.days, $1.code) > ($1.days, $0.code) },
            cities: cities.values.sorted { ($0.visits, $1.name) > ($1.visits, $0.name) })
    }
}

extension JournalReader {
    /// The local days (`LocalDay` indices, in the zone of the visit's placemark, else UTC) that the
    /// portion of a visit inside `[from, to)` touches: the evidence of a country's or a city's days.
    static func localDays(of stored: StoredVisit, from: Date?, to: Date?) -> ClosedRange<Int>? {
        let zone = stored.visit.placemark?.timeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
        // Only the portion of the visit inside the range is evidence for the range's days.
        let start = max(stored.visit.arrival, from ?? stored.visit.arrival)
        var end = stored.shownDeparture ?? stored.visit.arrival
        if let to, end >= to { end = to.addingTimeInterval(-0.001) }
        guard end >= start else { return nil }
        return LocalDay.index(start, in: zone)...LocalDay.index(end, in: zone)
    }
}

/// A trip as the journal shows it.
public struct TripEntry: Encodable, Hashable, Sendable {
    public var start: String
    public var end: String
    public var localStart: String
    public var localEnd: String
    public var fromVisit: Int64
    public var toVisit: Int64
    public var distanceMeters: Double
    public var durationSeconds: Double
    public var mode: String
    public var device: String
    /// The fixes of the trip, `[longitude, latitude]`, for drawing the line.
    public var coordinates: [[Double]]
    /// The device's id (not encoded: `device` names it): what a road match is filed under.
    public var deviceID: Int64 = 0
    /// `start` and `end` as times (not encoded).
    public var startTime: Date
    public var endTime: Date
    /// The trip matched to the roads in the background (``TripRoads``): metres along them, the
    /// street names in order and the matched line (a `[longitude, latitude]` polyline per piece);
    /// `nil` until matched, or when it is not.
    public var matchedDistance: Double?
    public var roads: [String]?
    public var matchedLine: [[[Double]]]?
    /// `matched`, `pending` (the background has not matched it yet) or `unmatched` (`roadsNote` says why).
    public var roadsStatus: String = TripRoads.Status.pending.rawValue
    public var roadsNote: String?

    /// - Parameter placeTimeZone: a place's zone for a visit stored without one (as its entry has it).
    init(_ trip: Trip, from origin: StoredVisit, to destination: StoredVisit, device: String, fixes: [Location],
         placeTimeZone: (StoredVisit) -> TimeZone? = { _ in nil }) {
        let zone = origin.visit.placemark?.timeZone.flatMap(TimeZone.init(identifier:)) ?? placeTimeZone(origin)
        let arrivalZone = destination.visit.placemark?.timeZone.flatMap(TimeZone.init(identifier:)) ?? placeTimeZone(destination) ?? zone
        startTime = trip.start
        endTime = trip.end
        start = LocalTime.iso(trip.start, in: nil)
        end = LocalTime.iso(trip.end, in: nil)
        localStart = LocalTime.iso(trip.start, in: zone)
        localEnd = LocalTime.iso(trip.end, in: arrivalZone)
        fromVisit = origin.id.rawValue
        toVisit = destination.id.rawValue
        distanceMeters = (trip.distanceMeters * 10).rounded() / 10
        durationSeconds = trip.durationSeconds
        mode = trip.mode.rawValue
        self.device = device
        coordinates = [[trip.origin.longitude, trip.origin.latitude]]
            + fixes.map { [$0.coordinate.longitude, $0.coordinate.latitude] }
            + [[trip.destination.longitude, trip.destination.latitude]]
    }

    enum CodingKeys: String, CodingKey {
        case start, end, localStart, localEnd, fromVisit, toVisit, distanceMeters, durationSeconds, mode, device, coordinates
        case matchedDistance, roads, matchedLine, roadsStatus, roadsNote
    }

    /// The road match's fields are written as `null` while there is none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(start, forKey: .start)
        try container.encode(end, forKey: .end)
        try container.encode(localStart, forKey: .localStart)
        try container.encode(localEnd, forKey: .localEnd)
        try container.encode(fromVisit, forKey: .fromVisit)
        try container.encode(toVisit, forKey: .toVisit)
        try container.encode(distanceMeters, forKey: .distanceMeters)
        try container.encode(durationSeconds, forKey: .durationSeconds)
        try container.encode(mode, forKey: .mode)
        try container.encode(device, forKey: .device)
        try container.encode(coordinates, forKey: .coordinates)
        try container.encode(matchedDistance, forKey: .matchedDistance)
        try container.encode(roads, forKey: .roads)
        try container.encode(matchedLine, forKey: .matchedLine)
        try container.encode(roadsStatus, forKey: .roadsStatus)
        try container.encode(roadsNote, forKey: .roadsNote)
    }
}

/// A place as the journal lists it.
public struct PlaceEntry: Encodable, Hashable, Sendable {
    public var id: Int64
    public var name: String?
    public var latitude: Double
    public var longitude: Double
    public var radius: Double
    public var visits: Int
    public var lastVisit: String?
}

/// Where someone has been.
public struct Whereabouts: Encodable, Hashable, Sendable {
    public struct Country: Encodable, Hashable, Sendable {
        public var code: String
        /// Local days with at least part of a visit there.
        public var days: Int
    }

    public struct City: Encodable, Hashable, Sendable {
        public var name: String
        public var administrativeArea: String?
        public var countryCode: String
        public var visits: Int
    }

    public var countries: [Country]
    public var cities: [City]
}

/// Local calendar days as integers (days since 1970-01-01 in the zone), across DST changes.
enum LocalDay {
    static func index(_ date: Date, in zone: TimeZone) -> Int {
        let local = date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))
        return Int((local / 86_400).rounded(.down))
    }
}

extension StoredVisit {
    /// The visits without those an earlier visit of the same device was merged over.
    /// - Parameter visits: in time order.
    /// - Complexity: O(n).
    static func shown(_ visits: [StoredVisit]) -> [StoredVisit] {
        var mergedUntil: [DeviceID: Date] = [:]
        return visits.filter { stored in
            let device = stored.visit.deviceID
            if let until = mergedUntil[device], stored.visit.arrival <= until { return false }
            if let until = stored.mergedUntil { mergedUntil[device] = until }
            return true
        }
    }
}
