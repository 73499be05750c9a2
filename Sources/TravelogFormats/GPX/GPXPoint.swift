import TravelogCore

/// What one GPX point element (`wpt`, `rtept` or `trkpt`) says, gathered from its start tag to
/// its end tag, and the record it becomes.
struct GPXPoint {
    /// The GPX elements that are points.
    enum Element {
        case waypoint, routePoint, trackPoint
    }

    /// Where the point's start tag is.
    var position: SourcePosition
    /// `nil` only when `fault` says why.
    var coordinate: Coordinate?
    /// The first thing found wrong with the point: it is then rejected, not stored.
    var fault: RecordRejection?
    var elevationMeters: Double?
    var time: ParsedTimestamp?
    var name: String?
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

    /// Records `reason` at `position` unless something earlier was already wrong.
    mutating func reject(at position: SourcePosition, _ reason: RecordRejection.Reason) {
        if fault == nil { fault = RecordRejection(position: position, reason: reason) }
    }

    /// The point, timed when it had a `time`, or its rejection.
    func record(kind: FormatPoint.Kind) -> FormatRecord {
        guard fault == nil, let coordinate else {
            return .rejected(fault ?? RecordRejection(position: position, reason: .missingField("lat")))
        }
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
