import TravelogCore

/// Hands out the records of one feature that has been read whole, one at a time, so that a
/// LineString of a million positions is never a million records in memory.
///
/// The rules (see `GeoJSONReader` for the whole list): Overland trips and app events are skipped;
/// an Overland `visit` with a position and an arrival is a visit; a Point is a fix when the
/// feature has a time and a waypoint otherwise; a MultiPoint is a track with one time per position,
/// waypoints otherwise; a LineString is a track, a MultiLineString a track with one segment per line,
/// timed per position or untimed; Polygons and MultiPolygons are skipped.
struct GeoJSONFeatureRecords {
    /// What the feature gives next.
    enum Step {
        case record(FormatRecord)
        case skip(GeoJSONReader.SkipReason)
    }

    private let properties: GeoJSONProperties
    /// The geometries that hold positions, GeometryCollections flattened; or one outcome for the
    /// whole feature in `single`.
    private var leaves: [GeoJSONGeometry] = []
    private var single: Step?
    private var leafIndex = 0
    private var positionIndex = 0
    /// Index of the leaf's first position in `properties.positionTimes`.
    private var timeOffset = 0
    /// The track of the current leaf, once it has one, and the segment (line) of the position.
    private var track: Int?
    private var segment = 0

    init(_ object: GeoJSONObject) {
        properties = object.properties
        if let problem = object.problem {
            single = .record(.rejected(problem))
        } else if properties.isTrip {
            single = .skip(.overlandTrip)
        } else if let action = properties.action {
            single = action == "visit" ? Self.visit(object) : .skip(.overlandAction(action))
        } else if let geometry = object.resolvedGeometry {
            Self.flatten(geometry, into: &leaves)
            let positionCount = leaves.reduce(0) { $0 + ($1.isArea ? 0 : $1.positions.count) }
            if let times = properties.positionTimes, times.count != positionCount {
                single = .record(.rejected(RecordRejection(position: geometry.start, reason: .invalidValue(
                    field: "coordTimes", value: "\(times.count) times for \(positionCount) positions"))))
            }
        } else {
            single = .skip(.noGeometry)
        }
    }

    /// The one record of a plain Point feature (a fix or a waypoint, as `next` would give it), read
    /// without building the feature's state: the shape of every Overland item and of most GPS
    /// apps' exports. `nil` for any other feature, which then goes through `init` and `next`.
    static func pointFeatureRecord(_ object: GeoJSONObject, numbering: inout GeoJSONTrackNumbering) -> FormatRecord? {
        guard object.problem == nil, object.isFeature, !object.properties.isTrip, object.properties.action == nil,
              object.properties.positionTimes == nil, let geometry = object.geometry,
              geometry.kind == .point, geometry.problem == nil, geometry.positions.count == 1
        else { return nil }
        let properties = object.properties
        if let problem = properties.problemForFix { return .rejected(problem) }
        let position = geometry.positions[0]
        guard let coordinate = position.coordinate else {
            return .rejected(geometry.positionProblems[0] ?? RecordRejection(position: geometry.start, reason: .missingField("coordinates")))
        }
        return pointRecord(coordinate, position, properties.time, properties, numbering: &numbering)
    }

    /// A Point's position: a fix of the run of timed Points, or a waypoint without a time.
    private static func pointRecord(_ coordinate: Coordinate, _ position: GeoJSONGeometry.Position, _ time: ParsedTimestamp?,
                                    _ properties: GeoJSONProperties, numbering: inout GeoJSONTrackNumbering) -> FormatRecord {
        guard let time else {
            return .point(FormatPoint(kind: .waypoint, position: .untimed(coordinate, altitudeMeters: position.altitudeMeters ?? properties.altitudeMeters),
                                      name: properties.name))
        }
        return trackPoint(fix(coordinate, position, time, properties), name: properties.name, batteryPercent: properties.batteryPercent,
                          isCharging: properties.isCharging, numbering: &numbering)
    }

    /// A timed Point's record: a fix of the run of timed Points.
    static func trackPoint(_ fix: Location, name: String?, batteryPercent: Double? = nil, isCharging: Bool? = nil,
                           numbering: inout GeoJSONTrackNumbering) -> FormatRecord {
        var point = FormatPoint(kind: .track(track: numbering.pointTrack(), segment: 0), position: .fix(fix), name: name)
        point.batteryPercent = batteryPercent
        point.isCharging = isCharging
        return .point(point)
    }

    /// The next step, or nil when the feature has given everything.
    mutating func next(numbering: inout GeoJSONTrackNumbering) -> Step? {
        if let step = single {
            single = nil
            leaves = []
            return step
        }
        while leafIndex < leaves.count {
            let leaf = leaves[leafIndex]
            if positionIndex == 0, let step = leafStep(leaf) {
                advanceLeaf()
                return step
            }
            guard positionIndex < leaf.positions.count else {
                advanceLeaf()
                continue
            }
            defer { positionIndex += 1 }
            return .record(positionRecord(leaf, numbering: &numbering))
        }
        return nil
    }

    private mutating func advanceLeaf() {
        if !leaves[leafIndex].isArea { timeOffset += leaves[leafIndex].positions.count }
        leafIndex += 1
        positionIndex = 0
        track = nil
        segment = 0
    }

