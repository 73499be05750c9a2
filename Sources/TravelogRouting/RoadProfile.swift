import TravelogOSM

/// What a way of the road network allows one mode: whether it may be travelled along the way's
/// node order (forward) and against it (backward), and at what speed.
public struct RoadAccess: Equatable, Sendable {
    public var forward: Bool
    public var backward: Bool
    /// Kilometres per hour (a positive whole number; `maxspeed` or a default per road class).
    public var speedKilometersPerHour: Int

    public static let none = RoadAccess(forward: false, backward: false, speedKilometersPerHour: 1)
}

/// The profiles of the three modes, made from a way's tags: road class (`highway`), access tags
/// (`access`, `vehicle`, `motor_vehicle`, `motorcar`, `bicycle`, `foot`), one-way rules (`oneway`
/// with `-1`, `oneway:bicycle`, roundabouts and motorways implied), `maxspeed` (else a default per
/// class), ferries (`route=ferry`) and barrier nodes. Tagging follows the OSM wiki's pages "Key:access",
/// "Key:oneway", "Key:maxspeed" and "OSM tags for routing/Access restrictions" (Finland's defaults).
public enum RoadProfile {
    /// The classes of `highway` cars may use, with their default speeds in km/h.
    static let drivingSpeeds: [String: Int] = [
        "motorway": 100, "motorway_link": 60, "trunk": 80, "trunk_link": 50, "primary": 60, "primary_link": 40,
        "secondary": 50, "secondary_link": 40, "tertiary": 40, "tertiary_link": 30, "unclassified": 40,
        "residential": 30, "living_street": 10, "service": 20, "road": 30,
    ]
    /// Classes no one may use (under construction, planned, a platform's outline).
    static let unroutable: Set<String> = ["construction", "proposed", "abandoned", "platform", "raceway", "bus_guideway", "razed", "no", "disused"]
    /// Classes bicycles may not use unless `bicycle=yes|designated|permissive`.
    static let noBicycleByDefault: Set<String> = ["motorway", "motorway_link", "footway", "pedestrian", "steps", "corridor"]
    /// Classes pedestrians may not use unless `foot=yes|designated|permissive`.
    static let noFootByDefault: Set<String> = ["motorway", "motorway_link"]
    static let walkingSpeed = 5
    static let cyclingSpeed = 18
    static let ferrySpeed = 15

    /// Whether a way is part of the road network at all (`highway=*` of a routable class, or a ferry).
    public static func isRoad(_ tags: [OSMTag]) -> Bool {
        if tags[osmKey: "route"] == "ferry" { return true }
        guard let highway = tags[osmKey: "highway"] else { return false }
        return !unroutable.contains(highway) && (tags[osmKey: "area"] != "yes" || highway == "pedestrian")
    }

    /// What a way allows `mode`.
    public static func access(_ tags: [OSMTag], mode: DirectionsMode) -> RoadAccess {
        let isFerry = tags[osmKey: "route"] == "ferry"
        let highway = tags[osmKey: "highway"] ?? ""
        if !isFerry && (highway.isEmpty || unroutable.contains(highway)) { return .none }
        let keys: [String]
        var allowed: Bool
        var speed: Int
        switch mode {
        case .driving:
            keys = ["access", "vehicle", "motor_vehicle", "motorcar"]
            allowed = isFerry ? false : drivingSpeeds[highway] != nil
            if isFerry, ["yes", "designated"].contains(tags[osmKey: "motorcar"] ?? tags[osmKey: "motor_vehicle"] ?? "") { allowed = true }
            speed = isFerry ? ferrySpeed : maxspeed(tags) ?? drivingSpeeds[highway] ?? 30
            if highway == "service", ["parking_aisle", "driveway"].contains(tags[osmKey: "service"] ?? "") { speed = min(speed, 10) }
        case .walking:
            keys = ["access", "foot"]
            allowed = !noFootByDefault.contains(highway) && tags[osmKey: "motorroad"] != "yes"
            speed = walkingSpeed
        case .cycling:
            keys = ["access", "vehicle", "bicycle"]
            allowed = !noBicycleByDefault.contains(highway) && tags[osmKey: "motorroad"] != "yes"
            speed = isFerry ? ferrySpeed : highway == "track" || highway == "path" ? 12 : cyclingSpeed
        }
        if let verdict = accessVerdict(tags, keys: keys) { allowed = verdict }
        guard allowed else { return .none }
        let (forward, backward) = directions(tags, mode: mode, highway: highway)
        return RoadAccess(forward: forward, backward: backward, speedKilometersPerHour: max(1, speed))
    }

