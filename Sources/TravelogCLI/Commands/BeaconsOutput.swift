import Foundation
import TravelogCore
import TravelogFormats

/// How `travelog beacons` writes ranged beacons and a scan's events: a tab-separated line each for
/// people, one JSON object each for scripts (`--json`).
enum BeaconsOutput {
    /// A ranged beacon: identity, proximity, estimated distance, mean RSSI, samples, last heard.
    static func line(_ beacon: RangedBeacon, json: Bool) -> String {
        guard json else {
            let distance = beacon.estimatedDistanceMeters.map { "~" + FixedDecimalFormatter.string($0, decimals: 2) + " m" }
            let rssi = beacon.meanRSSIDBm.map { FixedDecimalFormatter.string($0, decimals: 1) + " dBm" }
            return "\(beacon.identity)\t\(beacon.proximity)\t\(distance ?? "distance unknown")\t\(rssi ?? "")"
                + "\t\(beacon.sampleCount) samples\tlast heard \(ISO8601TimeFormatter.string(beacon.lastSeen))"
        }
        let writer = JSONLineWriter()
        writer.beginObject()
        members(beacon, writer)
        writer.endObject()
        return writer.takeText()
    }

    /// A scan's event: "2025-11-24T16:00:19.400Z  entered desk (F7826DA6-… 100 3)", "… left desk",
    /// "… inside shop", "… beacon F7826DA6-… 100 2 near ~1.41 m", "… lost F7826DA6-… 100 3"; with
    /// `json` an object with `event` (`entry`, `exit`, `state`, `ranged`, `lost`) and `time`.
    static func line(_ event: BeaconScan.Event, json: Bool) -> String {
        let writer = JSONLineWriter()
        writer.beginObject()
        let text: String
        switch event {
        case .region(let crossing):
            let verb = crossing.kind == .entry ? "entered" : "left"
            text = "\(stamp(crossing.time))\t\(verb) \(crossing.regionIdentifier) (\(crossing.beacon))"
            writer.member("event", string: crossing.kind == .entry ? "entry" : "exit")
            writer.member("time", string: ISO8601TimeFormatter.string(crossing.time))
            writer.member("region", string: crossing.regionIdentifier)
            identity(crossing.beacon, writer)
        case let .determined(region, state, time):
            text = "\(stamp(time))\t\(state) \(region)"
            writer.member("event", string: "state")
            writer.member("time", string: ISO8601TimeFormatter.string(time))
            writer.member("region", string: region)
            writer.member("state", string: state.description)
        case let .ranged(beacon, time):
            let distance = beacon.estimatedDistanceMeters.map { " ~" + FixedDecimalFormatter.string($0, decimals: 2) + " m" } ?? ""
            text = "\(stamp(time))\tbeacon \(beacon.identity) \(beacon.proximity)\(distance)"
            writer.member("event", string: "ranged")
            writer.member("time", string: ISO8601TimeFormatter.string(time))
            members(beacon, writer)
        case let .lost(beacon, time):
            text = "\(stamp(time))\tlost \(beacon)"
            writer.member("event", string: "lost")
            writer.member("time", string: ISO8601TimeFormatter.string(time))
            identity(beacon, writer)
        }
        writer.endObject()
        return json ? writer.takeText() : text
    }

    private static func stamp(_ time: Date) -> String { ISO8601TimeFormatter.string(time) }

    private static func identity(_ beacon: BeaconIdentity, _ writer: JSONLineWriter) {
        writer.member("uuid", string: beacon.proximityUUID.uuidString)
        writer.member("major", integer: Int(beacon.major))
        writer.member("minor", integer: Int(beacon.minor))
    }

    private static func members(_ beacon: RangedBeacon, _ writer: JSONLineWriter) {
        identity(beacon.identity, writer)
        writer.member("proximity", string: beacon.proximity.description)
        writer.member("distanceMeters", number: beacon.estimatedDistanceMeters, decimals: 2)
        writer.member("meanRSSIDBm", number: beacon.meanRSSIDBm, decimals: 1)
        writer.member("samples", integer: beacon.sampleCount)
        writer.member("lastSeen", string: ISO8601TimeFormatter.string(beacon.lastSeen))
    }
}
