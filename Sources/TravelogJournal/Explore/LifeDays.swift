import Foundation
import TravelogCore
import TravelogStore

/// Every day of a history at once, compact, for the page's timeline of a life (a row per year, a
/// cell per day): parallel columns of the days with fixes, their distance (the statistics' local
/// days, ``TravelStatistics``) and fixes, and the countries of the journal's visits that day (the
/// days ``Whereabouts`` counts). `GET /api/v1/days` and `travelog explore --days` answer it.
public struct LifeDays: Encodable, Hashable, Sendable {
    /// `YYYY-MM-DD`, ascending: the days with fixes or with a visit.
    public var days: [String] = []
    /// Distance of each day, whole metres.
    public var distanceMeters: [Int] = []
    /// Fixes of each day.
    public var locations: [Int] = []
    /// The countries of each day's visits (ISO 3166-1 alpha-2, comma-separated; empty: none known).
    public var countries: [String] = []

    public init() {}

    /// Joins the statistics' days and the countries per day.
    /// - Parameters:
    ///   - periods: the statistics by day (labels `YYYY-MM-DD`).
    ///   - countriesByDay: days since 1970 → country codes (``JournalReader/countriesByDay(userID:from:to:)``).
    public init(periods: [TravelStatistics.Period], countriesByDay: [Int: Set<String>]) {
        var rows: [Int: (meters: Double, locations: Int)] = [:]
        for period in periods where period.locationCount > 0 {
            guard let date = CivilDate(isoDate: period.label) else { continue }
            rows[date.daysSince1970] = (period.distanceMeters, period.locationCount)
        }
        for day in Set(rows.keys).union(countriesByDay.keys).sorted() {
            days.append(CivilDate(daysSince1970: day).description)
            distanceMeters.append(Int((rows[day]?.meters ?? 0).rounded()))
            locations.append(rows[day]?.locations ?? 0)
            countries.append((countriesByDay[day] ?? []).sorted().joined(separator: ","))
        }
    }
}

extension JournalReader {
    /// The countries of the journal's shown visits per local day (days since 1970 in the visit's
    /// zone): the evidence ``whereabouts(userID:from:to:)`` counts, day by day.
    public func countriesByDay(userID: UserID, from: Date?, to: Date?) async throws -> [Int: Set<String>] {
        var found: [Int: Set<String>] = [:]
        for stored in try await shownVisits(userID: userID, from: from, to: to) {
            guard let country = stored.visit.placemark?.isoCountryCode, let days = Self.localDays(of: stored, from: from, to: to) else { continue }
            for day in days { found[day, default: []].insert(country) }
        }
        return found
    }
}