    /// The most specific access tag's verdict (`motorcar` over `motor_vehicle` over `vehicle` over `access`).
    static func accessVerdict(_ tags: [OSMTag], keys: [String]) -> Bool? {
        for key in keys.reversed() {
            guard let value = tags[osmKey: key] else { continue }
            switch value {
            case "yes", "designated", "permissive", "destination", "customers", "official", "permit": return true
            case "no", "private", "agricultural", "forestry", "delivery", "use_sidepath", "discouraged", "emergency", "military": return false
            default: continue
            }
        }
        return nil
    }

    /// The directions a mode may travel a way in.
    static func directions(_ tags: [OSMTag], mode: DirectionsMode, highway: String) -> (forward: Bool, backward: Bool) {
        var oneway = tags[osmKey: "oneway"]
        if mode == .walking {
            oneway = tags[osmKey: "oneway:foot"]
        } else {
            let junction = tags[osmKey: "junction"]
            if oneway == nil, junction == "roundabout" || junction == "circular" || highway == "motorway" { oneway = "yes" }
            if mode == .cycling {
                if let bicycle = tags[osmKey: "oneway:bicycle"] { oneway = bicycle }
                if (tags[osmKey: "cycleway"] ?? "").hasPrefix("opposite") { oneway = "no" }
            }
        }
        switch oneway {
        case "yes", "true", "1": return (true, false)
        case "-1", "reverse": return (false, true)
        default: return (true, true)
        }
    }

    /// `maxspeed` in km/h: a number, `N mph`, a country-zone code (`FI:urban`), `walk`; `nil` when
    /// absent or unreadable (`none`, `signals`).
    static func maxspeed(_ tags: [OSMTag]) -> Int? {
        guard let value = tags[osmKey: "maxspeed"] else { return nil }
        let zones = ["urban": 50, "rural": 80, "motorway": 120, "trunk": 100, "living_street": 20, "walk": 6]
        if let zone = value.split(separator: ":").last.map(String.init), let speed = zones[zone] { return speed }
        let parts = value.split(separator: " ")
        guard let first = parts.first, let number = Double(first), number > 0, number < 400 else { return nil }
        return Int((parts.count > 1 && parts[1] == "mph" ? number * 1.609344 : number).rounded())
    }

    /// Whether a barrier node stops `mode` (node access tags decide first).
    public static func barrierBlocks(_ tags: [OSMTag], mode: DirectionsMode) -> Bool {
        guard let barrier = tags[osmKey: "barrier"] else { return false }
        let keys: [String] = switch mode {
        case .driving: ["access", "vehicle", "motor_vehicle", "motorcar"]
        case .walking: ["access", "foot"]
        case .cycling: ["access", "vehicle", "bicycle"]
        }
        if let verdict = accessVerdict(tags, keys: keys) { return !verdict }
        switch mode {
        case .driving:
            return ["bollard", "block", "jersey_barrier", "cycle_barrier", "turnstile", "stile", "kissing_gate", "chain", "fence", "wall",
                    "full-height_turnstile", "motorcycle_barrier", "planter", "log"].contains(barrier)
        case .cycling:
            return ["turnstile", "stile", "kissing_gate", "fence", "wall", "full-height_turnstile"].contains(barrier)
        case .walking:
            return ["fence", "wall", "hedge"].contains(barrier)
        }
    }
}
