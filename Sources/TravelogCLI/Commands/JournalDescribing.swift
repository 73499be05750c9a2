import ArgumentParser
import Foundation
import TravelogJournal
import TravelogPostgres
import TravelogStore

/// Describing the journal anew when the data that names places changes (`travelog osm add` and
/// `osm remove`): entries described with other data get the points of interest, addresses and
/// towns of the data at hand. Titles, deletions, merges and places the person made stay.
enum JournalDescribing {
    /// Describes again, for every user of the database `storeOptions` names, the entries described
    /// with other data; quiet when that database does not exist yet (nothing to describe). Problems
    /// are notes on standard error: the extract was added all the same.
    static func describeStale(storeOptions: StoreOptions, gazetteerOptions: GazetteerOptions, osmFolder: String?) async {
        let location = storeOptions.databasePath
        guard PostgresConnectionURL.isPostgresURL(location) || FileManager.default.fileExists(atPath: location) else { return }
        guard let describer = gazetteerOptions.describer(osmFolder: osmFolder) else { return }
        do {
            let store = try await storeOptions.openStore()
            let described = try await JournalProcessor(store: store, describer: describer).describeStale()
            print("journal of \(storeOptions.databaseDescription): \(described) entries described anew"
                  + (described > 0 ? " (a server running meanwhile uses the extracts once restarted)" : ""))
        } catch {
            FileHandle.standardError.write(Data("note: the journal of \(storeOptions.databaseDescription) was not described anew: \(error)\n".utf8))
        }
    }
}

/// The options of `travelog osm add` and `osm remove` for describing the journal anew.
struct JournalRedescriptionOptions: ParsableArguments {
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var gazetteerOptions: GazetteerOptions
    @Flag(name: .customLong("no-describe"), help: "Do not describe the journal's entries anew with the extracts.")
    var noDescribe = false

    func describe(osmFolder: String?) async {
        guard !noDescribe else { return }
        await JournalDescribing.describeStale(storeOptions: storeOptions, gazetteerOptions: gazetteerOptions, osmFolder: osmFolder)
    }
}
