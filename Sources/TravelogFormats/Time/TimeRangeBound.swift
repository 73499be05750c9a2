import Foundation
import TravelogCore

/// Reads the ends of a time range as people and URLs write them: a local day (`2024-03-01`) or an
/// ISO 8601 time. The command line's `--from/--to` and the HTTP API's `from`/`to` share it.
public enum TimeRangeBound {
    /// A day means its local midnight in `timeZone` (the next day's midnight when `endOfDay`, for an
    /// inclusive end); a time means itself (a time without a zone is read in `timeZone`).
    /// - Returns: `nil` when the text is neither.
    public static func parse(_ text: String, timeZone: TimeZone, endOfDay: Bool) -> Date? {
        if text.count == 10, let date = CivilDate(isoDate: text) {
            let days = date.daysSince1970 + (endOfDay ? 1 : 0)
            return localMidnight(daysSince1970: days, timeZone: timeZone)
        }
        guard let parsed = try? TimestampParser.parse(text, accepting: .calendar) else { return nil }
        if case .unspecified = parsed.zone {
            let naive = parsed.date
            return naive.addingTimeInterval(-Double(timeZone.secondsFromGMT(for: naive)))
        }
        return parsed.date
    }

    /// The instant a local day starts in a time zone (its offset at that moment, DST included).
    public static func localMidnight(daysSince1970 days: Int, timeZone: TimeZone) -> Date {
        let naive = Date(timeIntervalSince1970: Double(days) * 86_400)
        let guess = naive.addingTimeInterval(-Double(timeZone.secondsFromGMT(for: naive)))
        return naive.addingTimeInterval(-Double(timeZone.secondsFromGMT(for: guess)))
    }
}
