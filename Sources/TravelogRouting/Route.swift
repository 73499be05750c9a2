import TravelogCore

/// A route between two points, with `MKRoute`'s fields: distance, expected travel time, the line,
/// the steps and the transport type, and where its ends were snapped onto the roads.
public struct Route: Sendable {
    public let mode: DirectionsMode
    public let distanceMeters: Double
    public let expectedTravelTimeSeconds: Double
    /// The line from the snapped source to the snapped destination.
    public let polyline: [Coordinate]
    public let steps: [RouteStep]
    public let source: RouteEndpoint
    public let destination: RouteEndpoint
    /// The names of the roads it follows longest, most first (at most two): `MKRoute.name`.
    public let name: String
    /// What the search minimised: milliseconds (driving, cycling) or centimetres (walking).
    let cost: Int64
    /// The directed segments followed, in order (``TurnGraph`` states).
    let states: [Int32]
}

/// One end of a route: the point asked for and where it was snapped onto the nearest road the
/// mode may use (onto its segment, not its nearest node).
public struct RouteEndpoint: Sendable {
    public let requested: Coordinate
    public let snapped: Coordinate
    public let snapDistanceMeters: Double
    public let roadName: String?
}

/// One step of a route (`MKRoute.Step`): an instruction for a person, its maneuver, and the
/// distance and time until the next step, from the point where it starts.
public struct RouteStep: Sendable {
    /// `depart`, `turn`, `continue`, `roundabout`, `ferry`, `arrive`.
    public let maneuver: String
    /// `left`, `right`, `slight left`, `sharp right`, `straight`, `uturn`, or nil.
    public let modifier: String?
    public let instruction: String
    public let roadName: String?
    public let distanceMeters: Double
    public let expectedTravelTimeSeconds: Double
    public let start: Coordinate
}

/// Which end of a route a problem is at.
public enum RouteEnd: String, Sendable {
    case from
    case to
}

/// Why no route could be given.
public enum DirectionsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No road graph at all: no extract added.
    case noRoadNetwork
    /// The point lies outside every extract's coverage.
    case outsideCoverage(end: RouteEnd, latitude: Double, longitude: Double)
    /// No road the mode may use lies near the point.
    case noRoadNearby(end: RouteEnd, mode: DirectionsMode, withinMeters: Double)
    /// The two ends lie in different extracts that do not overlap.
    case differentExtracts
    /// Nothing the mode may use joins the two points.
    case notConnected(mode: DirectionsMode, unreachable: RouteEnd)

    public var description: String {
        switch self {
        case .noRoadNetwork:
            "no road network: add an OSM extract with `travelog osm add FILE.osm.pbf`"
        case .outsideCoverage(let end, let latitude, let longitude):
            "\(end.rawValue) (\(latitude),\(longitude)) is outside the coverage of the OSM extracts added"
        case .noRoadNearby(let end, let mode, let meters):
            "\(end.rawValue) is more than \(Int(meters)) m from any road open to \(mode.rawValue)"
        case .differentExtracts:
            "from and to lie in different OSM extracts; add one extract that covers both"
        case .notConnected(let mode, let end):
            "no route by \(mode.rawValue): \(end.rawValue) lies on roads cut off from the rest of those open to \(mode.rawValue) "
                + "(a one-way street, a barrier, a turn restriction or water without a ferry), and no connected road is within "
                + "\(Int(RoadGraph.maximumDetourSnapMeters)) m of it"
        }
    }
}
