import ArgumentParser
import Foundation
import TravelogCore
import TravelogFormats
import TravelogImport
import TravelogJournal
import TravelogStore

extension FileFormat: ExpressibleByArgument {}

/// `travelog import FILE…`
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import location history files; the format is recognised from the content.",
        discussion: """
            Reads GPX, KML, GeoJSON (and Overland batches), CSV, NMEA 0183, Google Takeout (Records.json, \
            Semantic Location History, Timeline.json from Android, location-history.json from iOS), \
            OwnTracks Recorder .rec and GeoLife .plt files as streams, so any size fits in memory. \
            Each file is stored whole or not at all; importing a file again stores nothing twice. \
            Files that are not location history (Timeline Edits.json, settings) are named and skipped.
            """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var account: AccountOptions

    @Option(help: "The device the locations belong to (created when new).")
    var device = "default"

    @Option(help: ArgumentHelp("Read the files as this format instead of recognising it.", valueName: "format"))
    var format: FileFormat?

    @Option(help: ArgumentHelp("The UTC date (YYYY-MM-DD) for NMEA logs that carry none.", valueName: "date"))
    var date: String?

    @Flag(help: "Print the summaries as JSON.")
    var json = false

    @OptionGroup var gazetteerOptions: GazetteerOptions

    @Argument(help: ArgumentHelp("The files to import; a folder is searched (with its subfolders) for location files.",
                                 valueName: "file-or-folder"))
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one file to import") }
        if let date, CivilDate(isoDate: date) == nil { throw ValidationError(CLIError.invalidDate(date).description) }
    }

    func run() async throws {
        let store = try storeOptions.openStore()
        let user = try await account.resolveUser(in: store, createIfEmpty: true)
        let existing = try await store.device(named: device, userID: user.id)
        let deviceRecord = if let existing { existing } else { try await store.addDevice(named: device, userID: user.id) }
        let importer = FileImporter(store: store)
        let options = ReaderOptions(date: date.flatMap { CivilDate(isoDate: $0) })
        var reports: [ImportReport] = []
        for (file, foundInFolder) in Self.expand(files) {
            let bar = ProgressBar(label: URL(fileURLWithPath: file).lastPathComponent)
            let report = await importer.importFile(at: file, deviceID: deviceRecord.id, format: format, options: options,
                                                   skipUnrecognized: foundInFolder) { progress in
                bar.update(bytes: progress.bytesRead, totalBytes: progress.totalBytes, items: progress.locations,
                           itemName: "locations")
            }
            bar.finish()
            if !json { print(ImportSummaryText.render(report)) }
            reports.append(report)
        }
        if json { print(ImportSummaryText.json(reports)) }
        try await updateJournal(reports, store: store, device: deviceRecord)
        if reports.contains(where: \.failed) { throw ExitCode.failure }
    }

    /// Keeps the journal current: the stays the files described, and visit detection over the
    /// stretch the imported locations cover.
    func updateJournal(_ reports: [ImportReport], store: any LocationStore, device: Device) async throws {
        let imported = reports.filter { !$0.failed && ($0.inserted > 0 || !$0.visits.isEmpty) }
        guard !imported.isEmpty else { return }
        let processor = JournalProcessor(store: store, describer: gazetteerOptions.describer())
        for report in imported where !report.visits.isEmpty {
            let visits = report.journalVisits(deviceID: device.id)
            if let source = visits.first?.source {
                try await processor.storeDescribedVisits(visits, device: device, source: source)
            }
        }
        let first = imported.compactMap(\.firstTimestamp).min(), last = imported.compactMap(\.lastTimestamp).max()
        if let first, let last {
            if isatty(STDERR_FILENO) == 1 { FileHandle.standardError.write(Data("updating the journal…\n".utf8)) }
            _ = try await processor.process(device: device, from: first, to: last)
        }
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