    /// What a leaf gives as a whole instead of one record per position, if anything.
    private func leafStep(_ leaf: GeoJSONGeometry) -> Step? {
        if let problem = leaf.problem { return .record(.rejected(problem)) }
        if leaf.isArea { return .skip(.area(leaf.typeName ?? "")) }
        if leaf.positions.isEmpty { return .skip(.noGeometry) }
        if leaf.kind == .point, properties.positionTimes == nil, let problem = properties.problemForFix {
            return .record(.rejected(problem))
        }
        return nil
    }

    private mutating func positionRecord(_ leaf: GeoJSONGeometry, numbering: inout GeoJSONTrackNumbering) -> FormatRecord {
        let position = leaf.positions[positionIndex]
        guard let coordinate = position.coordinate else {
            return .rejected(leaf.positionProblems[positionIndex]
                             ?? RecordRejection(position: leaf.start, reason: .missingField("coordinates")))
        }
        var time: ParsedTimestamp?
        if let times = properties.positionTimes {
            let index = timeOffset + positionIndex
            if !properties.positionTimeProblems.isEmpty, let problem = properties.positionTimeProblems[index] {
                return .rejected(problem)
            }
            time = times[index]
        } else if leaf.kind == .point {
            time = properties.time
        }

        if leaf.kind == .point { return Self.pointRecord(coordinate, position, time, properties, numbering: &numbering) }
        if leaf.kind == .multiPoint, properties.positionTimes == nil {
            return .point(FormatPoint(kind: .waypoint, position: .untimed(coordinate, altitudeMeters: position.altitudeMeters)))
        }
        if track == nil { track = numbering.newTrack() }
        while segment + 1 < leaf.partStarts.count, leaf.partStarts[segment + 1] <= positionIndex { segment += 1 }
        let kind = FormatPoint.Kind.track(track: track ?? 0, segment: segment)
        guard let time else {
            return .point(FormatPoint(kind: kind, position: .untimed(coordinate, altitudeMeters: position.altitudeMeters)))
        }
        let location = Location(coordinate: coordinate, altitudeMeters: position.altitudeMeters, timestamp: time.date,
                                utcOffsetSeconds: time.utcOffsetSeconds)
        return .point(FormatPoint(kind: kind, position: .fix(location)))
    }

    /// A Point feature's fix: the position, with what the properties say about it.
    static func fix(_ coordinate: Coordinate, _ position: GeoJSONGeometry.Position, _ time: ParsedTimestamp,
                            _ properties: GeoJSONProperties) -> Location {
        Location(coordinate: coordinate,
                 altitudeMeters: position.altitudeMeters ?? properties.altitudeMeters,
                 horizontalAccuracyMeters: properties.horizontalAccuracyMeters ?? -1,
                 verticalAccuracyMeters: properties.verticalAccuracyMeters ?? -1,
                 speedMetersPerSecond: properties.speedMetersPerSecond ?? -1,
                 speedAccuracyMetersPerSecond: properties.speedAccuracyMetersPerSecond ?? -1,
                 courseDegrees: properties.courseDegrees ?? -1,
                 courseAccuracyDegrees: properties.courseAccuracyDegrees ?? -1,
                 timestamp: time.date, utcOffsetSeconds: time.utcOffsetSeconds)
    }

    /// An Overland visit: a stay at the feature's Point from `arrival_date` to `departure_date`
    /// (null while it lasts), its `horizontal_accuracy` as the radius.
    private static func visit(_ object: GeoJSONObject) -> Step {
        let properties = object.properties
        guard let geometry = object.resolvedGeometry, geometry.kind == .point || geometry.problem != nil else {
            return .skip(.incompleteVisit)
        }
        if let problem = geometry.problem { return .record(.rejected(problem)) }
        guard let position = geometry.positions.first else { return .skip(.incompleteVisit) }
        if let problem = geometry.positionProblems[0] ?? properties.visitProblem { return .record(.rejected(problem)) }
        guard let coordinate = position.coordinate else { return .skip(.incompleteVisit) }
        guard let arrival = properties.arrival else { return .skip(.incompleteVisit) }
        let departure = properties.departure
        if let departure, departure.date < arrival.date {
            return .record(.rejected(RecordRejection(position: object.start, reason: .invalidValue(
                field: "departure_date",
                value: "\(ISO8601TimeFormatter.string(departure.date)) before the arrival \(ISO8601TimeFormatter.string(arrival.date))"))))
        }
        let radius = properties.horizontalAccuracyMeters.flatMap { $0 >= 0 ? $0 : nil }
        return .record(.visit(FormatVisit(arrival: arrival.date, departure: departure?.date, coordinate: coordinate,
                                          radiusMeters: radius, name: properties.name)))
    }

    /// The geometries that hold positions, in file order: a GeometryCollection's members in its place.
    private static func flatten(_ geometry: GeoJSONGeometry, into leaves: inout [GeoJSONGeometry]) {
        guard geometry.kind == .geometryCollection, geometry.problem == nil else {
            leaves.append(geometry)
            return
        }
        for member in geometry.members { flatten(member, into: &leaves) }
    }
}
