import ArgumentParser
import Foundation
import TravelogAccounts
import TravelogCore
import TravelogFormats
import TravelogJournal
import TravelogServer
import TravelogStore

/// `travelog zones`: privacy zones. A *hide* zone's fixes are stored but never shown on share
/// links; a *drop* zone's are not stored at all, only counted per day (`travelog info`).
struct ZonesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zones",
        abstract: "Privacy zones: places whose fixes share links never show (--hide) or that are not stored at all (--drop).",
        discussion: """
        A zone applies at once: a share link reads the zones for every request, every write the drop zones. The same at \
        GET/POST /api/v1/zones and DELETE /api/v1/zones/ID, and on the page (Settings → Zones).
        """,
        subcommands: [Add.self, List.self, Remove.self],
        defaultSubcommand: List.self)

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a zone: `home --circle 52.52,13.405,150 --hide` or `park --polygon park.geojson --drop`.",
            discussion: """
            --drop on a zone holding stored fixes asks whether to delete them (y/N on a terminal; --yes for scripts; \
            without a terminal and without --yes nothing is added).
            """)
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @OptionGroup var gazetteerOptions: GazetteerOptions
        @Argument(help: "The zone's name (unique among yours).") var name: String
        @Option(help: ArgumentHelp("The circle: latitude,longitude,radius in degrees and metres.", valueName: "lat,lon,radius"))
        var circle: String?
        @Option(help: ArgumentHelp("A GeoJSON file holding one Polygon (a Feature or a geometry).", valueName: "file"))
        var polygon: String?
        @Flag(help: "Store the fixes inside, but never show them on share links.") var hide = false
        @Flag(help: "Do not store the fixes inside at all (they are counted per day).") var drop = false
        @Flag(help: "With --drop: delete the stored fixes inside without asking.") var yes = false

        /// Whether the question can be asked (tests answer false: no terminal).
        nonisolated(unsafe) static var standardInputIsTerminal: () -> Bool = { isatty(STDIN_FILENO) == 1 }

        func validate() throws {
            guard (circle == nil) != (polygon == nil) else { throw ValidationError("give exactly one of --circle and --polygon") }
            guard hide != drop else { throw ValidationError("give exactly one of --hide and --drop") }
            if yes, !drop { throw ValidationError("--yes goes with --drop") }
            if let circle { _ = try RegionsCommand.Add.circle(circle) }
        }

        func run() async throws {
            let shape: MonitoredRegion.Shape
            if let circle {
                shape = .circle(try RegionsCommand.Add.circle(circle))
            } else if let polygon {
                let area = try GeoJSONAreaReader.multiPolygon(from: Data(contentsOf: URL(fileURLWithPath: polygon)))
                guard area.polygons.count == 1, let only = area.polygons.first else {
                    throw RegionsCommandError.notOnePolygon(path: polygon, count: area.polygons.count)
                }
                shape = .polygon(only)
            } else {
                throw ValidationError("give --circle or --polygon")
            }
            let definition: ZoneDefinition
            do {
                definition = try ZoneDefinition(name: name, shape: shape, rule: drop ? .drop : .hide)
            } catch {
                throw ValidationError("zone '\(name)': \(error.description)")
            }
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            let zones = PrivacyZones(store: store)
            var deleteStored = false
            if drop {
                let inside = try await zones.storedFixesInside(definition, userID: user.id)
                if inside > 0 {
                    if yes {
                        deleteStored = true
                    } else {
                        guard Self.standardInputIsTerminal() else { throw ZonesCommandError.storedFixesInside(inside, zone: definition.name) }
                        FileHandle.standardError.write(Data("\(inside) stored fixes lie inside '\(definition.name)'. Delete them? [y/N] ".utf8))
                        let answer = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces).lowercased()
                        guard answer == "y" || answer == "yes" else { throw ZonesCommandError.declined }
                        deleteStored = true
                    }
                }
            }
            let zone = try await zones.add(definition, userID: user.id)
            print("zone \(zone.id): \(TerminalText.escaped(zone.definition.name)), \(zone.definition.rule), \(RegionsOutput.area(zone.definition.shape))")
            guard deleteStored else { return }
            let deleted = try await zones.deleteStoredFixes(inside: definition, userID: user.id)
            let journal = JournalProcessor(store: store, describer: gazetteerOptions.describer())
            for (deviceID, span) in deleted.spans.sorted(by: { $0.key < $1.key }) {
                if let device = try await store.device(id: deviceID) { _ = try await journal.process(device: device, from: span.lowerBound, to: span.upperBound) }
            }
            print("deleted \(deleted.count) stored fixes inside it")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the zones (the default).")
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @Flag(help: "Print JSON, as GET /api/v1/zones answers.") var json = false

        func run() async throws {
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            let zones = try await PrivacyZones(store: store).list(userID: user.id)
            if json { return print(try RegionsOutput.json(zones.map(ZoneJSON.init))) }
            guard !zones.isEmpty else { return print("No zones yet: add one with `travelog zones add home --circle LAT,LON,RADIUS --hide`.") }
            for zone in zones {
                print("\(zone.id)\t\(TerminalText.escaped(zone.definition.name))\t\(zone.definition.rule)\t\(RegionsOutput.area(zone.definition.shape))")
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a zone: its fixes are shown (hide) or stored (drop) again from now on.")
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @Argument(help: "The zone's name or id.") var zone: String

        func run() async throws {
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            let removed = try await PrivacyZones(store: store).remove(zone, userID: user.id)
            print("zone \(removed.id) (\(TerminalText.escaped(removed.definition.name))) removed")
        }
    }
}

/// Why `travelog zones add --drop` added nothing.
enum ZonesCommandError: Error, CustomStringConvertible {
    /// Stored fixes lie inside and no terminal can be asked (and no --yes was given).
    case storedFixesInside(Int, zone: String)
    /// The person answered no.
    case declined

    var description: String {
        switch self {
        case let .storedFixesInside(count, zone):
            "\(count) stored fixes lie inside '\(zone)': a drop zone deletes them; add --yes to confirm without a terminal (nothing was added)"
        case .declined: "nothing added: the stored fixes are kept"
        }
    }
}
