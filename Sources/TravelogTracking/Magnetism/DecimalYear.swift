import Foundation

/// Dates as decimal years, the World Magnetic Model's time scale: the year plus the fraction of
/// it that has passed (UTC), counting 365 or 366 days as the year has (NOAA's `MAG_DateToYear`).
public enum DecimalYear {
    /// The decimal year of an instant, e.g. 2025-07-02T12:00Z → 2025.5.
    public static func of(_ date: Date) -> Double {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let year = calendar.component(.year, from: date)
        let start = calendar.date(from: DateComponents(year: year, month: 1, day: 1))!
        let end = calendar.date(from: DateComponents(year: year + 1, month: 1, day: 1))!
        return Double(year) + date.timeIntervalSince(start) / end.timeIntervalSince(start)
    }

    /// The decimal year of a calendar day at 00:00 UTC (year, month 1–12, day 1–31).
    public static func of(year: Int, month: Int, day: Int) -> Double? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: day)
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else { return nil }
        return of(date)
    }
}
