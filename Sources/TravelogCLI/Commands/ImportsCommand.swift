import ArgumentParser
import Foundation
import TravelogFormats
import TravelogJournal
import TravelogStore

/// `travelog imports`: the files imported (`travelog import`, the page), and discarding one with
/// the locations it stored.
struct ImportsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imports",
        abstract: "The files imported, newest first; discard one with the locations it stored.",
        discussion: "The same list is at GET /api/v1/imports; DELETE /api/v1/imports/ID discards one.",
        subcommands: [List.self, Discard.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List them, newest first: id, time, file, format, device, counts.")
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions

        func run() async throws {
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            let devices = Dictionary(try await store.devices(userID: user.id).map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
            let imports = try await store.imports(userID: user.id)
            if imports.isEmpty { print("nothing imported") }
            for record in imports {
                print("\(record.id)\t\(ISO8601TimeFormatter.string(record.importedAt))\t\(TerminalText.escaped(record.provenance.fileName))\t"
                      + "\(TerminalText.escaped(record.provenance.format))\t\(TerminalText.escaped(devices[record.deviceID] ?? "-"))\t"
                      + "\(record.inserted) new, \(record.duplicates) known before, \(record.rejected) refused")
            }
        }
    }

    struct Discard: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete an import and the locations it stored; the journal detects their stretch anew.")
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @OptionGroup var gazetteerOptions: GazetteerOptions
        @Argument(help: "The import's id (travelog imports list).") var id: Int64

        func run() async throws {
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            guard let deleted = try await store.deleteImport(ImportID(rawValue: id), userID: user.id) else {
                throw ValidationError("\(user.name) has no import \(id) (travelog imports list)")
            }
            if let span = deleted.span, let device = try await store.device(id: deleted.record.deviceID) {
                let journal = JournalProcessor(store: store, describer: gazetteerOptions.describer())
                _ = try await journal.process(device: device, from: span.lowerBound, to: span.upperBound)
            }
            print("discarded \(TerminalText.escaped(deleted.record.provenance.fileName)) and its \(deleted.record.inserted) locations")
        }
    }
}
