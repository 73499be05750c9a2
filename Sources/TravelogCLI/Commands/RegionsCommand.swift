import ArgumentParser
import Foundation
import TravelogCore
import TravelogFormats
import TravelogServer
import TravelogStore

/// `travelog regions`: the user's geofences. Every location stored by any route or import is run
/// through them; crossings become transitions (and, when recent, notifications).
struct RegionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "regions",
        abstract: "Regions (geofences): add, list, remove, where each device stands, and the transitions.",
        subcommands: [Add.self, List.self, Remove.self, State.self, Transitions.self],
        defaultSubcommand: List.self)

    /// The store and the user, with the store's regions.
    struct Context: ParsableArguments {
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions

        func open() async throws -> (any TravelogStore, User) {
            let store = try await storeOptions.openStore()
            return (store, try await account.resolveUser(in: store, createIfEmpty: false))
        }

        /// The user's region with this name or id.
        func region(_ nameOrID: String, in store: any RegionStore, user: User) async throws -> StoredRegion {
            let regions = try await store.regions(userID: user.id)
            if let found = regions.first(where: { $0.definition.name == nameOrID }) ?? regions.first(where: { String($0.id.rawValue) == nameOrID }) {
                return found
            }
            throw RegionsCommandError.noSuchRegion(nameOrID)
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a region: `home --circle 52.52,13.405,150` (latitude, longitude, radius in metres) or `park --polygon park.geojson`.")
        @OptionGroup var context: Context
        @Argument(help: "The region's name (unique among yours).") var name: String
        @Option(help: ArgumentHelp("The circle: latitude,longitude,radius in degrees and metres.", valueName: "lat,lon,radius"))
        var circle: String?
        @Option(help: ArgumentHelp("A GeoJSON file holding one Polygon (a Feature or a geometry).", valueName: "file"))
        var polygon: String?
        @Flag(help: "Do not report entries.") var noEntry = false
        @Flag(help: "Do not report exits.") var noExit = false

        func validate() throws {
            guard (circle == nil) != (polygon == nil) else { throw ValidationError("give exactly one of --circle and --polygon") }
            if let circle { _ = try Self.circle(circle) }
        }

        /// `lat,lon,radius` as a circle. - Throws: a `ValidationError` naming what is wrong.
        static func circle(_ text: String) throws -> Circle {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { DecimalNumber.parse(String($0)) }
            guard parts.count == 3, let latitude = parts[0], let longitude = parts[1], let radius = parts[2] else {
                throw ValidationError("--circle '\(text)': expected latitude,longitude,radius such as 52.52,13.405,150")
            }
            do {
                return try Circle(center: Coordinate(latitude: latitude, longitude: longitude), radiusMeters: radius)
            } catch {
                throw ValidationError("--circle '\(text)': \(error)")
            }
        }

        func run() async throws {
            let shape: MonitoredRegion.Shape
            if let circle {
                shape = .circle(try Self.circle(circle))
            } else if let polygon {
                let area = try GeoJSONAreaReader.multiPolygon(from: Data(contentsOf: URL(fileURLWithPath: polygon)))
                guard area.polygons.count == 1, let only = area.polygons.first else {
                    throw RegionsCommandError.notOnePolygon(path: polygon, count: area.polygons.count)
                }
                shape = .polygon(only)
            } else {
                throw ValidationError("give --circle or --polygon")
            }
            let definition: RegionDefinition
            do {
                definition = try RegionDefinition(name: name, shape: shape, notifyOnEntry: !noEntry, notifyOnExit: !noExit)
            } catch {
                throw RegionsCommandError.invalidRegion(name: name, reason: error.description)
            }
            let (store, user) = try await context.open()
            let region = try await store.addRegion(definition, userID: user.id, at: Date())
            print("region \(region.id): \(region.definition.name), \(RegionsOutput.area(region.definition))")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the regions (the default).")
        @OptionGroup var context: Context
        @Flag(help: "Print JSON, as GET /api/v1/regions answers.") var json = false

        func run() async throws {
            let (store, user) = try await context.open()
            let regions = try await RegionReader(store: store).regions(userID: user.id)
            if json { return print(try RegionsOutput.json(regions)) }
            guard !regions.isEmpty else { return print("No regions yet: add one with `travelog regions add home --circle LAT,LON,RADIUS`.") }
            for region in try await store.regions(userID: user.id) {
                let flags = [region.definition.notifyOnEntry ? "entry" : nil, region.definition.notifyOnExit ? "exit" : nil].compactMap { $0 }
                print("\(region.id)\t\(TerminalText.escaped(region.definition.name))\t\(RegionsOutput.area(region.definition))\tnotify: \(flags.isEmpty ? "none" : flags.joined(separator: ", "))")
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a region and its transitions.")
        @OptionGroup var context: Context
        @Argument(help: "The region's name or id.") var region: String

        func run() async throws {
            let (store, user) = try await context.open()
            let found = try await context.region(region, in: store, user: user)
            _ = try await store.removeRegion(id: found.id, userID: user.id)
            print("region \(found.id) (\(TerminalText.escaped(found.definition.name))) removed")
        }
    }

    struct State: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Where each device stands with each region: inside, outside or unknown.")
        @OptionGroup var context: Context
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let (store, user) = try await context.open()
            let regions = try await RegionReader(store: store).regions(userID: user.id)
            if json { return print(try RegionsOutput.json(regions.map { RegionJSON.StateList(name: $0.name, states: $0.states ?? []) })) }
            for region in regions {
                for state in region.states ?? [] { print("\(TerminalText.escaped(region.name))\t\(TerminalText.escaped(state.device))\t\(state.state)") }
            }
        }
    }

    struct Transitions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Entries and exits, oldest first (\"left Home 08:12\").")
        @OptionGroup var context: Context
        @OptionGroup var range: TimeRangeOptions
        @Option(help: "Only this region's (name or id).") var region: String?
        @Flag(help: "Print JSON, as GET /api/v1/regions/transitions answers.") var json = false

        func run() async throws {
            let (store, user) = try await context.open()
            var regionID: RegionID?
            if let region { regionID = try await context.region(region, in: store, user: user).id }
            let transitions = try await RegionReader(store: store).transitions(userID: user.id, regionID: regionID,
                                                                               from: range.fromDate, to: range.toDate)
            if json { return print(try RegionsOutput.json(transitions)) }
            guard !transitions.isEmpty else { return print("No transitions in this range.") }
            for transition in transitions {
                print(RegionsOutput.line(transition, timeZone: range.timeZone))
            }
        }
    }
}
