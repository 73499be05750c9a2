import ArgumentParser
import Foundation
import TravelogCore
import TravelogImport
import TravelogJournal
import TravelogStore

/// What the journal commands share: the store, the user, the range, and bringing the journal up
/// to date before reading it.
struct JournalOptions: ParsableArguments {
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var account: AccountOptions
    @OptionGroup var gazetteerOptions: GazetteerOptions
    @Option(name: .customLong("osm-dir"), help: ArgumentHelp(
        "The folder of OSM places files that name the journal's points of interest and addresses (default: as `travelog osm`).",
        valueName: "path"))
    var osmDirectory: String?

    func open() async throws -> (any TravelogStore, User) {
        let store = try await storeOptions.openStore()
        return (store, try await account.resolveUser(in: store, createIfEmpty: false))
    }

    /// Brings each device's journal up to date without re-processing its history: `travelog
    /// import` and the server process what they store, so only the stretch from the device's latest
    /// detected visit on is read again (the whole history of a device that has none yet). The
    /// result equals processing everything, since detection depends only on the fixes. Entries
    /// stored before the gazetteer was there are described now, as the server does on its start.
    /// - Returns: the places' time zones, for entries that have none (nil without a gazetteer).
    @discardableResult
    func update(_ store: any TravelogStore, user: User) async throws -> PlaceTimeZones? {
        let describer = gazetteerOptions.describer(osmFolder: osmDirectory)
        let processor = JournalProcessor(store: store, describer: describer)
        for device in try await store.devices(userID: user.id) {
            let latest = try await store.latestDetectedArrival(device: device)
            _ = try await processor.process(device: device, from: latest, to: nil)
        }
        try await processor.describeStale(userID: user.id)
        return describer.map { PlaceTimeZones(describer: $0, boundaries: $0.timeZones) }
    }
}

enum JournalOutput {
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// "2024-06-01 08:00" from an ISO time with an offset (the wall clock of the place).
    static func wallClock(_ iso: String) -> String {
        String(iso.prefix(16)).replacingOccurrences(of: "T", with: " ")
    }

    /// The end of a span after its start: the time alone on the same local day, else the date too.
    static func wallClockEnd(_ iso: String?, after start: String) -> String {
        guard let iso else { return "…" }
        let end = wallClock(iso)
        return end.prefix(10) == wallClock(start).prefix(10) ? String(end.suffix(5)) : end
    }

    static func duration(_ seconds: Double?) -> String {
        guard let seconds else { return "ongoing" }
        let minutes = Int((seconds / 60).rounded())
        return minutes >= 60 ? "\(minutes / 60) h \(minutes % 60) min" : "\(minutes) min"
    }
}

struct VisitsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "visits",
        abstract: "The journal: where you stayed, in the local time of each place.",
        subcommands: [List.self, Rename.self, Delete.self, Restore.self, Merge.self, Unmerge.self, Describe.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List journal entries (the default).")

        @OptionGroup var journal: JournalOptions
        @OptionGroup var range: TimeRangeOptions
        @Flag(help: "Also list deleted entries.") var hidden = false
        @Flag(help: "Print JSON: arrival and departure (ISO 8601; departure null while unknown), latitude, longitude, radius, place, …")
        var json = false

        func run() async throws {
            let (store, user) = try await journal.open()
            let zones = try await journal.update(store, user: user)
            let entries = try await JournalReader(store: store, timeZones: zones).entries(userID: user.id, from: range.fromDate, to: range.toDate,
                                                                         includeHidden: hidden)
            if json {
                print(try JournalOutput.json(entries))
                return
            }
            guard !entries.isEmpty else {
                print("No journal entries in this range.")
                return
            }
            for entry in entries {
                let end = JournalOutput.wallClockEnd(entry.localDeparture, after: entry.localArrival)
                print("\(entry.id)\t\(JournalOutput.wallClock(entry.localArrival))–\(end)\t"
                      + "\(JournalOutput.duration(entry.durationSeconds))\t\(TerminalText.escaped(entry.place))\(entry.hidden ? " (deleted)" : "")")
            }
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Give an entry a title of your own (an empty title removes it).")
        @OptionGroup var journal: JournalOptions
        @Argument(help: "The entry's id (from `travelog visits`).") var id: Int64
        @Argument(help: "The title.") var title: String

        func run() async throws {
            let (store, user) = try await journal.open()
            _ = try await JournalEditor(store: store).rename(visit: VisitID(rawValue: id), userID: user.id, title: title)
            print("entry \(id) renamed")
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an entry; it does not come back when the journal is re-processed.")
        @OptionGroup var journal: JournalOptions
        @Argument(help: "The entry's id.") var id: Int64

        func run() async throws {
            let (store, user) = try await journal.open()
            try await JournalEditor(store: store).deleteShown(visit: VisitID(rawValue: id), userID: user.id)
            print("entry \(id) deleted")
        }
    }

    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Restore a deleted entry, with the entries merged into it.")
        @OptionGroup var journal: JournalOptions
        @Argument(help: "The entry's id (from `travelog visits --hidden`).") var id: Int64

        func run() async throws {
            let (store, user) = try await journal.open()
            try await JournalEditor(store: store).restoreShown(visit: VisitID(rawValue: id), userID: user.id)
            print("entry \(id) restored")
        }
    }

    struct Merge: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Merge entries (of any of your devices) into the earliest.")
        @OptionGroup var journal: JournalOptions
        @Argument(help: "The entries' ids (two or more).") var ids: [Int64]

        func run() async throws {
            let (store, user) = try await journal.open()
            let merged = try await JournalEditor(store: store).merge(visits: ids.map(VisitID.init(rawValue:)), userID: user.id)
            print("entries merged into \(merged.id)")
        }
    }

    struct Describe: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Describe entries anew with the gazetteer and OSM extracts at hand: the point of interest, address and town.",
            discussion: "Titles, deletions, merges and places of your own stay as they are; entries already described with the same data are described again too.")
        @OptionGroup var journal: JournalOptions
        @OptionGroup var range: TimeRangeOptions

        func run() async throws {
            let (store, user) = try await journal.open()
            guard let describer = journal.gazetteerOptions.describer(osmFolder: journal.osmDirectory) else { throw ExitCode.failure }
            let processor = JournalProcessor(store: store, describer: describer)
            let described = try await processor.describeStale(userID: user.id, from: range.fromDate, to: range.toDate, force: true)
            print("\(described) entries described anew" + (describer.streetLevel == nil ? " (no OSM extract is added: towns only)" : ""))
        }
    }

    struct Unmerge: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Undo a merge: the entries it joined are listed again.")
        @OptionGroup var journal: JournalOptions
        @Argument(help: "The merged entry's id.") var id: Int64

        func run() async throws {
            let (store, user) = try await journal.open()
            try await JournalEditor(store: store).unmergeShown(visit: VisitID(rawValue: id), userID: user.id)
            print("entry \(id) unmerged")
        }
    }
}

