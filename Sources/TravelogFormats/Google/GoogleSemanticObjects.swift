import Foundation
import TravelogCore

/// Reads the elements of Semantic Location History's `timelineObjects`, one whole object at a time
/// (they are small): `placeVisit` and `activitySegment`, as `GoogleSemanticReader` describes.
/// The parser is passed `inout`, so that a reader holding it in a class pays for one exclusive
/// access per object, not one per value.
struct GoogleSemanticObjects {
    /// The number of the next track.
    private(set) var nextTrack = 0

    /// A `location`, `startLocation`, `endLocation` or candidate: a coordinate and what names it.
    struct Place {
        var point: GooglePointFields
        var name: String?
        var address: String?
        var placeIdentifier: String?

        /// Whether the object gave any coordinate (`{}` gives none and is left out, not rejected).
        var hasCoordinate: Bool { point.latitude != nil || point.longitude != nil }
    }

    typealias TrackPoint = (GooglePointFields, requiresTime: Bool, fields: GooglePointFields.FieldNames)

    private enum PlaceKey: String, CaseIterable {
        case latitudeE7, longitudeE7, latE7, lngE7, name, address, placeId
    }

    private enum PointKey: String, CaseIterable {
        case latE7, lngE7, latitudeE7, longitudeE7, accuracyMeters, timestamp, timestampMs
    }

    private static let placeKeys = JSONKeyTable(PlaceKey.self)
    private static let pointKeys = JSONKeyTable(PointKey.self)

    /// Reads one element of `timelineObjects` whose first event, `event`, has been read; appends its records.
    mutating func readTimelineObject(startingWith event: JSONEvent, from parser: inout JSONParser, into records: inout [FormatRecord]) throws {
        let position = parser.tokenPosition
        guard event == .objectStart else {
            try parser.skipRest(after: event)
            let found = JSONParser.describeValue(event)
            records.append(.rejected(RecordRejection(position: position, reason: .invalidValue(field: "timelineObjects[]", value: found))))
            return
        }
        while try parser.nextKey() {
            if parser.stringEquals("placeVisit") {
                if try parser.enterObject() { try readPlaceVisit(at: parser.tokenPosition, from: &parser, into: &records) }
            } else if parser.stringEquals("activitySegment") {
                if try parser.enterObject() { try readActivitySegment(from: &parser, into: &records) }
            } else {
                try parser.skipValue()
            }
        }
    }

    /// Appends the records of one track's segments, numbering the segments that hold points.
    private mutating func appendTrack(_ segments: [[TrackPoint]], into records: inout [FormatRecord]) {
        var segment = 0
        for points in segments {
            var holdsPoints = false
            for (point, requiresTime, fields) in points {
                let record = point.record(kind: .track(track: nextTrack, segment: segment), requiresTime: requiresTime, fields: fields)
                if case .point = record { holdsPoints = true }
                records.append(record)
            }
            if holdsPoints { segment += 1 }
        }
        if segment > 0 { nextTrack += 1 }
    }

    /// Reads a `placeVisit` whose `{` is at `position` (consumed).
    private mutating func readPlaceVisit(at position: SourcePosition, from parser: inout JSONParser, into records: inout [FormatRecord]) throws {
        var location: Place?
        var candidate: Place?
        var center = GooglePointFields(position: position)
        var start = GoogleTime.Reading.absent
        var end = GoogleTime.Reading.absent
        var rawPath: [GooglePointFields] = []
        while try parser.nextKey() {
            if parser.stringEquals("location") {
                location = try Self.readPlace(from: &parser)
            } else if parser.stringEquals("duration") {
                (start, end) = try Self.readDuration(from: &parser)
            } else if parser.stringEquals("centerLatE7") {
                center.latitude = try parser.readGoogleDouble().map(GoogleCoordinates.latitudeDegrees(e7:))
            } else if parser.stringEquals("centerLngE7") {
                center.longitude = try parser.readGoogleDouble().map(GoogleCoordinates.longitudeDegrees(e7:))
            } else if parser.stringEquals("otherCandidateLocations") {
                candidate = try Self.readFirstCandidate(from: &parser)
            } else if parser.stringEquals("simplifiedRawPath") {
                rawPath = try Self.readPath(arrayKey: "points", from: &parser)
            } else {
                try parser.skipValue()
            }
        }
        let centerPlace = Place(point: center)
        let chosen = [location, centerPlace, candidate].lazy.compactMap { $0 }.first { $0.hasCoordinate }
        records.append(Self.visitRecord(at: position, place: chosen, named: location, start: start, end: end))
        appendTrack([rawPath.map { ($0, requiresTime: false, fields: .pathPoint) }], into: &records)
    }

