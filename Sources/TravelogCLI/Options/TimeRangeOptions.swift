import ArgumentParser
import Foundation
import TravelogCore
import TravelogFormats

/// `--from`, `--to` and `--timezone`, shared by the commands that read a stretch of history.
struct TimeRangeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Start: a local day (YYYY-MM-DD) or an ISO 8601 time.", valueName: "date"))
    var from: String?

    @Option(help: ArgumentHelp("End: a local day (inclusive) or an ISO 8601 time (exclusive).", valueName: "date"))
    var to: String?

    @Option(help: ArgumentHelp(
        "The time zone for days, as an IANA name such as Europe/Berlin.",
        discussion: "Default: the system's. A location whose source wrote its time with an offset is counted on the day of that offset.",
        valueName: "zone"))
    var timezone: String?

    func validate() throws {
        if let timezone, TimeZone(identifier: timezone) == nil {
            throw ValidationError("'\(timezone)' is not a time zone: expected an IANA name such as Europe/Berlin or UTC")
        }
        for text in [from, to].compactMap({ $0 }) where Self.parse(text, timeZone: .current, endOfDay: false) == nil {
            throw ValidationError(CLIError.invalidDate(text).description)
        }
    }

    /// The time zone for days without an offset of their own.
    var timeZone: TimeZone { timezone.flatMap(TimeZone.init(identifier:)) ?? .current }

    var fromDate: Date? { from.flatMap { Self.parse($0, timeZone: timeZone, endOfDay: false) } }
    var toDate: Date? { to.flatMap { Self.parse($0, timeZone: timeZone, endOfDay: true) } }

    /// A day means its local midnight (the next day's for an inclusive end); a time means itself
    /// (a time without a zone is read in `timeZone`).
    static func parse(_ text: String, timeZone: TimeZone, endOfDay: Bool) -> Date? {
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
    static func localMidnight(daysSince1970 days: Int, timeZone: TimeZone) -> Date {
        let naive = Date(timeIntervalSince1970: Double(days) * 86_400)
        let guess = naive.addingTimeInterval(-Double(timeZone.secondsFromGMT(for: naive)))
        return naive.addingTimeInterval(-Double(timeZone.secondsFromGMT(for: guess)))
    }
}
