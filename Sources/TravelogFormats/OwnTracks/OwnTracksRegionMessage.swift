import Foundation
import TravelogCore

/// OwnTracks' region messages: a device's own `transition` into or out of one of its waypoints
/// (a circular region, `t: c`, or a beacon region, `t: b`), and the `waypoint`s (a `waypoints`
/// message holds several) the app's user defined; and the `cmd` `setWaypoints` that sends waypoints
/// to the app. Source: the OwnTracks booklet, `docs/tech/json.md` and `docs/features/remoteconfig.md`.
public enum OwnTracksRegionMessage: Sendable, Equatable {
    /// A waypoint: `desc` its name, `lat`/`lon`/`rad` its circle (metres), `tst` its key on the
    /// device (epoch seconds), an optional iBeacon `uuid`, `major`, `minor`.
    public struct Waypoint: Sendable, Equatable {
        public var name: String
        public var latitude: Double
        public var longitude: Double
        public var radiusMeters: Double
        public var createdAt: Date
        public var beaconUUID: UUID?
        public var beaconMajor: UInt16?
        public var beaconMinor: UInt16?

        public init(name: String, latitude: Double, longitude: Double, radiusMeters: Double, createdAt: Date,
                    beaconUUID: UUID? = nil, beaconMajor: UInt16? = nil, beaconMinor: UInt16? = nil) {
            self.name = name
            self.latitude = latitude
            self.longitude = longitude
            self.radiusMeters = radiusMeters
            self.createdAt = createdAt
            self.beaconUUID = beaconUUID
            self.beaconMajor = beaconMajor
            self.beaconMinor = beaconMinor
        }

        /// The waypoint as the app reads it.
        public var jsonObject: [String: Any] {
            var object: [String: Any] = ["_type": "waypoint", "desc": name, "lat": latitude, "lon": longitude,
                                         "rad": Int(radiusMeters.rounded()), "tst": Int(createdAt.timeIntervalSince1970.rounded(.down))]
            if let beaconUUID {
                object["uuid"] = beaconUUID.uuidString
                if let beaconMajor { object["major"] = Int(beaconMajor) }
                if let beaconMinor { object["minor"] = Int(beaconMinor) }
            }
            return object
        }
    }

    /// A device's transition: `event` enter or leave, `desc` the waypoint's name, `tst` when,
    /// `lat`/`lon`/`acc` the fix that decided it, `t` `c` (circular) or `b` (beacon).
    public struct Transition: Sendable, Equatable {
        public var regionName: String
        public var entering: Bool
        public var time: Date
        public var coordinate: Coordinate?
        public var accuracyMeters: Double?
        public var beacon: Bool
    }

    case transition(Transition)
    case waypoints([Waypoint])

    /// The region messages of a body (one message or an array of them); locations and every
    /// other type are left to `OwnTracksReader`, and a region message without its required
    /// members is left out.
    public static func messages(in data: Data) -> [OwnTracksRegionMessage] {
        guard let json = try? JSONSerialization.jsonObject(with: data) else { return [] }
        let objects = (json as? [Any] ?? [json]).compactMap { $0 as? [String: Any] }
        return objects.compactMap { object in
            switch object["_type"] as? String {
            case "transition": transition(object).map(Self.transition)
            case "waypoint": waypoint(object).map { .waypoints([$0]) }
            case "waypoints": .waypoints((object["waypoints"] as? [Any] ?? []).compactMap { ($0 as? [String: Any]).flatMap(waypoint) })
            default: nil
            }
        }
    }

    /// The `cmd` that replaces the app's waypoints with these.
    public static func setWaypointsCommand(_ waypoints: [Waypoint]) -> [String: Any] {
        ["_type": "cmd", "action": "setWaypoints",
         "waypoints": ["_type": "waypoints", "waypoints": waypoints.map(\.jsonObject)] as [String: Any]]
    }

    static func number(_ value: Any?) -> Double? {
        // (Foundation on Linux reads 0 and 1 as Bool too, so a boolean is not told apart here.)
        if let number = value as? NSNumber { return number.doubleValue.isFinite ? number.doubleValue : nil }
        if let text = value as? String, let number = Double(text), number.isFinite { return number }
        return nil
    }

    static func transition(_ object: [String: Any]) -> Transition? {
        guard let name = object["desc"] as? String, !name.isEmpty, let tst = number(object["tst"]) ?? number(object["wtst"]), tst > 0,
              let event = object["event"] as? String, event == "enter" || event == "leave" else { return nil }
        let coordinate = number(object["lat"]).flatMap { latitude in number(object["lon"]).flatMap { Coordinate(validLatitude: latitude, longitude: $0) } }
        return Transition(regionName: name, entering: event == "enter", time: Date(timeIntervalSince1970: tst), coordinate: coordinate,
                          accuracyMeters: number(object["acc"]).flatMap { $0 >= 0 ? $0 : nil }, beacon: object["t"] as? String == "b")
    }

    static func waypoint(_ object: [String: Any]) -> Waypoint? {
        guard let name = object["desc"] as? String, !name.isEmpty, let latitude = number(object["lat"]),
              let longitude = number(object["lon"]), let radius = number(object["rad"]), let tst = number(object["tst"]) else { return nil }
        let uuid = (object["uuid"] as? String).flatMap(UUID.init(uuidString:))
        return Waypoint(name: name, latitude: latitude, longitude: longitude, radiusMeters: radius, createdAt: Date(timeIntervalSince1970: tst),
                        beaconUUID: uuid, beaconMajor: number(object["major"]).flatMap { UInt16(exactly: $0) },
                        beaconMinor: number(object["minor"]).flatMap { UInt16(exactly: $0) })
    }
}
