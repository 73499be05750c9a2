import TravelogCore

/// A trace matched to the roads (``RoadNetwork/match(_:mode:)``): the line it followed on them in
/// pieces (a new piece where no road joins two stretches), its length on the roads, the streets in
/// order, and what became of each fix.
public struct MapMatch: Sendable {
    public let mode: DirectionsMode
    /// The matched line, one polyline per piece, in order.
    public let pieces: [[Coordinate]]
    /// The length of the matched line, metres.
    public let distanceMeters: Double
    /// The length of the trace as recorded (fix to fix, every fix), metres.
    public let rawDistanceMeters: Double
    /// The names of the roads followed, in order, a name once per stretch ("Mannerheimintie", "Kaivokatu").
    public let roads: [String]
    /// Per fix given, in the same order: where it was matched, or dropped.
    public let fixes: [MapMatchedFix]

    public var matchedFixCount: Int { fixes.count(where: { $0.matched != nil }) }
    public var droppedFixCount: Int { fixes.count(where: { $0.matched == nil }) }

    /// The roads joined for people: "Mannerheimintie → Kaivokatu".
    public var roadsText: String { roads.joined(separator: " → ") }
}

/// What became of one fix: the point on the roads it was matched to (a fix of a stop shares the
/// point of the stop's first fix) and its piece, or `nil` for a dropped fix.
public struct MapMatchedFix: Sendable, Equatable {
    public let matched: Coordinate?
    public let piece: Int?
    /// Why it was dropped, when it was.
    public let dropped: MapMatchDrop?
}

/// Why a fix was left out of the match.
public enum MapMatchDrop: String, Sendable, Equatable {
    /// No road the mode may use within ``MapMatcher/outlierMeters``.
    case noRoadNearby = "no-road-nearby"
    /// Far off the line of the fixes either side of it, and back (a jump out and back).
    case outlier
    /// No road route from the fixes before it could reach it plausibly.
    case unreachable
}

/// Why a trace could not be matched.
public enum MapMatchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No OSM extract with a road graph has been added.
    case noRoadNetwork
    /// The trace has no fixes.
    case noFixes
    /// No fix lies in an extract's coverage.
    case outsideCoverage
    /// No fix could be matched: none lies near a road the mode may use, or none joins another.
    case nothingMatched(mode: DirectionsMode, fixes: Int)

    public var description: String {
        switch self {
        case .noRoadNetwork: "\(DirectionsError.noRoadNetwork)"
        case .noFixes: "the trace has no fixes to match"
        case .outsideCoverage: "no fix of the trace lies in the coverage of the OSM extracts added"
        case .nothingMatched(let mode, let fixes):
            "none of the \(fixes) fixes could be matched to roads open to \(mode.rawValue): "
                + "none is within \(Int(MapMatcher.outlierMeters)) m of one, or no two are joined by one"
        }
    }
}
