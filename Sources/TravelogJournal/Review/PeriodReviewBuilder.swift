import Foundation
import TravelogCore
import TravelogStore

/// Computes a ``PeriodReview`` from the store, streaming the period's fixes once for the distance,
/// the days and the furthest point (memory: the days, the fusion window and the thinned lines, not
/// the fixes), reading the journal's visits, and the trips a week at a time (a week's distance
/// ledger at most in memory) beside the stream, as a second reader.
public struct PeriodReviewBuilder: Sendable {
    /// How many of the most visited places are listed.
    public static let placeCount = 5
    /// Days of trips read together (plus ``tripMarginDays`` on each side, so a trip that began in
    /// the week is found whole).
    static let tripChunkDays = 7
    static let tripMarginDays = 2
    /// The lines drawn keep a fix only this far from the one kept before, metres.
    public static let lineStepMeters = 25.0
    /// A silence longer than this breaks a drawn line, seconds.
    static let lineGapSeconds = 3600.0
    /// The local hour at which a place that holds the person counts a night there.
    static let nightHour = 3

    public let reader: JournalReader
    public let photos: (any PhotoStore)?
    /// The zone of the period's bounds (the person's zone).
    public let timeZone: TimeZone
    /// The local offset of a fix's day, as the statistics read it (`HistoryStatistics.localOffset`).
    public let utcOffset: @Sendable (Location) -> Int

    public init(reader: JournalReader, photos: (any PhotoStore)? = nil, timeZone: TimeZone,
                utcOffset: @escaping @Sendable (Location) -> Int) {
        self.reader = reader
        self.photos = photos
        self.timeZone = timeZone
        self.utcOffset = utcOffset
    }

