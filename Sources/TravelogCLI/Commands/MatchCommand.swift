import ArgumentParser
import Foundation
import TravelogAccounts
import TravelogCore
import TravelogFormats
import TravelogRouting
import TravelogStore

/// `travelog match FILE.gpx | --trip ID [--mode] [--json]`: a trace matched to the roads of the OSM
/// extracts added (Newson & Krumm's hidden Markov model): its length on the roads and the streets in order.
struct MatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Match a GPX trace or a journal trip to the roads of the OSM extracts added: its length on them and the streets in order.",
        discussion: """
            FILE.gpx: its track points in file order (its route points when it has no track). --trip ID: the fixes from that \
            journal entry to the next (its id in `travelog visits --json`), of its device. A fix with no road within 200 m, \
            or that jumps off the line of its neighbours and back, is dropped; a stop's fixes collapse onto one point; a gap \
            is routed through; where no road joins two stretches the line is cut into pieces. The same at GET /api/v1/match.
            """)

    @OptionGroup var osmOptions: OSMCommand.FolderOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var account: AccountOptions

    @Option(help: ArgumentHelp("Match the trip leaving from this journal entry (its id in `travelog visits --json`).", valueName: "id"))
    var trip: Int64?

    @Option(help: "driving, walking or cycling: the roads and directions the trace may use.")
    var mode: DirectionsMode = .driving

    @Flag(help: "Print the match as JSON (GET /api/v1/match's fields and, per fix, where it was matched or why it was dropped).")
    var json = false

    @Argument(help: ArgumentHelp("A GPX file.", valueName: "file.gpx"))
    var file: String?

    func validate() throws {
        guard (file == nil) != (trip == nil) else { throw ValidationError("give FILE.gpx or --trip ID (one of them)") }
    }

    func run() async throws {
        let network = try osmOptions.roadNetwork()
        let fixes: [Coordinate]
        if let file {
            fixes = try Self.gpxTrace(path: file)
        } else if let trip {
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            let links = ShareLinks(store: store, accounts: AccountService(store: store))
            fixes = try await links.tripTrace(leaving: VisitID(rawValue: trip), userID: user.id)
        } else {
            return
        }
        let match = try network.match(fixes, mode: mode)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(MapMatchJSON(match, withFixes: true)), as: UTF8.self))
            return
        }
        print(String(format: "%.2f km on the roads by %@ (%.2f km fix to fix); %d fixes matched, %d dropped%@",
                     match.distanceMeters / 1000, mode.rawValue, match.rawDistanceMeters / 1000, match.matchedFixCount,
                     match.droppedFixCount, match.pieces.count > 1 ? ", in \(match.pieces.count) pieces" : ""))
        print(match.roads.isEmpty ? "(on unnamed roads)" : match.roadsText)
        print(MapMatchJSON.attribution)
    }

    /// A GPX file's track points in file order, else its route points.
    static func gpxTrace(path: String) throws -> [Coordinate] {
        var reader = try GPXReader(source: try FileByteSource(path: path))
        var track: [Coordinate] = [], route: [Coordinate] = []
        while let record = try reader.next() {
            guard case .point(let point) = record else { continue }
            switch point.kind {
            case .track: track.append(point.position.coordinate)
            case .route: route.append(point.position.coordinate)
            case .waypoint: break
            }
        }
        return track.isEmpty ? route : track
    }
}
