import TravelogCore

/// What one GPX point element (`wpt`, `rtept` or `trkpt`) says, gathered from its start tag to
/// its end tag, and the record it becomes. Plain values only (its name and the reason it is
/// rejected are kept by the reader), so that starting a point costs no reference counting.
struct GPXPoint {
    /// The GPX elements that are points.
    enum Element {
        case waypoint, routePoint, trackPoint
    }

    /// Where the point's start tag is.
    var position: SourcePosition
    /// `nil` only when the point is rejected.
    var coordinate: Coordinate?
    /// Something is wrong with the point: it is rejected, not stored.
    var isRejected = false
    var elevationMeters: Double?
    var time: ParsedTimestamp?
    /// GPX 1.0 `speed`, m/s.
    var speedMetersPerSecond: Double?
    /// GPX 1.0 `course`, degrees from true north.
    var courseDegrees: Double?
    /// `speed` inside `extensions` (Garmin TrackPointExtension v2, OsmAnd), m/s.
    var extensionSpeedMetersPerSecond: Double?
    /// `course` inside `extensions` (Garmin TrackPointExtension v2), degrees.
    var extensionCourseDegrees: Double?

    init(position: SourcePosition) {
        self.position = position
    }

    /// The point, timed when it had a `time`. Requires a coordinate (a point without one is
    /// rejected).
    @inline(__always)
    func record(kind: FormatPoint.Kind, name: String?) -> FormatRecord {
        guard let coordinate else { return .rejected(RecordRejection(position: position, reason: .missingField("lat"))) }
        guard let time else {
            return .point(FormatPoint(kind: kind, position: .untimed(coordinate, altitudeMeters: elevationMeters), name: name))
        }
        let location = Location(
            coordinate: coordinate,
            altitudeMeters: elevationMeters,
            speedMetersPerSecond: speedMetersPerSecond ?? extensionSpeedMetersPerSecond ?? -1,
            courseDegrees: courseDegrees ?? extensionCourseDegrees ?? -1,
            timestamp: time.date,
            utcOffsetSeconds: time.utcOffsetSeconds)
        return .point(FormatPoint(kind: kind, position: .fix(location), name: name))
    }
}
