import ArgumentParser
import Foundation
import TravelogCore
import TravelogFormats

/// `travelog beacons CAPTURE`: the iBeacons a BLE scan heard, ranged as Core Location ranges them
/// (nearest first; proximity from the RSSI smoothed over a window and the beacon's measured power),
/// and with `--region` the beacon regions entered and left. The capture is what BlueZ's
/// `btmon -w FILE` writes while a scan runs (`bluetoothctl scan on`), or Android's HCI snoop log.
///
/// `travelog beacons --live` starts `btmon -w` on a FIFO and tells, as they happen, each beacon
/// heard, nearer or further, or lost, and each region entered or left; `--live PATH` reads a
/// stream someone else writes (a FIFO, `-` for standard input) the same way.
struct BeaconsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "beacons",
        abstract: "Range the iBeacons of a Bluetooth capture (btmon -w, btsnoop), or of a live scan with --live.",
        discussion: """
            Record a capture with `btmon -w scan.btsnoop` while `bluetoothctl scan on` runs. \
            `--live` runs btmon itself (BlueZ, Debian's bluez package; root or CAP_NET_RAW) and \
            prints beacons and region entries and exits as they happen, until Ctrl-C.
            """)

    @Argument(help: "A btsnoop capture (btmon -w); with --live a FIFO or - (standard input) to read as it is written.")
    var capture: String?
    @Option(help: "Only the beacons of this proximity UUID.") var uuid: String?
    @Option(help: "Only this major (needs --uuid).") var major: UInt16?
    @Option(help: "Only this minor (needs --major).") var minor: UInt16?
    @Option(name: .customLong("region"), help: "Watch a beacon region for entry and exit: UUID[,major[,minor]] (repeatable).")
    var regions: [String] = []
    @Flag(help: "Read the scan as it happens: run btmon -w (or read CAPTURE as a stream) and print events as they come.")
    var live = false
    @Option(help: "The btmon to run for --live.") var btmon = "btmon"
    @Flag(help: "One JSON object per beacon or event.") var json = false

    func validate() throws {
        if let uuid, UUID(uuidString: uuid) == nil { throw ValidationError("--uuid '\(uuid)' is not a UUID") }
        if major != nil, uuid == nil { throw ValidationError("--major needs --uuid") }
        if minor != nil, major == nil { throw ValidationError("--minor needs --major") }
        if capture == nil, !live { throw ValidationError("a capture is needed (or --live)") }
        for text in regions { _ = try Self.region(text) }
    }

    func run() throws {
        var scan = try BeaconScan(regions: regions.map(Self.region), filter: filter())
        guard live else {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: capture ?? ""))
            } catch {
                throw BTSnoopError.cannotRead(path: capture ?? "", reason: "\(error.localizedDescription)")
            }
            for line in try Self.lines(&scan, bytes: data, json: json) { print(line) }
            if scan.rangedBeacons.isEmpty, !json { print("no iBeacon of that region in \(capture ?? "")") }
            return
        }
        // Each line written at once (no stdio buffer), so a pipe sees events as they happen.
        try Self.streamEvents(&scan, from: capture.map { .path($0) } ?? .btmon(btmon)) { event in
            try StandardStreams.write(Array((BeaconsOutput.line(event, json: json) + "\n").utf8))
        }
    }

    /// Where a live scan comes from: a path read as a stream (`-`: standard input), or a btmon to run.
    enum LiveSource {
        case path(String)
        case btmon(String)
    }

    /// A live scan: the stream read block by block as it arrives, each event handed to `emit` as
    /// soon as the block that completes it is read.
    static func streamEvents(_ scan: inout BeaconScan, from source: LiveSource, emit: (BeaconScan.Event) throws -> Void) throws {
        func feed(_ block: UnsafeBufferPointer<UInt8>) throws {
            for event in try scan.append(block) { try emit(event) }
        }
        switch source {
        case .path(let path): try BeaconStreamSource.read(path: path, feed)
        case .btmon(let executable): try BeaconStreamSource.readBtmon(executable: executable, feed)
        }
        try scan.finish()
    }

    /// A whole capture: the regions' events (when regions are watched), then the beacons ranged
    /// as of its last record, nearest first.
    static func lines(_ scan: inout BeaconScan, bytes: some Collection<UInt8>, json: Bool) throws -> [String] {
        let events = try scan.append(bytes)
        try scan.finish()
        let regionEvents = events.filter {
            switch $0 {
            case .region, .determined: true
            case .ranged, .lost: false
            }
        }
        return regionEvents.map { BeaconsOutput.line($0, json: json) } + scan.rangedBeacons.map { BeaconsOutput.line($0, json: json) }
    }

    /// The `--uuid`/`--major`/`--minor` filter, or `nil` for every beacon.
    func filter() throws -> BeaconRegion? {
        try uuid.flatMap(UUID.init(uuidString:)).map { proximityUUID in
            try BeaconRegion(identifier: "filter", proximityUUID: proximityUUID, major: major, minor: minor)
        }
    }

    /// A `--region` argument, `UUID[,major[,minor]]`, named by its own text.
    static func region(_ text: String) throws -> BeaconRegion {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard (1...3).contains(parts.count), let proximityUUID = UUID(uuidString: parts[0]) else {
            throw ValidationError("--region '\(text)': expected UUID[,major[,minor]]")
        }
        let numbers = try parts.dropFirst().map { part -> UInt16 in
            guard let number = UInt16(part) else { throw ValidationError("--region '\(text)': '\(part)' is not a number 0…65535") }
            return number
        }
        return try BeaconRegion(identifier: text, proximityUUID: proximityUUID, major: numbers.first,
                                minor: numbers.count > 1 ? numbers[1] : nil)
    }
}
