import Foundation
import TravelogCore
import TravelogStore

/// Computes a ``PeriodReview`` from the store: the period's local days (distance, fixes, the
/// furthest point), the journal's visits, and the trips a week at a time.
///
/// A day's figures depend on that day's fixes only (`TravelStatistics`), and a week's trips on its
/// fixes and visits, so both are kept in the store (``FigureCacheStore``) under a digest of their
/// inputs (the fixes per device and UTC day around them with their deletions, the visits, the
/// zones) and a review reads the fixes of the days whose digest moved, not the year's
/// (``PeriodReviewDays``). Each day keeps the corners of its fixes' convex hull, among which lies
/// its furthest fix from any home.
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
    /// What `utcOffset` is made of (the person's zone, the place zones' source), in the kept
    /// figures' digest: other zones give other days.
    public let offsetIdentity: String

    public init(reader: JournalReader, photos: (any PhotoStore)? = nil, timeZone: TimeZone,
                utcOffset: @escaping @Sendable (Location) -> Int, offsetIdentity: String? = nil) {
        self.reader = reader
        self.photos = photos
        self.timeZone = timeZone
        self.utcOffset = utcOffset
        self.offsetIdentity = offsetIdentity ?? timeZone.identifier
    }

    /// The lines of the period's fixes, per device, thinned to ``lineStepMeters`` and broken at
    /// silences of an hour: what the review's image draws.
    public struct Lines: Sendable {
        public var byDevice: [DeviceID: [[Coordinate]]] = [:]
        public var pointCount: Int { byDevice.values.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } } }
    }

    /// The review of a user's period, and the lines of its fixes when `lines` is true.
    /// - Parameter useKept: read and keep figures in the store (``FigureCacheStore``); `false`
    ///   computes everything from the fixes (what a test compares the kept figures with).
    /// - Complexity: the fixes of the local days and weeks whose inputs changed since they were
    ///   kept (their lines too with `lines`), and the user's visits up to the period's end.
    public func review(userID: UserID, period: ReviewPeriod, lines: Bool = false,
                       useKept: Bool = true) async throws -> (PeriodReview, Lines) {
        let (from, to) = period.range(in: timeZone)
        let store = reader.store
        let allVisits = try await reader.shownVisits(userID: userID, from: nil, to: to)
        let placesByID = Dictionary(uniqueKeysWithValues: try await store.places(userID: userID).map { ($0.id, $0) })
        let found = Self.home(visits: allVisits, places: placesByID, until: to)
        let home = found?.home
        let homePoint = home.map { Coordinate(validLatitude: $0.latitude, longitude: $0.longitude)! }
        let localDays = period.dayIndices
        let days = try await PeriodReviewDays(builder: self, userID: userID, kept: useKept ? store as? any FigureCacheStore : nil,
                                              around: localDays)

        // The trips (their own reads, a week at a time) while the days are read.
        async let trips = tripFigures(from: from, to: to, period: period, days: days)
        let (figures, lineSet) = try await days.figures(localDays, lines: lines)
        let active = localDays.compactMap { day in figures[day].flatMap { $0.locations > 0 ? (day: day, figures: $0) : nil } }
        let total = active.reduce(0) { $0 + $1.figures.distanceMeters }

        var review = PeriodReview(
            period: period.description, firstDay: period.days.first.description,
            lastDay: period.days.end.adding(days: -1).description,
            distanceMeters: Self.rounded(total), locations: active.reduce(0) { $0 + $1.figures.locations },
            activeDays: PeriodReview.Count(count: active.count, days: active.map { CivilDate(daysSince1970: $0.day).description }),
            distanceByMode: [], countries: [], cities: [], home: home, daysAway: nil, longestTrip: nil, places: [],
            furthestFromHome: nil, busiestDay: nil, photos: nil)
        if let busiest = active.max(by: { ($0.figures.distanceMeters, $1.day) < ($1.figures.distanceMeters, $0.day) }),
           busiest.figures.distanceMeters > 0 {
            review.busiestDay = PeriodReview.Day(distanceMeters: Self.rounded(busiest.figures.distanceMeters),
                                                 locations: busiest.figures.locations,
                                                 days: [CivilDate(daysSince1970: busiest.day).description])
        }
        if let homePoint, let far = days.furthest(from: homePoint, figures: figures) {
            let exact = far.coordinate.distanceMeters(to: homePoint)
            review.furthestFromHome = PeriodReview.Point(
                latitude: far.coordinate.latitude, longitude: far.coordinate.longitude,
                distanceMeters: Self.rounded(exact), time: LocalTime.iso(far.time, in: nil),
                days: [CivilDate(daysSince1970: far.day).description])
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
        return (review, lineSet)
    }

    /// Makes sure the period's days (with their lines) and weeks of trips are kept and current, without
    /// computing the review: what the server's background keeper runs. - Complexity: the fixes of
    /// the days and weeks whose inputs changed; the kept lines are not decoded.
    public func keep(userID: UserID, period: ReviewPeriod) async throws {
        let (from, to) = period.range(in: timeZone)
        let localDays = period.dayIndices
        guard let kept = reader.store as? any FigureCacheStore else { return }
        let days = try await PeriodReviewDays(builder: self, userID: userID, kept: kept, around: localDays)
        _ = try await days.figures(localDays, lines: true, decodeLines: false)
        _ = try await days.trips(from: from, to: to)
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
        .sorted { ($0.visits, $0.days.count, $1.name, $1.countryCode) > ($1.visits, $1.days.count, $0.name, $0.countryCode) }
        // Places of one name (several "Berlin, DE") in the order they were made: the same every time.
        review.places = placeDays.compactMap { id, value -> (id: Int64, place: PeriodReview.Place)? in
            guard let place = places[id] else { return nil }
            let name = place.name ?? visits.first { $0.placeID == id }.flatMap { JournalEntry.describedName($0.visit) } ?? "Place \(id)"
            return (id.rawValue, PeriodReview.Place(name: name, visits: value.visits, latitude: place.center.latitude,
                                                    longitude: place.center.longitude, days: labels(value.days)))
        }
        .sorted { ($0.place.visits, $0.place.days.count, $1.place.name, $1.id) > ($1.place.visits, $1.place.days.count, $0.place.name, $0.id) }
        .prefix(Self.placeCount).map(\.place)
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

    func tripFigures(from: Date, to: Date, period: ReviewPeriod, days: PeriodReviewDays) async throws
        -> ([PeriodReview.ModeDistance], PeriodReview.Trip?) {
        var byMode: [String: (meters: Double, trips: Int, days: Set<String>)] = [:]
        var longest: PeriodReviewDays.TripFigure?
        for trip in try await days.trips(from: from, to: to) {
            let day = String(trip.localStart.prefix(10))
            byMode[trip.mode, default: (0, 0, [])].meters += trip.distanceMeters
            byMode[trip.mode]?.trips += 1
            if period.contains(day: day) { byMode[trip.mode]?.days.insert(day) }
            if longest.map({ trip.distanceMeters > $0.distanceMeters }) ?? true { longest = trip }
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