    /// The visit, or why it is rejected.
    private static func visitRecord(
        at position: SourcePosition, place: Place?, named location: Place?, start: GoogleTime.Reading, end: GoogleTime.Reading
    ) -> FormatRecord {
        func rejected(_ reason: RecordRejection.Reason) -> FormatRecord {
            .rejected(RecordRejection(position: position, reason: reason))
        }
        guard let place else { return rejected(.missingField("location.latitudeE7")) }
        let coordinate: Coordinate
        switch GoogleCoordinates.coordinate(
            latitude: place.point.latitude, longitude: place.point.longitude,
            latitudeField: "location.latitudeE7", longitudeField: "location.longitudeE7"
        ) {
        case .valid(let value): coordinate = value
        case .rejected(let reason): return rejected(reason)
        }
        let arrival: Date
        switch start {
        case .valid(let instant): arrival = instant.date
        case .absent: return rejected(.missingField("duration.startTimestamp"))
        case .invalid(let text): return rejected(.invalidTime(text))
        }
        var departure: Date?
        switch end {
        case .valid(let instant): departure = instant.date
        case .absent: departure = nil
        case .invalid(let text): return rejected(.invalidTime(text))
        }
        if let departure, departure < arrival {
            return rejected(.invalidValue(field: "duration", value: "ends before it starts"))
        }
        return .visit(FormatVisit(
            arrival: arrival, departure: departure, coordinate: coordinate,
            name: location?.name ?? place.name, address: location?.address ?? place.address,
            placeIdentifier: location?.placeIdentifier ?? place.placeIdentifier
        ))
    }

    /// Reads an `activitySegment` whose `{` has been consumed.
    private mutating func readActivitySegment(from parser: inout JSONParser, into records: inout [FormatRecord]) throws {
        var startPlace: Place?
        var endPlace: Place?
        var start = GoogleTime.Reading.absent
        var end = GoogleTime.Reading.absent
        var waypoints: [GooglePointFields] = []
        var rawPath: [GooglePointFields] = []
        while try parser.nextKey() {
            if parser.stringEquals("startLocation") {
                startPlace = try Self.readPlace(from: &parser)
            } else if parser.stringEquals("endLocation") {
                endPlace = try Self.readPlace(from: &parser)
            } else if parser.stringEquals("duration") {
                (start, end) = try Self.readDuration(from: &parser)
            } else if parser.stringEquals("waypointPath") {
                waypoints = try Self.readPath(arrayKey: "waypoints", from: &parser)
            } else if parser.stringEquals("simplifiedRawPath") {
                rawPath = try Self.readPath(arrayKey: "points", from: &parser)
            } else {
                try parser.skipValue()
            }
        }
        var outline: [TrackPoint] = []
        if var place = startPlace, place.hasCoordinate {
            place.point.time = start
            outline.append((place.point, requiresTime: false, fields: .location))
        }
        outline += waypoints.map { ($0, requiresTime: false, fields: .pathPoint) }
        if var place = endPlace, place.hasCoordinate {
            place.point.time = end
            outline.append((place.point, requiresTime: false, fields: .location))
        }
        if rawPath.isEmpty { Self.interpolateTimes(of: &outline, start: start, end: end) }
        appendTrack([outline, rawPath.map { ($0, requiresTime: false, fields: .pathPoint) }], into: &records)
    }

    /// Reads a place object; nil (skipped) when the value is not an object.
    private static func readPlace(from parser: inout JSONParser) throws -> Place? {
        guard try parser.enterObject() else { return nil }
        return try readPlaceMembers(from: &parser)
    }

