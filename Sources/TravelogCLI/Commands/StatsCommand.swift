import ArgumentParser
import Foundation
import TravelogCore
import TravelogStore

extension CalendarPeriod: ExpressibleByArgument {}

/// `travelog stats`
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Distance traveled and locations per day, week, month or year, in local time.",
        discussion: """
            Distance measures movement, not GPS noise: standing still with a jittering fix adds nothing. \
            Days are local: a location whose source wrote its time with an offset counts on the day of \
            that offset, others on the day of --timezone (default: the system's).
            """)

    enum UnitSystem: String, ExpressibleByArgument, CaseIterable {
        case metric, imperial
    }

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var account: AccountOptions
    @OptionGroup var range: TimeRangeOptions

    @Option(help: "Group by day, week (ISO), month or year.")
    var by: CalendarPeriod = .day

    @Option(help: "Kilometres (metric) or miles (imperial).")
    var units: UnitSystem = .metric

    @Option(help: ArgumentHelp("Only this device (repeat for several).", valueName: "name"))
    var device: [String] = []

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let store = try storeOptions.openStore()
        let user = try await account.resolveUser(in: store, createIfEmpty: false)
        let devices = try await account.devices(named: device, of: user, in: store)
        let timeZone = range.timeZone
        let box = StatisticsBox(TravelStatistics(period: by) { location in
            location.utcOffsetSeconds ?? timeZone.secondsFromGMT(for: location.timestamp)
        })
        for device in devices {
            let query = LocationQuery(userID: user.id, deviceIDs: [device.id], from: range.fromDate, to: range.toDate)
            try await store.forEachBatch(query, batchSize: 10_000) { batch in
                for stored in batch { box.statistics.ingest(stored.location, device: stored.deviceID.rawValue) }
            }
        }
        let periods = box.statistics.periods
        print(json ? Self.json(periods, total: box.statistics.total, units: units)
                   : Self.table(periods, total: box.statistics.total, units: units))
    }

    static func distance(_ meters: Double, _ units: UnitSystem) -> Double {
        units == .metric ? meters / 1000 : Units.miles(meters: meters)
    }

    static func table(_ periods: [TravelStatistics.Period], total: TravelStatistics.Period, units: UnitSystem) -> String {
        guard !periods.isEmpty else { return "No locations in this range." }
        let unit = units == .metric ? "km" : "mi"
        let rows = periods + [total]
        let labelWidth = max(6, rows.map(\.label.count).max() ?? 0)
        func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
            let padding = String(repeating: " ", count: max(0, width - text.count))
            return left ? text + padding : padding + text
        }
        var lines = [pad("period", labelWidth, left: true) + "  " + pad("distance", 12) + "  " + pad("locations", 10) + "  " + pad("days", 5)]
        for (index, row) in rows.enumerated() {
            if index == rows.count - 1 { lines.append(String(repeating: "-", count: labelWidth + 35)) }
            lines.append(pad(row.label, labelWidth, left: true) + "  "
                         + pad(String(format: "%.2f %@", distance(row.distanceMeters, units), unit), 12) + "  "
                         + pad(String(row.locationCount), 10) + "  " + pad(String(row.activeDays), 5))
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ periods: [TravelStatistics.Period], total: TravelStatistics.Period, units: UnitSystem) -> String {
        let iso = ISO8601DateFormatter()
        func object(_ period: TravelStatistics.Period) -> [String: Any] {
            [
                "period": period.label,
                "distanceMeters": (period.distanceMeters * 1000).rounded() / 1000,
                "distance": (distance(period.distanceMeters, units) * 1000).rounded() / 1000,
                "unit": units == .metric ? "km" : "mi",
                "locations": period.locationCount,
                "activeDays": period.activeDays,
                "first": period.first.map(iso.string(from:)) ?? NSNull(),
                "last": period.last.map(iso.string(from:)) ?? NSNull(),
            ]
        }
        let document: [String: Any] = ["periods": periods.map(object), "total": object(total)]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

/// The statistics, fed from the store's reading thread one batch at a time.
private final class StatisticsBox: @unchecked Sendable {
    var statistics: TravelStatistics
    init(_ statistics: TravelStatistics) { self.statistics = statistics }
}
