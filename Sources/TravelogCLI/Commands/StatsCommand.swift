import ArgumentParser
import Foundation
import TravelogCore
import TravelogImport
import TravelogJournal
import TravelogStore

extension CalendarPeriod: ExpressibleByArgument {}

/// `travelog stats`
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Distance traveled and locations per day, week, month or year, in local time.",
        discussion: """
            Distance measures movement, not GPS noise: standing still with a jittering fix adds nothing. \
            A silence of more than 18 hours is a gap: a move across it is not distance but unrecorded \
            movement, shown beside it (how many, and the straight lines). \
            Days are local to where each fix was: a day in Tokyo is a Tokyo day, across daylight-saving \
            changes (time zones from the time-zone boundaries, `make timezones`, else from the nearest gazetteer place). Without a gazetteer, a location whose source \
            wrote an offset counts on that offset's day, others on the day of --timezone (default: the system's).
            """)

    typealias UnitSystem = HistoryStatistics.UnitSystem

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var account: AccountOptions
    @OptionGroup var range: TimeRangeOptions
    @OptionGroup var gazetteerOptions: GazetteerOptions
    @Option(name: .customLong("osm-dir"), help: ArgumentHelp(
        "The folder of OSM places files that name the journal's points of interest and addresses (default: as `travelog osm`).",
        valueName: "path"))
    var osmDirectory: String?

    @Option(help: "Group by day, week (ISO), month or year.")
    var by: CalendarPeriod = .day

    @Option(help: "Kilometres (metric) or miles (imperial).")
    var units: UnitSystem = .metric

    @Option(help: ArgumentHelp("Only this device (repeat for several).", valueName: "name"))
    var device: [String] = []

    @Flag(help: "Print JSON.")
    var json = false

    @Flag(help: "Where you were instead: countries with local days, and cities visited (from the journal).")
    var whereabouts = false

    func run() async throws {
        let store = try await storeOptions.openStore()
        let user = try await account.resolveUser(in: store, createIfEmpty: false)
        let devices = try await account.devices(named: device, of: user, in: store)
        if whereabouts {
            let processor = JournalProcessor(store: store, describer: gazetteerOptions.describer(osmFolder: osmDirectory))
            for device in devices {
                _ = try await processor.process(device: device, from: try await store.latestDetectedArrival(device: device), to: nil)
            }
            let found = try await JournalReader(store: store).whereabouts(userID: user.id, from: range.fromDate, to: range.toDate)
            if json {
                print(try JournalOutput.json(found))
            } else {
                print("countries: " + (found.countries.isEmpty ? "none" : found.countries.map { "\($0.code) (\($0.days) \($0.days == 1 ? "day" : "days"))" }.joined(separator: ", ")))
                print("cities: " + (found.cities.isEmpty ? "none" : found.cities.map { "\($0.name) (\($0.visits))" }.joined(separator: ", ")))
            }
            return
        }
        // Days are the local days of where each fix was, when the gazetteer is there to say.
        var placeOffset: (@Sendable (Location) -> Int?)?
        if let gazetteer = try? gazetteerOptions.load() {
            let zones = PlaceTimeZones(describer: GazetteerDescriber(gazetteer: gazetteer), boundaries: gazetteerOptions.timeZoneBoundaries())
            placeOffset = { zones.offsetSeconds(for: $0) }
        } else {
            FileHandle.standardError.write(Data("note: no gazetteer, so days follow the offset each source wrote, else --timezone\n".utf8))
        }
        let (periods, total) = try await HistoryStatistics.compute(
            store: store, userID: user.id, devices: devices, from: range.fromDate, to: range.toDate,
            period: by, timeZone: range.timeZone, placeOffsetSeconds: placeOffset)
        print(json ? String(decoding: HistoryStatistics.json(periods, total: total, units: units), as: UTF8.self)
                   : Self.table(periods, total: total, units: units))
    }

    static func distance(_ meters: Double, _ units: UnitSystem) -> Double {
        units.distance(meters: meters)
    }

    static func table(_ periods: [TravelStatistics.Period], total: TravelStatistics.Period, units: UnitSystem) -> String {
        guard !periods.isEmpty else { return "No locations in this range." }
        let unit = units.distanceUnit
        let rows = periods + [total]
        let labelWidth = max(6, rows.map(\.label.count).max() ?? 0)
        func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
            let padding = String(repeating: " ", count: max(0, width - text.count))
            return left ? text + padding : padding + text
        }
        func unrecorded(_ movement: UnrecordedMovement) -> String {
            // "35 × 141934.83 km" read as a product: say what each number counts.
            movement.count == 0 ? ""
                : String(format: "%.2f %@ over %d %@", distance(movement.straightLineMeters, units), unit, movement.count,
                         movement.count == 1 ? "gap" : "gaps")
        }
        var lines = [pad("period", labelWidth, left: true) + "  " + pad("distance", 12) + "  " + pad("locations", 10) + "  "
                     + pad("days", 5) + "  unrecorded movement (across gaps, straight line)"]
        for (index, row) in rows.enumerated() {
            if index == rows.count - 1 { lines.append(String(repeating: "-", count: labelWidth + 35)) }
            lines.append(pad(row.label, labelWidth, left: true) + "  "
                         + pad(String(format: "%.2f %@", distance(row.distanceMeters, units), unit), 12) + "  "
                         + pad(String(row.locationCount), 10) + "  " + pad(String(row.activeDays), 5) + "  "
                         + unrecorded(row.unrecordedMovement))
        }
        return lines.map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }.joined(separator: "\n")
    }
}

extension HistoryStatistics.UnitSystem: ExpressibleByArgument {}