    /// Reads the members of a place object whose `{` has been consumed.
    private static func readPlaceMembers(from parser: inout JSONParser) throws -> Place {
        var place = Place(point: GooglePointFields(position: parser.tokenPosition))
        while try parser.nextKey() {
            switch parser.key(in: Self.placeKeys) {
            case .latitudeE7?, .latE7?: place.point.latitude = try parser.readGoogleDouble().map(GoogleCoordinates.latitudeDegrees(e7:))
            case .longitudeE7?, .lngE7?: place.point.longitude = try parser.readGoogleDouble().map(GoogleCoordinates.longitudeDegrees(e7:))
            case .name?: place.name = try parser.readGoogleString()
            case .address?: place.address = try parser.readGoogleString()
            case .placeId?: place.placeIdentifier = try parser.readGoogleString()
            case nil: try parser.skipValue()
            }
        }
        return place
    }

    /// Reads `otherCandidateLocations` and keeps the first candidate.
    private static func readFirstCandidate(from parser: inout JSONParser) throws -> Place? {
        guard try parser.enterArray() else { return nil }
        var first: Place?
        while let event = try parser.nextElement() {
            if first == nil, event == .objectStart {
                first = try readPlaceMembers(from: &parser)
            } else {
                try parser.skipRest(after: event)
            }
        }
        return first
    }

    /// Reads a `duration`: start and end, ISO 8601 (`…Timestamp`) or milliseconds (`…TimestampMs`).
    private static func readDuration(from parser: inout JSONParser) throws -> (start: GoogleTime.Reading, end: GoogleTime.Reading) {
        var start = GoogleTime.Reading.absent
        var end = GoogleTime.Reading.absent
        guard try parser.enterObject() else { return (start, end) }
        while try parser.nextKey() {
            if parser.stringEquals("startTimestamp") {
                start = try parser.readGoogleTime(unit: .automatic)
            } else if parser.stringEquals("endTimestamp") {
                end = try parser.readGoogleTime(unit: .automatic)
            } else if parser.stringEquals("startTimestampMs") {
                let reading = try parser.readGoogleTime(unit: .milliseconds)
                if start == .absent { start = reading }
            } else if parser.stringEquals("endTimestampMs") {
                let reading = try parser.readGoogleTime(unit: .milliseconds)
                if end == .absent { end = reading }
            } else {
                try parser.skipValue()
            }
        }
        return (start, end)
    }

    /// Reads a `waypointPath` or `simplifiedRawPath` object and the points of its array `arrayKey`.
    private static func readPath(arrayKey: StaticString, from parser: inout JSONParser) throws -> [GooglePointFields] {
        var points: [GooglePointFields] = []
        guard try parser.enterObject() else { return points }
        while try parser.nextKey() {
            guard parser.stringEquals(arrayKey) else {
                try parser.skipValue()
                continue
            }
            guard try parser.enterArray() else { continue }
            while let event = try parser.nextElement() {
                var point = GooglePointFields(position: parser.tokenPosition)
                guard event == .objectStart else {
                    try parser.skipRest(after: event)
                    point.latitude = .nan
                    point.longitude = .nan
                    points.append(point)
                    continue
                }
                try readPointMembers(into: &point, from: &parser)
                points.append(point)
            }
        }
        return points
    }

    /// Reads a path point's members: `latE7`, `lngE7`, `accuracyMeters`, `timestamp` or `timestampMs`.
    private static func readPointMembers(into point: inout GooglePointFields, from parser: inout JSONParser) throws {
        var timestampMs = GoogleTime.Reading.absent
        while try parser.nextKey() {
            switch parser.key(in: Self.pointKeys) {
            case .latE7?, .latitudeE7?: point.latitude = try parser.readGoogleDouble().map(GoogleCoordinates.latitudeDegrees(e7:))
            case .lngE7?, .longitudeE7?: point.longitude = try parser.readGoogleDouble().map(GoogleCoordinates.longitudeDegrees(e7:))
            case .accuracyMeters?: point.horizontalAccuracyMeters = try parser.readGoogleDouble()
            case .timestamp?: point.time = try parser.readGoogleTime(unit: .automatic)
            case .timestampMs?: timestampMs = try parser.readGoogleTime(unit: .milliseconds)
            case nil: try parser.skipValue()
            }
        }
        if point.time == .absent { point.time = timestampMs }
    }
}