    /// The lines of the period's fixes, per device, thinned to ``lineStepMeters`` and broken at
    /// silences of an hour: what the review's image draws.
    public struct Lines: Sendable {
        public var byDevice: [DeviceID: [[Coordinate]]] = [:]
        public var pointCount: Int { byDevice.values.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } } }
    }

    /// The review of a user's period, and the lines of its fixes when `lines` is true.
    /// - Complexity: one read of the period's fixes, one more of its trips' (in weeks), and the
    ///   user's visits up to the period's end.
    public func review(userID: UserID, period: ReviewPeriod, lines: Bool = false) async throws -> (PeriodReview, Lines) {
        let (from, to) = period.range(in: timeZone)
        let store = reader.store
        let allVisits = try await reader.shownVisits(userID: userID, from: nil, to: to)
        let placesByID = Dictionary(uniqueKeysWithValues: try await store.places(userID: userID).map { ($0.id, $0) })
        let found = Self.home(visits: allVisits, places: placesByID, until: to)
        let home = found?.home

        // The trips (their own reads, a week at a time) while the fixes stream: two readers at once.
        async let trips = tripFigures(userID: userID, from: from, to: to, period: period)
        // One pass over the fixes: the days' distance, the furthest point, the lines.
        let pass = ReviewPass(statistics: TravelStatistics(period: .day, utcOffset: utcOffset),
                              home: home.map { Coordinate(validLatitude: $0.latitude, longitude: $0.longitude)! }, lines: lines)
        try await store.forEachFusedBatch(LocationQuery(userID: userID, from: from, to: to), utcOffset: utcOffset) { batch in
            for fused in batch { pass.add(fused) }
        }
        let days = pass.statistics.periods.filter { period.contains(day: $0.label) }
        let total = days.reduce(0) { $0 + $1.distanceMeters }

        var review = PeriodReview(
            period: period.description, firstDay: period.days.first.description,
            lastDay: period.days.end.adding(days: -1).description,
            distanceMeters: Self.rounded(total), locations: days.reduce(0) { $0 + $1.locationCount },
            activeDays: PeriodReview.Count(count: days.count, days: days.map(\.label)),
            distanceByMode: [], countries: [], cities: [], home: home, daysAway: nil, longestTrip: nil, places: [],
            furthestFromHome: nil, busiestDay: nil, photos: nil)
        if let busiest = days.max(by: { ($0.distanceMeters, $1.label) < ($1.distanceMeters, $0.label) }), busiest.distanceMeters > 0 {
            review.busiestDay = PeriodReview.Day(distanceMeters: Self.rounded(busiest.distanceMeters), locations: busiest.locationCount,
                                                 days: [busiest.label])
        }
        if let home, let far = pass.furthest {
            let exact = far.location.coordinate.distanceMeters(to: Coordinate(validLatitude: home.latitude, longitude: home.longitude)!)
            let day = CivilDate(secondsSince1970: far.location.timestamp.timeIntervalSince1970, utcOffsetSeconds: utcOffset(far.location))
            review.furthestFromHome = PeriodReview.Point(
                latitude: far.location.coordinate.latitude, longitude: far.location.coordinate.longitude,
                distanceMeters: Self.rounded(exact), time: LocalTime.iso(far.location.timestamp, in: nil), days: [day.description])
        }
        addVisitFigures(to: &review, visits: allVisits, places: placesByID, home: found?.place, from: from, to: to, period: period)
        (review.distanceByMode, review.longestTrip) = try await trips
        if let photos {
            let taken = try await photos.photos(PhotoQuery(userID: userID, from: from, to: to))
            if !taken.isEmpty {
                let dates = Set(taken.compactMap(\.record.takenAt).map { Self.day($0, in: timeZone) })
                review.photos = PeriodReview.Count(count: taken.count, days: dates.sorted())
            }
        }
        return (review, pass.lineSet)
    }

    // MARK: Visits: countries, cities, places, days away

    func addVisitFigures(to review: inout PeriodReview, visits: [StoredVisit], places: [PlaceID: StoredPlace],
                         home: PlaceID?, from: Date, to: Date, period: ReviewPeriod) {
        var seenCountries = Set<String>(), seenCities = Set<String>()
        var countryDays: [String: Set<Int>] = [:]
        var cityDays: [String: (city: PeriodReview.City, days: Set<Int>)] = [:]
        var placeDays: [PlaceID: (visits: Int, days: Set<Int>)] = [:]
        var homeDays = Set<Int>()
        for stored in visits {
            let placemark = stored.visit.placemark
            let cityKey = placemark.map { "\($0.name)|\($0.isoCountryCode ?? "")" }
            if JournalReader.localDays(of: stored, from: nil, to: from) != nil {
                if let country = placemark?.isoCountryCode { seenCountries.insert(country) }
                if let cityKey { seenCities.insert(cityKey) }
            }
            guard let days = JournalReader.localDays(of: stored, from: from, to: to) else { continue }
            if let placeID = stored.placeID {
                placeDays[placeID, default: (0, [])].visits += 1
                placeDays[placeID]?.days.formUnion(days)
                if placeID == home { homeDays.formUnion(days) }
            }
            guard let placemark, let country = placemark.isoCountryCode, let cityKey else { continue }
            countryDays[country, default: []].formUnion(days)
            cityDays[cityKey, default: (PeriodReview.City(name: placemark.name, countryCode: country, visits: 0, new: false, days: []), [])]
                .city.visits += 1
            cityDays[cityKey]?.days.formUnion(days)
        }
        let labels = { (days: Set<Int>) in days.sorted().map { CivilDate(daysSince1970: $0).description }.filter(period.contains(day:)) }
        review.countries = countryDays.map { PeriodReview.Country(code: $0.key, new: !seenCountries.contains($0.key), days: labels($0.value)) }
            .filter { !$0.days.isEmpty }
            .sorted { ($0.days.count, $1.code) > ($1.days.count, $0.code) }
        review.cities = cityDays.map { key, value in
            var city = value.city
            city.new = !seenCities.contains(key)
            city.days = labels(value.days)
            return city
        }
        .filter { !$0.days.isEmpty }
        .sorted { ($0.visits, $0.days.count, $1.name) > ($1.visits, $1.days.count, $0.name) }
        review.places = placeDays.compactMap { id, value -> PeriodReview.Place? in
            guard let place = places[id] else { return nil }
            let name = place.name ?? visits.first { $0.placeID == id }.flatMap { JournalEntry.describedName($0.visit) } ?? "Place \(id)"
            return PeriodReview.Place(name: name, visits: value.visits, latitude: place.center.latitude,
                                      longitude: place.center.longitude, days: labels(value.days))
        }
        .sorted { ($0.visits, $0.days.count, $1.name) > ($1.visits, $1.days.count, $0.name) }
        .prefix(Self.placeCount).map { $0 }
        if home != nil {
            let away = review.activeDays.days.filter { !homeDays.contains(CivilDate(isoDate: $0)?.daysSince1970 ?? .min) }
            review.daysAway = PeriodReview.Count(count: away.count, days: away)
        }
    }

    /// The place that held the person at ``nightHour`` local on most days of the 365 before `until`.
    static func home(visits: [StoredVisit], places: [PlaceID: StoredPlace], until: Date) -> (place: PlaceID, home: PeriodReview.Home)? {
        let since = until.addingTimeInterval(-365 * 86_400)
        var nights: [PlaceID: Set<Int>] = [:]
        for stored in visits {
            guard let placeID = stored.placeID, let days = JournalReader.localDays(of: stored, from: since, to: until) else { continue }
            let zone = stored.visit.placemark?.timeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
            let departure = stored.shownDeparture ?? stored.visit.arrival
            for day in days {
                let night = ReviewPeriod.midnight(CivilDate(daysSince1970: day), in: zone).addingTimeInterval(Double(nightHour) * 3600)
                if stored.visit.arrival <= night && night <= departure { nights[placeID, default: []].insert(day) }
            }
        }
        guard let best = nights.max(by: { ($0.value.count, $1.key) < ($1.value.count, $0.key) }), let place = places[best.key]
        else { return nil }
        let name = place.name ?? visits.first { $0.placeID == best.key }.flatMap { JournalEntry.describedName($0.visit) } ?? "Home"
        return (best.key, PeriodReview.Home(name: name, latitude: place.center.latitude, longitude: place.center.longitude,
                                            nights: best.value.count))
    }

    // MARK: Trips: distance by mode, the longest

    func tripFigures(userID: UserID, from: Date, to: Date, period: ReviewPeriod) async throws
        -> ([PeriodReview.ModeDistance], PeriodReview.Trip?) {
        var byMode: [String: (meters: Double, trips: Int, days: Set<String>)] = [:]
        var longest: TripEntry?
        var chunkStart = from
        while chunkStart < to {
            let chunkEnd = min(to, chunkStart.addingTimeInterval(Double(Self.tripChunkDays) * 86_400))
            let margin = Double(Self.tripMarginDays) * 86_400
            let trips = try await reader.trips(userID: userID, from: chunkStart.addingTimeInterval(-margin),
                                               to: chunkEnd.addingTimeInterval(margin), utcOffset: utcOffset)
            for var trip in trips where trip.startTime >= chunkStart && trip.startTime < chunkEnd {
                trip.coordinates = []
                let day = String(trip.localStart.prefix(10))
                byMode[trip.mode, default: (0, 0, [])].meters += trip.distanceMeters
                byMode[trip.mode]?.trips += 1
                if period.contains(day: day) { byMode[trip.mode]?.days.insert(day) }
                if longest.map({ trip.distanceMeters > $0.distanceMeters }) ?? true { longest = trip }
            }
            chunkStart = chunkEnd
        }
        let modes = byMode.map { PeriodReview.ModeDistance(mode: $0.key, distanceMeters: Self.rounded($0.value.meters),
                                                           trips: $0.value.trips, days: $0.value.days.sorted()) }
            .sorted { ($0.distanceMeters, $1.mode) > ($1.distanceMeters, $0.mode) }
        guard let longest else { return (modes, nil) }
        let first = String(longest.localStart.prefix(10)), last = String(longest.localEnd.prefix(10))
        return (modes, PeriodReview.Trip(distanceMeters: longest.distanceMeters, durationSeconds: longest.durationSeconds,
                                         mode: longest.mode, start: longest.localStart, end: longest.localEnd,
                                         days: first == last ? [first] : [first, last]))
    }

    static func rounded(_ meters: Double) -> Double { (meters * 10).rounded() / 10 }

    static func day(_ date: Date, in zone: TimeZone) -> String {
        CivilDate(secondsSince1970: date.timeIntervalSince1970, utcOffsetSeconds: zone.secondsFromGMT(for: date)).description
    }
}

