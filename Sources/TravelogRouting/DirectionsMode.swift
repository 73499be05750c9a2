/// How a route is travelled: each mode has its own profile of the roads (``RoadProfile``) and its
/// own contraction hierarchy in the graph file.
public enum DirectionsMode: String, CaseIterable, Sendable, Codable {
    case driving
    case walking
    case cycling

    /// The mode's index in the graph file's per-mode arrays.
    var index: Int {
        switch self {
        case .driving: 0
        case .walking: 1
        case .cycling: 2
        }
    }

    /// `MKDirectionsTransportType`'s name for it (`automobile`, `walking`, `cycling`).
    public var transportType: String {
        switch self {
        case .driving: "automobile"
        case .walking: "walking"
        case .cycling: "cycling"
        }
    }

    /// What a route minimises: driving and cycling the time, walking the distance (a walker
    /// takes the shortest way; the time is the distance at walking speed).
    public var minimisesDistance: Bool { self == .walking }
}
