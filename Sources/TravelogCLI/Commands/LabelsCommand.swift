import ArgumentParser
import Foundation
import TravelogCore
import TravelogFormats
import TravelogServer
import TravelogStore

/// `travelog labels`: the words people put on their fixes (OwnTracks' POI and tag, a file's named
/// waypoints), the same list as `GET /api/v1/labels`.
struct LabelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "labels",
        abstract: "What you named as you went: OwnTracks' \"Publish with POI\" names and tags, and files' named waypoints.",
        discussion: """
            Each label is on the fix it came with and shows while that fix is stored. The page shows them \
            in the timeline and on the map; GET /api/v1/labels answers the same list.
            """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var account: AccountOptions
    @OptionGroup var range: TimeRangeOptions
    @Option(help: ArgumentHelp("Only this device's labels (repeat for several).", valueName: "name")) var device: [String] = []
    @Option(help: "List at most this many.") var limit = 10_000
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        guard (1...100_000).contains(limit) else { throw ValidationError("--limit must be 1…100000") }
    }

    func run() async throws {
        let store = try await storeOptions.openStore()
        let user = try await account.resolveUser(in: store, createIfEmpty: false)
        let devices = try await store.devices(userID: user.id)
        var chosen: Set<DeviceID>?
        if !device.isEmpty {
            chosen = Set(try device.map { name in
                guard let found = devices.first(where: { $0.name == name }) else { throw ValidationError("no device named '\(name)'") }
                return found.id
            })
        }
        let labels = try await (store as? any LabelStore)?.labels(userID: user.id, deviceIDs: chosen, from: range.fromDate,
                                                                  to: range.toDate, limit: limit) ?? []
        let names = Dictionary(devices.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        print(try Self.output(labels, deviceNames: names, json: json))
        if !json, labels.count == limit { print("(there may be more: --limit)") }
    }

    /// The list as printed: a line per label (what people wrote is escaped for the terminal), or JSON.
    static func output(_ labels: [StoredLabel], deviceNames: [DeviceID: String], json: Bool) throws -> String {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(labels.map { LabelJSON($0, device: deviceNames[$0.deviceID] ?? "", timeZone: nil) })
            return String(decoding: data, as: UTF8.self)
        }
        guard !labels.isEmpty else { return "no labels in this range" }
        return labels.map { label in
            "\(ISO8601TimeFormatter.string(label.timestamp))\t\(TerminalText.escaped(deviceNames[label.deviceID] ?? "-"))\t"
                + "\(label.label.kind.rawValue)\t\(TerminalText.escaped(label.label.text))\t"
                + String(format: "%.6f, %.6f", label.coordinate.latitude, label.coordinate.longitude)
        }.joined(separator: "\n")
    }
}
