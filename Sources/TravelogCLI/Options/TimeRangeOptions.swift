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

    static func parse(_ text: String, timeZone: TimeZone, endOfDay: Bool) -> Date? {
        TimeRangeBound.parse(text, timeZone: timeZone, endOfDay: endOfDay)
    }
}
