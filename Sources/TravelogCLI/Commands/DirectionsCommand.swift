import ArgumentParser
import Foundation
import TravelogCore
import TravelogFormats
import TravelogGeocoding
import TravelogRouting
import TravelogServer
import TravelogTrackCLI

extension DirectionsMode: ExpressibleByArgument {}

/// `travelog directions FROM TO [--mode] [--depart] [--json]` and `--batch`: routes on the road
/// graphs `travelog osm add` built, with their steps.
struct DirectionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "directions",
        abstract: "Directions between two points on the roads of the OSM extracts added (distance, travel time, steps).",
        discussion: """
            FROM and TO are `lat,lon` in degrees, or what `travelog search` finds first for the text: your own places and \
            titled visits (from the database, for --user), then the extracts' points of interest, addresses ("Mannerheimintie 10") \
            and streets, then towns; TO is looked for near FROM. \
            With --batch, reads one pair `lat,lon lat,lon` per line from standard input and prints one line per pair: \
            the distance in metres and the time in seconds separated by a tab (a JSON route with --json), \
            or `error: …` for a pair without a route; the exit status is 1 when any pair failed.
            """)

    @OptionGroup var osmOptions: OSMCommand.FolderOptions

    /// Towns for FROM and TO.
    @OptionGroup var gazetteerOptions: GazetteerOptions

    /// Your own places for FROM and TO.
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var account: AccountOptions

    @Option(help: "driving (the fastest way), walking (the shortest) or cycling (the fastest).")
    var mode: DirectionsMode = .driving

    @Option(help: ArgumentHelp("The time of departure (ISO 8601, or `now`): the arrival is printed too.", valueName: "time"))
    var depart: String?

    @Flag(help: "Print the route as JSON (the fields of GET /api/v1/directions).")
    var json = false

    @Flag(help: "Read pairs of points from standard input, one pair a line.")
    var batch = false

    @Argument(help: ArgumentHelp("Where from: lat,lon or a place name.", valueName: "from"))
    var from: String?

    @Argument(help: ArgumentHelp("Where to: lat,lon or a place name.", valueName: "to"))
    var to: String?

    func validate() throws {
        if batch {
            guard from == nil, to == nil else { throw ValidationError("--batch reads its pairs from standard input: give no FROM and TO") }
        } else {
            guard from != nil, to != nil else { throw ValidationError("expected FROM and TO (lat,lon each), or --batch") }
        }
        if let depart, departure(depart) == nil {
            throw ValidationError("--depart '\(depart)' is not a time: expected ISO 8601 (2026-06-01T08:30:00+03:00) or now")
        }
    }

    private func departure(_ text: String) -> Date? {
        text == "now" ? Date() : TimeRangeBound.parse(text, timeZone: .current, endOfDay: false)
    }

    /// `lat,lon` in degrees; `nil` when the text is not two numbers.
    /// - Throws: ``DirectionsInputError`` for numbers out of range.
    static func coordinate(_ text: String) throws -> Coordinate? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]) else { return nil }
        do {
            return try Coordinate(latitude: latitude, longitude: longitude)
        } catch {
            throw DirectionsInputError.invalidCoordinate(text, reason: "\(error)")
        }
    }

    /// FROM or TO: `lat,lon`, else local search's best match for the text (near `near` when given).
    private func resolve(_ text: String, end: String, near: Coordinate?, places: PlaceLookup) async throws -> (coordinate: Coordinate, label: String?) {
        if let coordinate = try Self.coordinate(text) { return (coordinate, nil) }
        let (search, own) = try await places.load(self)
        let request: LocalSearch.Request
        do {
            request = try LocalSearch.request(text: text, near: near.map { "\($0.latitude),\($0.longitude)" }, region: nil, category: nil, limit: 1)
        } catch {
            throw DirectionsInputError.unknownPlace(text, end: end)
        }
        guard let found = search.search(request, own: own).results.first,
              let coordinate = try? Coordinate(latitude: found.latitude, longitude: found.longitude) else {
            throw DirectionsInputError.unknownPlace(text, end: end)
        }
        guard let address = found.address else { return (coordinate, found.name) }
        // An address's name is its start ("Mannerheimintie 10"): say it once.
        return (coordinate, address.hasPrefix(found.name) ? address : found.name + ", " + address)
    }

    /// The route between FROM and TO, with what each was found as (`nil` for `lat,lon`).
    func plan(from: String, to: String, network: RoadNetwork) async throws -> (route: Route, from: (coordinate: Coordinate, label: String?),
                                                                              to: (coordinate: Coordinate, label: String?)) {
        let places = PlaceLookup()
        let start = try await resolve(from, end: "from", near: nil, places: places)
        let end = try await resolve(to, end: "to", near: start.coordinate, places: places)
        return (try network.route(from: start.coordinate, to: end.coordinate, mode: mode), start, end)
    }

    /// Local search and the user's own places, loaded once and only when an end is not `lat,lon`.
    final class PlaceLookup {
        private var loaded: (LocalSearch, [LocalSearch.OwnPlace])?

        func load(_ command: DirectionsCommand) async throws -> (LocalSearch, [LocalSearch.OwnPlace]) {
            if let loaded { return loaded }
            let search = LocalSearch(index: try command.osmOptions.searchIndex(), gazetteer: try? command.gazetteerOptions.load())
            let found = (search, await command.storeOptions.ownSearchPlaces(account: command.account))
            loaded = found
            return found
        }
    }

    func run() async throws {
        let network = try osmOptions.roadNetwork()
        if batch {
            var failed = false
            while let line = readLine() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard !trimmed.isEmpty else { continue }
                do {
                    let parts = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
                    guard parts.count == 2, let from = try Self.coordinate(String(parts[0])), let to = try Self.coordinate(String(parts[1])) else {
                        throw DirectionsInputError.invalidLine(trimmed)
                    }
                    let route = try network.route(from: from, to: to, mode: mode)
                    if json {
                        print(Self.json(route, departure: depart.flatMap(departure)))
                    } else {
                        print(String(format: "%.1f\t%.1f", route.distanceMeters, route.expectedTravelTimeSeconds))
                    }
                } catch {
                    failed = true
                    print("error: \(error)")
                }
            }
            if failed { throw ExitCode(1) }
            return
        }
        guard let from, let to else { return }
        let (route, start, end) = try await plan(from: from, to: to, network: network)
        let departed = depart.flatMap(departure)
        if json {
            print(Self.json(route, departure: departed))
            return
        }
        print(String(format: "%@ by %@: %.1f km, %@", route.name.isEmpty ? "Route" : route.name, mode.rawValue,
                     route.distanceMeters / 1000, Self.duration(route.expectedTravelTimeSeconds)))
        if start.label != nil || end.label != nil {
            print("\(TerminalText.escaped(start.label ?? from)) → \(TerminalText.escaped(end.label ?? to))")
        }
        if let departed {
            let arrival = departed.addingTimeInterval(route.expectedTravelTimeSeconds)
            print("Depart \(ISO8601TimeFormatter.string(departed)), arrive \(ISO8601TimeFormatter.string(arrival))")
        }
        print(String(format: "From %.6f,%.6f (%.0f m to %@)", route.source.snapped.latitude, route.source.snapped.longitude,
                     route.source.snapDistanceMeters, route.source.roadName ?? "an unnamed road"))
        for (index, step) in route.steps.enumerated() {
            let length = step.maneuver == "arrive" ? "" : String(format: "  %.0f m, %@", step.distanceMeters, Self.duration(step.expectedTravelTimeSeconds))
            print("\(index + 1). \(step.instruction)\(length)")
        }
        print(String(format: "To %.6f,%.6f (%.0f m to %@)", route.destination.snapped.latitude, route.destination.snapped.longitude,
                     route.destination.snapDistanceMeters, route.destination.roadName ?? "an unnamed road"))
        print("Map data © OpenStreetMap contributors, ODbL 1.0")
    }

    static func json(_ route: Route, departure: Date?) -> String {
        let document = RouteJSON(route, departure: departure.map(ISO8601TimeFormatter.string),
                                 arrival: departure.map { ISO8601TimeFormatter.string($0.addingTimeInterval(route.expectedTravelTimeSeconds)) })
        return String(decoding: document.bytes(), as: UTF8.self)
    }

    static func duration(_ seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded())
        return minutes < 60 ? "\(max(1, minutes)) min" : "\(minutes / 60) h \(minutes % 60) min"
    }
}

