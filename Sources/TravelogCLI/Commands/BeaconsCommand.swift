import ArgumentParser
import Foundation
import TravelogCore
import TravelogFormats

/// `travelog beacons CAPTURE`: the iBeacons a BLE scan heard, ranged as Core Location ranges them
/// (nearest first; proximity from the RSSI smoothed over a window and the beacon's measured power).
/// The capture is what BlueZ's `btmon -w FILE` writes while a scan runs (`bluetoothctl scan on`), or
/// Android's HCI snoop log.
struct BeaconsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "beacons",
        abstract: "Range the iBeacons of a Bluetooth capture (btmon -w, btsnoop), nearest first.",
        discussion: "Record one with `btmon -w scan.btsnoop` while `bluetoothctl scan on` runs.")

    @Argument(help: "A btsnoop capture (btmon -w).") var capture: String
    @Option(help: "Only the beacons of this proximity UUID.") var uuid: String?
    @Option(help: "Only this major (needs --uuid).") var major: UInt16?
    @Option(help: "Only this minor (needs --major).") var minor: UInt16?
    @Flag(help: "One JSON object per beacon.") var json = false

    func validate() throws {
        if let uuid, UUID(uuidString: uuid) == nil { throw ValidationError("--uuid '\(uuid)' is not a UUID") }
        if major != nil, uuid == nil { throw ValidationError("--major needs --uuid") }
        if minor != nil, major == nil { throw ValidationError("--minor needs --major") }
    }

    func run() throws {
        let sightings = try BTSnoopCapture(contentsOf: URL(fileURLWithPath: capture)).beaconSightings()
        let region = try uuid.flatMap(UUID.init(uuidString:)).map { proximityUUID in
            try BeaconRegion(identifier: "filter", proximityUUID: proximityUUID, major: major, minor: minor)
        }
        let lines = Self.lines(sightings, region: region, json: json)
        if lines.isEmpty, !json { print("no iBeacon of that region in \(capture)") }
        for line in lines { print(line) }
    }

    /// The beacons heard, ranged as of the last sighting, nearest first: a line of text or a JSON
    /// object each.
    static func lines(_ sightings: [BeaconSighting], region: BeaconRegion?, json: Bool) -> [String] {
        var ranger = BeaconRanger()
        ranger.ingest(contentsOf: sightings)
        guard let end = sightings.map(\.timestamp).max() else { return [] }
        return ranger.rangedBeacons(at: end, satisfying: region).map { beacon in
            guard json else {
                let distance = beacon.estimatedDistanceMeters.map { "~" + FixedDecimalFormatter.string($0, decimals: 2) + " m" }
                let rssi = beacon.meanRSSIDBm.map { FixedDecimalFormatter.string($0, decimals: 1) + " dBm" }
                return "\(beacon.identity)\t\(beacon.proximity)\t\(distance ?? "distance unknown")\t\(rssi ?? "")"
                    + "\t\(beacon.sampleCount) samples\tlast heard \(ISO8601TimeFormatter.string(beacon.lastSeen))"
            }
            let writer = JSONLineWriter()
            writer.beginObject()
            writer.member("uuid", string: beacon.identity.proximityUUID.uuidString)
            writer.member("major", integer: Int(beacon.identity.major))
            writer.member("minor", integer: Int(beacon.identity.minor))
            writer.member("proximity", string: beacon.proximity.description)
            writer.member("distanceMeters", number: beacon.estimatedDistanceMeters, decimals: 2)
            writer.member("meanRSSIDBm", number: beacon.meanRSSIDBm, decimals: 1)
            writer.member("samples", integer: beacon.sampleCount)
            writer.member("lastSeen", string: ISO8601TimeFormatter.string(beacon.lastSeen))
            writer.endObject()
            return writer.takeText()
        }
    }
}
