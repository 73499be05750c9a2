import TravelogCore

/// One geometry of a feature as read (RFC 7946 §3.1), kept until the feature's properties have been
/// read too, since they may come after it and say when its positions were recorded.
struct GeoJSONGeometry {
    /// The seven geometry types of RFC 7946 (case-sensitive).
    enum Kind: String, CaseIterable {
        case point = "Point"
        case multiPoint = "MultiPoint"
        case lineString = "LineString"
        case multiLineString = "MultiLineString"
        case polygon = "Polygon"
        case multiPolygon = "MultiPolygon"
        case geometryCollection = "GeometryCollection"

        /// How deep positions sit in `coordinates`: 1 when it is a position itself (a Point).
        var positionDepth: Int? {
            switch self {
            case .point: 1
            case .multiPoint, .lineString: 2
            case .multiLineString, .polygon: 3
            case .multiPolygon: 4
            case .geometryCollection: nil
            }
        }

        static let table = JSONKeyTable(Kind.self)
    }

    /// One position, `[longitude, latitude]` or `[longitude, latitude, altitude]` (degrees,
    /// metres), validated as it is read. Kept small: a LineString may hold millions.
    struct Position {
        /// `nil` when the position is wrong; `positionProblems` says why.
        var coordinate: Coordinate?
        var altitudeMeters: Double?
    }

    /// The `type` as written; `nil` when absent.
    var typeName: String?
    var kind: Kind?
    /// Where the geometry's object starts.
    var start: SourcePosition
    /// Every position of `coordinates`, in file order.
    var positions: [Position] = []
    /// Why a position is wrong (too short, not numbers, a latitude of 200), by its index in
    /// `positions`; few, so kept apart rather than in every position.
    var positionProblems: [Int: RecordRejection] = [:]
    /// Where each innermost array of positions starts in `positions` (a LineString has one part,
    /// a MultiLineString one per line). Empty arrays make no part.
    var partStarts: [Int] = []
    /// How deep the positions sit, once one has been seen.
    var positionDepth: Int?
    /// A GeometryCollection's members.
    var members: [GeoJSONGeometry] = []
    /// Whether `coordinates` or `geometries` were there at all.
    var hasContent = false
    /// Whether a position was written as files do but RFC 7946 does not: a number in a string, or
    /// more than three elements (read all the same; a strict reader refuses it).
    var hasLoosePosition = false
    /// Whether a longitude lay outside -180…180 (read wrapped round; a strict reader refuses it).
    var hasWrappedLongitude = false
    /// What makes the whole geometry unusable (positions nested unevenly, a wrong `type`).
    var problem: RecordRejection?

    init(start: SourcePosition) {
        self.start = start
    }

    /// Notes a problem unless one is known already (the first one is reported).
    mutating func note(_ problem: RecordRejection) {
        if self.problem == nil { self.problem = problem }
    }

    /// A Polygon or MultiPolygon: an area, not where someone went.
    var isArea: Bool { kind == .polygon || kind == .multiPolygon }

    /// Checks the type against the shape of the coordinates, once the whole object has been read.
    mutating func validate() {
        guard problem == nil else { return }
        guard let typeName else {
            note(RecordRejection(position: start, reason: .missingField("type")))
            return
        }
        guard let kind else {
            note(RecordRejection(position: start, reason: .invalidValue(field: "type", value: typeName)))
            return
        }
        if let expected = kind.positionDepth, let found = positionDepth, expected != found {
            note(RecordRejection(position: start, reason: .invalidValue(
                field: "coordinates", value: "positions nested \(found) deep in a \(typeName), which nests them \(expected) deep")))
        }
    }
}
