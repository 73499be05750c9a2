import ArgumentParser
import Foundation
import TravelogCore
import TravelogGeocoding
import TravelogPostgres
import TravelogServer
import TravelogStore
import TravelogTrackCLI

/// `travelog search QUERY`: local search, as `GET /api/v1/search` answers it.
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find places: your own named places and visits, points of interest, addresses and streets of the OSM extracts added, towns.",
        discussion: """
            Names match whatever their case and accents, by prefix and with a typo ("regata" finds Café Regatta); \
            English category words ("coffee", "atm", "pharmacy") find points of interest; "Mannerheimintie 10" and \
            "10 Mannerheimintie, Helsinki" find the address. Your own places come from the database when there is one \
            (--db, $TRAVELOG_DB, else the default) and say when you were last there. OSM data © OpenStreetMap contributors.
            """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var account: AccountOptions
    @OptionGroup var gazetteerOptions: GazetteerOptions
    @OptionGroup var osmOptions: OSMCommand.FolderOptions

    @Option(help: ArgumentHelp("Nearer places first among equal matches; distances from here.", valueName: "lat,lon"))
    var near: String?

    @Option(help: ArgumentHelp("The map's region: its centre is where distances are measured from (without --near).", valueName: "lat,lon,span"))
    var region: String?

    @Option(help: ArgumentHelp("Only points of interest of a category (cafe, supermarket, pharmacy, atm, … or an OSM key=value).", valueName: "word"))
    var category: String?

    @Option(help: "The most results (1 to 50).")
    var limit = 10

    @Flag(help: "Print the answer as JSON (the shape of GET /api/v1/search).")
    var json = false

    @Argument(help: "What to look for: a name, a category word, or an address.")
    var query: String

    func validate() throws {
        do {
            _ = try LocalSearch.request(text: query, near: near, region: region, category: category, limit: limit)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    func run() async throws {
        let request = try LocalSearch.request(text: query, near: near, region: region, category: category, limit: limit)
        let gazetteer = try? gazetteerOptions.load()
        let search = LocalSearch(index: try osmOptions.searchIndex(), gazetteer: gazetteer)
        let answer = search.search(request, own: await ownPlaces())
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(answer), as: UTF8.self))
            return
        }
        if answer.results.isEmpty { print("Nothing found for \"\(TerminalText.escaped(query))\".") }
        for (rank, result) in answer.results.enumerated() {
            var line = "\(rank + 1). \(TerminalText.escaped(result.name))"
            if let label = result.categoryName { line += " (\(label))" }
            if let address = result.address { line += ", \(TerminalText.escaped(address))" }
            if let distance = result.distanceMeters { line += "; " + (distance < 1000 ? "\(Int(distance.rounded())) m" : String(format: "%.1f km", distance / 1000)) }
            if result.own {
                line += "; yours" + (result.lastVisit.map { ", last there \($0)" } ?? "") + (result.visitCount.map { ", \($0) visits" } ?? "")
            }
            line += "; \(result.latitude), \(result.longitude)"
            print(line)
            if let hours = result.openingHours { print("   open \(TerminalText.escaped(hours))") }
        }
        if let attribution = answer.attribution { print("Data \(attribution), ODbL") }
    }

    func ownPlaces() async -> [LocalSearch.OwnPlace] { await storeOptions.ownSearchPlaces(account: account) }
}

extension StoreOptions {
    /// The user's own places for local search, when a database is there (a SQLite file that
    /// exists, or a PostgreSQL server that answers) and the user is known; none otherwise, with a
    /// note why.
    func ownSearchPlaces(account: AccountOptions) async -> [LocalSearch.OwnPlace] {
        let path = databasePath
        guard PostgresConnectionURL.isPostgresURL(path) || FileManager.default.fileExists(atPath: path) else { return [] }
        do {
            let store = try await openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            return try await LocalSearch.ownPlaces(store: store, userID: user.id)
        } catch {
            FileHandle.standardError.write(Data("note: your own places are not searched: \(error)\n".utf8))
            return []
        }
    }
}

extension OSMCommand.FolderOptions {
    /// Local search over the extracts added, `nil` when none is (the folder found as for
    /// ``streetLevelGeocoder()``).
    /// - Parameter streetAddresses: the street-level geocoder already built over the same extracts,
    ///   else one is built (it gives points of interest the address at their coordinate).
    /// - Throws: `OSMPlacesError` for a damaged places file.
    func searchIndex(streetAddresses: OSMReverseGeocoder? = nil) throws -> OSMSearchIndex? {
        let candidates = DataFiles.candidates(fileName: OSMExtractFolder.folderName, option: osmDirectory,
                                              variable: "TRAVELOG_OSM_DIR", environment: ProcessInfo.processInfo.environment)
        guard let path = DataFiles.existing(among: candidates) else { return nil }
        let set = try OSMExtractFolder(path: path).open()
        guard !set.files.isEmpty else { return nil }
        return OSMSearchIndex(places: set, streetAddresses: streetAddresses ?? OSMReverseGeocoder(places: set))
    }
}