struct TripsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trips",
        abstract: "The trips between journal entries: distance, duration and how you traveled.")

    @OptionGroup var journal: JournalOptions
    @OptionGroup var range: TimeRangeOptions
    @Option(help: "Kilometres (metric) or miles (imperial).") var units: StatsCommand.UnitSystem = .metric
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let (store, user) = try await journal.open()
        let zones = try await journal.update(store, user: user)
        // Local days as `travelog stats` reads them: a day's trips add up to no more than its distance.
        var placeOffset: (@Sendable (Location) -> Int?)?
        if let zones { placeOffset = { zones.offsetSeconds(for: $0) } }
        let found = try await JournalReader(store: store).trips(
            userID: user.id, from: range.fromDate, to: range.toDate,
            utcOffset: HistoryStatistics.localOffset(placeOffsetSeconds: placeOffset, timeZone: range.timeZone))
        // The trips matched to the roads of the extracts added: those the server has not matched yet are matched here.
        let roads = TripRoads(network: try OSMCommand.FolderOptions.roadNetwork(osmDirectory: journal.osmDirectory),
                              store: store as? any TripMatchStore)
        let trips = try await roads.matchPending(found, userID: user.id)
        if json {
            print(try JournalOutput.json(trips))
            return
        }
        guard !trips.isEmpty else {
            print("No trips in this range.")
            return
        }
        for trip in trips {
            let distance = String(format: "%.2f %@", units.distance(meters: trip.distanceMeters), units.distanceUnit)
            print("\(JournalOutput.wallClock(trip.localStart))–\(JournalOutput.wallClockEnd(trip.localEnd, after: trip.localStart))\t"
                  + "\(distance)\t\(JournalOutput.duration(trip.durationSeconds))\t\(trip.mode)")
            if let meters = trip.matchedDistance {
                let roadNames = trip.roads ?? []
                print(String(format: "\t%.2f %@ on roads", units.distance(meters: meters), units.distanceUnit)
                      + (roadNames.isEmpty ? "" : ": " + roadNames.joined(separator: " → ")))
            } else if roads.hasRoads, let note = trip.roadsNote {
                print("\tnot on roads: \(note)")
            }
        }
    }
}

struct PlacesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "places",
        abstract: "The places you return to; name one and its visits carry the name.",
        subcommands: [List.self, Rename.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List places (the default).")
        @OptionGroup var journal: JournalOptions
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let (store, user) = try await journal.open()
            try await journal.update(store, user: user)
            let places = try await JournalReader(store: store).places(userID: user.id)
            if json {
                print(try JournalOutput.json(places))
                return
            }
            for place in places.sorted(by: { $0.visits > $1.visits }) {
                print("\(place.id)\t\(place.visits) visits\t\(place.name.map(TerminalText.escaped) ?? String(format: "%.5f, %.5f", place.latitude, place.longitude))")
            }
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Name a place.")
        @OptionGroup var journal: JournalOptions
        @Argument(help: "The place's id (from `travelog places`).") var id: Int64
        @Argument(help: "The name.") var name: String

        func run() async throws {
            let (store, user) = try await journal.open()
            _ = try await JournalEditor(store: store).rename(place: PlaceID(rawValue: id), userID: user.id, name: name)
            print("place \(id) is now \(TerminalText.escaped(name))")
        }
    }
}
