import ArgumentParser
import Foundation
import TravelogCore
import TravelogFormats
import TravelogImport
import TravelogJournal
import TravelogPhotos
import TravelogStore

extension FileFormat: ExpressibleByArgument {}

/// `travelog import FILE…`
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import location history files; the format is recognised from the content.",
        discussion: """
            Reads GPX, KML and KMZ, GeoJSON (and Overland batches), CSV, NMEA 0183, Google Takeout (a whole \
            Takeout .zip, read straight out of the archive, or its Records.json, \
            Semantic Location History, Timeline.json from Android, location-history.json from iOS), \
            OwnTracks Recorder .rec and GeoLife .plt files as streams, so any size fits in memory. \
            Each file is stored whole or not at all; importing a file again stores nothing twice. \
            Files that are not location history (Timeline Edits.json, settings) are named and skipped. \
            An account archive (travelog export --everything) becomes a new user, with everything of it.
            """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var account: AccountOptions

    @Option(help: "The device the locations belong to (created when new).")
    var device = "default"

    @Option(help: ArgumentHelp("Read the files as this format instead of recognising it.", valueName: "format"))
    var format: FileFormat?

    @Option(help: ArgumentHelp("The UTC date (YYYY-MM-DD) for NMEA logs that carry none.", valueName: "date"))
    var date: String?

    @Option(help: ArgumentHelp("Accept fixes from this UTC date (YYYY-MM-DD) on; the default refuses times before 1990 as clock resets.",
                               valueName: "date"))
    var earliest: String?

    @Flag(help: "Print the summaries as JSON.")
    var json = false

    @OptionGroup var gazetteerOptions: GazetteerOptions
    @Option(name: .customLong("osm-dir"), help: ArgumentHelp(
        "The folder of OSM places files that name the journal's points of interest and addresses (default: as `travelog osm`).",
        valueName: "path"))
    var osmDirectory: String?

    @Argument(help: ArgumentHelp("The files to import; a folder is searched (with its subfolders) for location files.",
                                 valueName: "file-or-folder"))
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one file to import") }
        if let date, CivilDate(isoDate: date) == nil { throw ValidationError(CLIError.invalidDate(date).description) }
        if let earliest, CivilDate(isoDate: earliest) == nil { throw ValidationError(CLIError.invalidDate(earliest).description) }
    }

    func run() async throws {
        let store = try await storeOptions.openStore()
        if files.count == 1, files[0].lowercased().hasSuffix(".zip"), AccountArchive.isAccountArchive(path: files[0]) {
            try await importAccount(files[0], into: store)
            return
        }
        let user = try await account.resolveUser(in: store, createIfEmpty: true)
        var plausibility = LocationPlausibility()
        if let earliest { plausibility.earliest = Date(timeIntervalSince1970: Double(CivilDate(isoDate: earliest)?.daysSince1970 ?? 0) * 86_400) }
        let journal = JournalProcessor(store: store, describer: gazetteerOptions.describer(osmFolder: osmDirectory))
        var writer = HistoryWriter(store: store, journal: journal, plausibility: plausibility)
        // Every stored location goes through the user's regions; recent crossings wait in the outbox.
        writer.regions = RegionEvaluator(store: store)
        let importer = FileImporter(writer: writer)
        let options = ReaderOptions(date: date.flatMap { CivilDate(isoDate: $0) })
        var target = DeviceTarget.named(device, userID: user.id, app: nil)
        var reports: [ImportReport] = []
        for (file, foundInFolder) in Self.expand(files) {
            let contents: ImportFileContents
            do {
                contents = try ImportFileContents(path: file, name: file)
            } catch {
                let report = ImportReport(path: file, format: nil, outcome: .failed(reason: error.description))
                if !json { print(ImportSummaryText.render(report)) }
                reports.append(report)
                continue
            }
            for input in contents.inputs {
                let bar = ProgressBar(label: URL(fileURLWithPath: input.name).lastPathComponent)
                let report = await importer.importInput(input, to: &target, format: contents.archiveName == nil ? format : nil,
                                                        options: options,
                                                        skipUnrecognized: foundInFolder || contents.archiveName != nil) { progress in
                    bar.update(bytes: progress.bytesRead, totalBytes: progress.totalBytes, items: progress.locations,
                               itemName: "locations")
                }
                bar.finish()
                if !json { print(ImportSummaryText.render(report)) }
                reports.append(report)
            }
            if let summary = contents.archiveSummary {
                if !json { print(ImportSummaryText.render(summary)) }
                reports.append(summary)
            }
        }
        // Entries an earlier import stored without a gazetteer get their places' names now that one is here.
        let described = try await journal.describeStale(userID: user.id)
        if json {
            print(ImportSummaryText.json(reports))
        } else if described > 0 {
            print("\(described) earlier journal entries now have their places' names")
        }
        if reports.contains(where: \.failed) { throw ExitCode.failure }
    }

    /// The files named, with folders replaced by the regular files inside them (sorted, hidden
    /// files left out), each marked with whether it was found in a folder.
    static func expand(_ paths: [String]) -> [(path: String, foundInFolder: Bool)] {
        paths.flatMap { path -> [(path: String, foundInFolder: Bool)] in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
                  let walker = FileManager.default.enumerator(at: URL(fileURLWithPath: path),
                                                              includingPropertiesForKeys: [.isRegularFileKey],
                                                              options: [.skipsHiddenFiles])
            else { return [(path, false)] }
            return walker.compactMap { $0 as? URL }
                .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
                .map(\.path).sorted().map { ($0, true) }
        }
    }
}

extension ImportCommand {
    /// `travelog import ada.zip` of an account archive: a new user with the same journal, statistics,
    /// regions and zones (refused, with nothing stored, when the name is taken).
    func importAccount(_ path: String, into store: any TravelogStore) async throws {
        guard let access = store as? any TravelogStore & StoreTableAccess else {
            throw ValidationError("this store cannot take an account archive")
        }
        let photos = PhotoFolder(root: storeOptions.photosDirectory())
        let summary = try await AccountArchive.importArchive(path: path, into: access, photoFolder: { photos.originals(userID: $0) })
        let user = try await store.users().first?.name ?? "?"
        if json {
            let data = try JSONSerialization.data(withJSONObject: ["user": user, "rows": summary.rows, "friendsInvited": summary.friendsInvited,
                                                                   "friendsSkipped": summary.friendsSkipped], options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            let tables = summary.rows.filter { $0.value > 0 && $0.key != "locations" }.sorted { $0.key < $1.key }
            print("imported the account \(user): \(summary.locations) locations; "
                  + tables.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            print("\(user) has no password yet (travelog user passwd \(user)) and their devices no tokens (travelog device token).")
            if !summary.friendsInvited.isEmpty {
                print("friends invited again (they accept to see each other; history is granted again after): "
                      + summary.friendsInvited.map(TerminalText.escaped).joined(separator: ", "))
            }
            if !summary.friendsSkipped.isEmpty {
                print("friends skipped, no user of that name here: " + summary.friendsSkipped.map(TerminalText.escaped).joined(separator: ", "))
            }
        }
    }
}
