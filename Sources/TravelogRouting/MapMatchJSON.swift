import TravelogCore

/// A matched trace as `GET /api/v1/match` answers it and `travelog match --json` prints it: the
/// mode, the matched length and the recorded one (metres), the matched line as a GeoJSON
/// MultiLineString (a line per piece), the roads in order, the counts of fixes matched and
/// dropped, and the data's attribution; with `fixes`, what became of each fix.
public struct MapMatchJSON: Encodable, Sendable {
    public struct MultiLineString: Encodable, Sendable {
        let type = "MultiLineString"
        let coordinates: [[[Double]]]
    }

    /// One fix: where it was matched (and its piece, from 0), or why it was dropped.
    public struct Fix: Encodable, Sendable {
        let latitude: Double?
        let longitude: Double?
        let piece: Int?
        let dropped: String?
    }

    /// The data's licence, to show beside the line.
    public static let attribution = "Map data © OpenStreetMap contributors, ODbL 1.0"

    let mode: String
    let distance: Double
    let rawDistance: Double
    let polyline: MultiLineString
    let roads: [String]
    let matchedFixes: Int
    let droppedFixes: Int
    let attribution: String
    let fixes: [Fix]?

    /// - Parameter withFixes: list every fix (`fixes`), as the CLI does; the API leaves them out.
    public init(_ match: MapMatch, withFixes: Bool = false) {
        mode = match.mode.rawValue
        distance = RouteJSON.tenth(match.distanceMeters)
        rawDistance = RouteJSON.tenth(match.rawDistanceMeters)
        polyline = MultiLineString(coordinates: match.pieces.map { line in
            line.map { point in
                let rounded = RouteJSON.Point(point)
                return [rounded.longitude, rounded.latitude]
            }
        })
        roads = match.roads
        matchedFixes = match.matchedFixCount
        droppedFixes = match.droppedFixCount
        attribution = Self.attribution
        fixes = withFixes ? match.fixes.map { fix in
            let rounded = fix.matched.map(RouteJSON.Point.init)
            return Fix(latitude: rounded?.latitude, longitude: rounded?.longitude, piece: fix.piece, dropped: fix.dropped?.rawValue)
        } : nil
    }
}
