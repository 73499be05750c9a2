import Foundation
import TravelogCore

/// A year (`2025`) or a month (`2025-07`) to look back at: what `travelog review` and
/// `GET /api/v1/review?period=` take.
public struct ReviewPeriod: Hashable, Sendable, CustomStringConvertible {
    public let year: Int
    /// 1…12, or `nil` for the whole year.
    public let month: Int?

    /// - Throws: ``ReviewPeriodError`` unless the text is `YYYY` or `YYYY-MM` (year 1970…9999).
    public init(parsing text: String) throws(ReviewPeriodError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts[0].count == 4, parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), (1970...9999).contains(year) else { throw .malformed(text) }
        var month: Int?
        if parts.count == 2 {
            guard parts[1].count == 2, let value = Int(parts[1]), (1...12).contains(value) else { throw .malformed(text) }
            month = value
        }
        self.year = year
        self.month = month
    }

    public init(year: Int, month: Int? = nil) {
        self.year = year
        self.month = month
    }

    /// `2025` or `2025-07`.
    public var description: String { month.map { String(format: "%04d-%02d", year, $0) } ?? String(format: "%04d", year) }

    /// The first local day and the day after the last.
    public var days: (first: CivilDate, end: CivilDate) {
        let first = CivilDate(year: year, month: month ?? 1, day: 1)!
        let end = month.map { first.adding(days: CivilDate.daysInMonth(year: year, month: $0)) }
            ?? CivilDate(year: year + 1, month: 1, day: 1)!
        return (first, end)
    }

    /// The period's instants in a zone: its first local midnight and the one after it.
    /// The period's local days as `CivilDate.daysSince1970`, first to last.
    public var dayIndices: ClosedRange<Int> { days.first.daysSince1970...(days.end.daysSince1970 - 1) }

    public func range(in zone: TimeZone) -> (from: Date, to: Date) {
        (Self.midnight(days.first, in: zone), Self.midnight(days.end, in: zone))
    }

    /// The period just before this one (the year before, or the month before).
    public var previous: ReviewPeriod {
        guard let month else { return ReviewPeriod(year: year - 1) }
        return month == 1 ? ReviewPeriod(year: year - 1, month: 12) : ReviewPeriod(year: year, month: month - 1)
    }

    /// Whether a local day (`YYYY-MM-DD`) lies in the period.
    public func contains(day label: String) -> Bool { label.hasPrefix(description + "-") }

    static func midnight(_ day: CivilDate, in zone: TimeZone) -> Date {
        let guess = Date(timeIntervalSince1970: Double(day.daysSince1970) * 86_400)
        // The offset at the guess, then at the corrected instant (a change of offset that night).
        let first = guess.addingTimeInterval(-Double(zone.secondsFromGMT(for: guess)))
        return guess.addingTimeInterval(-Double(zone.secondsFromGMT(for: first)))
    }
}

/// A period that is not `YYYY` or `YYYY-MM`.
public enum ReviewPeriodError: Error, Hashable, Sendable, CustomStringConvertible {
    case malformed(String)

    public var description: String {
        switch self {
        case .malformed(let text):
            "period '\(text.prefix(40))': expected a year (2025) or a month (2025-07), from 1970"
        }
    }
}