/// Input `travelog directions` cannot use.
enum DirectionsInputError: Error, Equatable, CustomStringConvertible {
    case invalidCoordinate(String, reason: String)
    case unknownPlace(String, end: String)
    case invalidLine(String)

    var description: String {
        switch self {
        case .invalidCoordinate(let text, let reason): "'\(text)' is not a coordinate: \(reason)"
        case .unknownPlace(let text, let end): "\(end): no place found for '\(text)' (give lat,lon)"
        case .invalidLine(let line): "'\(line)' is not a pair: expected `lat,lon lat,lon`"
        }
    }
}

extension OSMCommand.FolderOptions {
    /// The road graphs of the extracts added (`.tlroute` beside each `.tlosm`), in the folder that
    /// ``streetLevelGeocoder()`` reads; an empty network when there is none.
    /// - Throws: `RoadGraphFileError` for a damaged graph file.
    func roadNetwork() throws -> RoadNetwork { try Self.roadNetwork(osmDirectory: osmDirectory) }

    /// ``roadNetwork()`` of the folder given as `--osm-dir` (else the default one).
    static func roadNetwork(osmDirectory: String?) throws -> RoadNetwork {
        let candidates = DataFiles.candidates(fileName: OSMExtractFolder.folderName, option: osmDirectory,
                                              variable: "TRAVELOG_OSM_DIR", environment: ProcessInfo.processInfo.environment)
        guard let path = DataFiles.existing(among: candidates) else { return RoadNetwork(graphs: []) }
        return try RoadNetwork.open(folder: path, names: OSMExtractFolder(path: path).names())
    }
}
