import ArgumentParser
import Foundation
import TravelogCore
import TravelogFormats
import TravelogImport
import TravelogStore

/// `travelog export`
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export location history as GPX, KML, GeoJSON or CSV, or the whole account as a zip (--everything).",
        discussion: """
            Streams from the database, so any amount fits in memory. Each device becomes a track; a gap \
            of more than an hour starts a new segment. With -o the file appears only when complete.
            """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var account: AccountOptions
    @OptionGroup var range: TimeRangeOptions

    @Option(help: ArgumentHelp("gpx, kml, geojson or csv.", valueName: "format"))
    var format: FileFormat?

    @Flag(help: """
        Everything of the account as one zip (with -o FILE.zip): every device's locations, the journal with your \
        renames, merges and deletions, places, regions, privacy zones, notification channels, rejected items, \
        shares and photos' details (docs/EXPORT.md). travelog import FILE.zip reads it back as a new user of any server.
        """)
    var everything = false

    @Flag(help: "With --everything: put the photos' original files in the zip too (photos/DIGEST.EXT).")
    var photos = false

    @Option(help: ArgumentHelp("Only this device (repeat for several).", valueName: "name"))
    var device: [String] = []

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    /// A gap longer than this starts a new track segment.
    func validate() throws {
        if everything {
            guard format == nil, device.isEmpty, range.from == nil, range.to == nil else {
                throw ValidationError("--everything exports the whole account: no --format, --device, --from or --to")
            }
            guard output != nil else { throw ValidationError("--everything writes a zip: name it with -o FILE.zip") }
            return
        }
        if photos { throw ValidationError("--photos goes with --everything (the account's zip)") }
        guard let format else { throw ValidationError("choose --format (gpx, kml, geojson or csv), or --everything") }
        guard format.isWritable else {
            throw ValidationError("\(format) cannot be written: choose one of \(FileFormat.writable.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() async throws {
        let store = try await storeOptions.openStore()
        let user = try await account.resolveUser(in: store, createIfEmpty: false)
        if everything, let output {
            guard let access = store as? any StoreTableAccess else { throw ValidationError("this store cannot export an account") }
            let summary = try await AccountArchive.export(userID: user.id, from: access, to: output, photoFiles: photos)
            let tables = summary.rows.filter { $0.value > 0 && $0.key != "locations" }.sorted { $0.key < $1.key }
            FileHandle.standardError.write(Data("wrote the account \(user.name) to \(output): \(summary.locations) locations; \(tables.map { "\($0.key) \($0.value)" }.joined(separator: ", "))\n".utf8))
            if !summary.photoFilesMissing.isEmpty {
                FileHandle.standardError.write(Data(("\(summary.photoFilesMissing.count) photos' files are no longer where they were added from: "
                    + "their details only (manifest.json lists their digests in photoFilesMissing)\n").utf8))
            }
            return
        }
        guard let format else { return }
        let devices = try await account.devices(named: device, of: user, in: store)
        let destination = output.map { $0 + ".partial" } ?? "/dev/stdout"
        let sink = try FileByteSink(path: destination)
        guard let writer = format.makeWriter(sink: sink, document: ExportDocument(name: "Travelog export of \(user.name)")) else {
            throw ValidationError("\(format) cannot be written")
        }
        let total = try await store.deviceSummaries(userID: user.id)
            .filter { summary in devices.contains(summary.device) }.reduce(0) { $0 + $1.locationCount }
        let bar = ProgressBar(label: "export", enabled: output != nil && isatty(STDERR_FILENO) == 1)
        do {
            let written = try await HistoryExporter(store: store).export(
                userID: user.id, devices: devices, from: range.fromDate, to: range.toDate, to: writer
            ) { written in
                bar.update(bytes: written, totalBytes: total, items: written, itemName: "locations")
            }
            try sink.close()
            bar.finish()
            if let output {
                if FileManager.default.fileExists(atPath: output) { try FileManager.default.removeItem(atPath: output) }
                try FileManager.default.moveItem(atPath: destination, toPath: output)
                FileHandle.standardError.write(Data("wrote \(written) locations to \(output)\n".utf8))
            }
        } catch {
            bar.finish()
            if output != nil { try? FileManager.default.removeItem(atPath: destination) }
            throw error
        }
    }
}
