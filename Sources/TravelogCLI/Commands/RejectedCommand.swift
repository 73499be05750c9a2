import ArgumentParser
import Foundation
import TravelogFormats
import TravelogImport
import TravelogJournal
import TravelogServer
import TravelogStore

/// `travelog rejected`: what phone apps sent that could not be stored, kept for the user to see.
struct RejectedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rejected",
        abstract: "Items phone apps sent that could not be stored (the app's other items were), with the reason.",
        discussion: """
            OwnTracks, Overland, OsmAnd/Traccar and GPSLogger batches keep their good items; a wrong item \
            (no time, latitude 200, an altitude of 1e308 m) is set aside here so the app's queue moves on. \
            The same list is at GET /api/v1/rejected.
            """,
        subcommands: [List.self, Delete.self, Retry.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List them, newest first.")
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @Option(help: "List at most this many.") var limit = 50
        @Flag(help: "Print JSON.") var json = false

        func validate() throws {
            guard (1...100_000).contains(limit) else { throw ValidationError("--limit must be 1…100000") }
        }

        func run() async throws {
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            let items = try await store.rejectedItems(userID: user.id, limit: limit)
            let total = try await store.rejectedItemCount(userID: user.id)
            let devices = Dictionary(try await store.devices(userID: user.id).map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
            if json {
                let objects: [[String: Any]] = items.map { item in
                    ["id": item.id.rawValue, "route": item.route, "device": item.deviceID.flatMap { devices[$0] } ?? NSNull(),
                     "reason": item.reason, "raw": item.raw, "rawByteCount": item.rawByteCount,
                     "receivedAt": ISO8601TimeFormatter.string(item.receivedAt),
                     "retryable": RejectedItemRetry.isRetryable(item)]
                }
                let data = try JSONSerialization.data(withJSONObject: ["total": total, "items": objects],
                                                      options: [.sortedKeys, .withoutEscapingSlashes])
                print(String(decoding: data, as: UTF8.self))
                return
            }
            if items.isEmpty { print("nothing was rejected") }
            for item in items {
                let device = item.deviceID.flatMap { devices[$0] } ?? "-"
                print("\(item.id)\t\(ISO8601TimeFormatter.string(item.receivedAt))\t\(TerminalText.escaped(item.route))\t"
                      + "\(TerminalText.escaped(device))\t\(TerminalText.escaped(item.reason))")
                let raw = item.raw.replacingOccurrences(of: "\n", with: " ")
                print("\t\(TerminalText.escaped(raw.prefix(200)))\(raw.count > 200 || item.rawByteCount > item.raw.utf8.count ? "…" : "")")
            }
            if total > items.count { print("(\(total - items.count) more: --limit)") }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete items by id, or all of them with --all.")
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @Flag(help: "Delete every item.") var all = false
        @Argument(help: "The items' ids.") var ids: [Int64] = []

        func validate() throws {
            if all == !ids.isEmpty { throw ValidationError("name the ids to delete, or --all") }
        }

        func run() async throws {
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            let deleted = try await store.deleteRejectedItems(userID: user.id, ids: all ? nil : ids.map(RejectedItemID.init(rawValue:)))
            print("deleted \(deleted)")
            if !all, deleted < ids.count { throw ExitCode.failure }
        }
    }

    struct Retry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send an OwnTracks message that was set aside through the write path again (as after `travelog device secret`).",
            discussion: """
                Only OwnTracks messages (HTTP or MQTT) kept whole can be sent again: other items were refused by \
                rules that do not change. A stored item leaves the list; one still refused stays, and the command says why.
                """)
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @OptionGroup var gazetteerOptions: GazetteerOptions
        @Argument(help: "The item's id (travelog rejected list).") var id: Int64

        func run() async throws {
            let store = try await storeOptions.openStore()
            let user = try await account.resolveUser(in: store, createIfEmpty: false)
            var writer = HistoryWriter(store: store, journal: JournalProcessor(store: store, describer: gazetteerOptions.describer()))
            writer.regions = RegionEvaluator(store: store)
            do {
                switch try await RejectedItemRetry(writer: writer).retry(RejectedItemID(rawValue: id), userID: user.id) {
                case .stored(let inserted, let duplicates):
                    print("stored: \(inserted) new, \(duplicates) already known; item \(id) left the list")
                case .refusedAgain(let replaced):
                    print(replaced ? "refused again, for another reason: see the new item in travelog rejected list"
                                   : "refused again: it still cannot be read")
                    throw ExitCode.failure
                }
            } catch let failure as RejectedItemRetry.Failure {
                FileHandle.standardError.write(Data("travelog rejected retry: \(failure.description)\n".utf8))
                throw ExitCode.failure
            }
        }
    }
}
