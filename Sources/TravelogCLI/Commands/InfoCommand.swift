import ArgumentParser
import Foundation
import TravelogAccounts
import TravelogFormats
import TravelogServer
import TravelogStore

/// `travelog info`
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show the devices, how many locations each has, the first and last fix, and the storage size.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var account: AccountOptions

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let store = try await storeOptions.openStore()
        let user = try await account.resolveUser(in: store, createIfEmpty: false)
        let summaries = try await store.deviceSummaries(userID: user.id)
        let size = try await store.storageSizeBytes() ?? 0
        let dropped = try await store.zoneDrops(userID: user.id)
        let retention = try await RetentionJSON.read(HistoryRetention(store: store), userID: user.id)
        if json {
            let object: [String: Any] = [
                "database": storeOptions.databaseDescription,
                "user": user.name,
                "storageBytes": size,
                "devices": summaries.map { summary -> [String: Any] in
                    ["name": summary.device.name, "locations": summary.locationCount,
                     "first": summary.firstTimestamp.map(ISO8601TimeFormatter.string) ?? NSNull(),
                     "last": summary.lastTimestamp.map(ISO8601TimeFormatter.string) ?? NSNull()]
                },
                // Fixes not stored because they lay inside a drop zone, per UTC day.
                "droppedInZones": dropped.map { ["day": $0.day, "count": $0.count] as [String: Any] },
                // The retention period, its journal choice and the last run (as GET /api/v1/account/retention).
                "retention": try JSONSerialization.jsonObject(with: JSONEncoder().encode(retention)),
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        print("Database: \(storeOptions.databaseDescription) (\(ProgressBar.bytes(Int(size))))")
        print("User: \(user.name)")
        if summaries.isEmpty { print("No devices yet.") }
        for summary in summaries {
            let span = summary.firstTimestamp.map { first in
                " from \(ISO8601TimeFormatter.string(first)) to \(summary.lastTimestamp.map(ISO8601TimeFormatter.string) ?? "?")"
            } ?? ""
            print("  \(summary.device.name): \(summary.locationCount) locations\(span)")
        }
        if !dropped.isEmpty {
            print("Dropped in privacy zones (not stored): \(dropped.reduce(0) { $0 + $1.count }) fixes")
            for day in dropped { print("  \(day.day): \(day.count)") }
        }
        let (setting, lastRun) = RetentionOutput.lines(retention)
        print("Retention: \(setting)\n  last run: \(lastRun)")
    }
}