/// The single pass's state, touched only from the store's reading thread, one batch at a time.
private final class ReviewPass: @unchecked Sendable {
    var statistics: TravelStatistics
    let home: Coordinate?
    let collectLines: Bool
    /// The fix furthest from home by the haversine fast path (its exact distance is taken at the end).
    var furthest: (location: Location, meters: Double)?
    var lineSet = PeriodReviewBuilder.Lines()
    private var lastKept: [Int64: Location] = [:]
    private var lastSeen: [Int64: Date] = [:]

    init(statistics: TravelStatistics, home: Coordinate?, lines: Bool) {
        self.statistics = statistics
        self.home = home
        collectLines = lines
    }

    func add(_ fused: TrackFusion.Fused) {
        let location = fused.fix.location
        statistics.ingest(location, device: fused.lane)
        if let home {
            let meters = location.coordinate.haversineDistanceMetersApproximate(to: home)
            if meters > furthest?.meters ?? -1 { furthest = (location, meters) }
        }
        guard collectLines else { return }
        let device = DeviceID(rawValue: fused.fix.device)
        let seen = lastSeen.updateValue(location.timestamp, forKey: fused.fix.device)
        if let last = lastKept[fused.fix.device], let seen {
            if location.timestamp.timeIntervalSince(seen) > PeriodReviewBuilder.lineGapSeconds {
                lineSet.byDevice[device, default: []].append([location.coordinate])
            } else if location.coordinate.haversineDistanceMetersApproximate(to: last.coordinate) >= PeriodReviewBuilder.lineStepMeters {
                lineSet.byDevice[device]![lineSet.byDevice[device]!.count - 1].append(location.coordinate)
            } else {
                return
            }
        } else {
            lineSet.byDevice[device, default: []].append([location.coordinate])
        }
        lastKept[fused.fix.device] = location
    }
}
