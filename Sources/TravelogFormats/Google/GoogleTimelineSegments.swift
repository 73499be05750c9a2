import Foundation
import TravelogCore

/// Reads the semantic segments of Google's on-device Timeline exports, which Android
/// (`Timeline.json`, `semanticSegments[]`) and iOS (`location-history.json`, a top-level array)
/// write alike except for spelling: coordinates `"lat°, lon°"` or `"geo:lat,lon"`, a `placeLocation`
/// that is an object `{latLng}` or the text itself, `placeId` or `placeID`, numbers as strings, and
/// path times as `time` or as `durationMinutesOffsetFromStartTime` after the segment's `startTime`.
///
/// Each segment, read whole (they are small), becomes:
/// - `visit` → `.visit` at its top candidate's place, from `startTime` to `endTime`; one with a
///   `hierarchyLevel` above 0 is a place inside the stay of a level-0 visit at the same time (a shop
///   in a mall) and gives nothing: the stay is listed once;
/// - `activity` → a track of two points, `start` at `startTime` and `end` at `endTime`;
/// - `timelinePath` → a track of its points;
/// - anything else (`timelineMemory`) → nothing.
/// Times keep the offset they were written with (`-05:00`). Tracks are numbered from 0 in file order.
struct GoogleTimelineSegments {
    /// The number of the next track.
    private(set) var nextTrack = 0

    private enum SegmentKey: String, CaseIterable {
        case startTime, endTime, visit, activity, timelinePath
    }

    private static let segmentKeys = JSONKeyTable(SegmentKey.self)

    /// What a segment holds, gathered before its times are known (keys come in any order).
    private struct Segment {
        var position: SourcePosition
        var start = GoogleTime.Reading.absent
        var end = GoogleTime.Reading.absent
        var visit: Visit?
        var activity: (start: GooglePointFields?, end: GooglePointFields?)?
        var path: [(point: GooglePointFields, offsetMinutes: Double?)] = []
    }

    private struct Visit {
        var place: GooglePointFields
        var placeIdentifier: String?
        /// 0 for a stay; above 0 for a place visited within the stay of a lower level.
        var hierarchyLevel: Double = 0
    }

    /// Reads one segment whose first event, `event`, has been read; appends its records.
    mutating func readSegment(startingWith event: JSONEvent, from parser: inout JSONParser, into records: inout [FormatRecord]) throws {
        var segment = Segment(position: parser.tokenPosition)
        guard event == .objectStart else {
            try parser.skipRest(after: event)
            let reason = RecordRejection.Reason.invalidValue(field: "semanticSegments[]", value: JSONParser.describeValue(event))
            records.append(.rejected(RecordRejection(position: segment.position, reason: reason)))
            return
        }
        while try parser.nextKey() {
            switch parser.key(in: Self.segmentKeys) {
            case .startTime?: segment.start = try parser.readGoogleTime(unit: .automatic)
            case .endTime?: segment.end = try parser.readGoogleTime(unit: .automatic)
            case .visit?: segment.visit = try Self.readVisit(from: &parser)
            case .activity?: segment.activity = try Self.readActivity(from: &parser)
            case .timelinePath?: segment.path = try Self.readPath(from: &parser)
            case nil: try parser.skipValue()
            }
        }
        append(segment, into: &records)
    }

    private mutating func append(_ segment: Segment, into records: inout [FormatRecord]) {
        if let visit = segment.visit, visit.hierarchyLevel <= 0 {
            records.append(Self.visitRecord(visit, segment: segment))
        }
        if let activity = segment.activity {
            var points: [GooglePointFields] = []
            if var start = activity.start {
                start.time = segment.start
                points.append(start)
            }
            if var end = activity.end {
                end.time = segment.end
                points.append(end)
            }
            appendTrack(points, fields: .latLng, into: &records)
        }
        if !segment.path.isEmpty {
            let points = segment.path.map { entry -> GooglePointFields in
                var point = entry.point
                if point.time == .absent, let minutes = entry.offsetMinutes {
                    point.time = Self.time(segment.start, plusMinutes: minutes)
                }
                return point
            }
            appendTrack(points, fields: .timelinePoint, into: &records)
        }
    }

    /// Appends points as one track (numbered only when it holds a point).
    mutating func appendTrack(_ points: [GooglePointFields], fields: GooglePointFields.FieldNames, into records: inout [FormatRecord]) {
        var holdsPoints = false
        for point in points {
            let record = point.record(kind: .track(track: nextTrack, segment: 0), requiresTime: true, fields: fields)
            if case .point = record { holdsPoints = true }
            records.append(record)
        }
        if holdsPoints { nextTrack += 1 }
    }

    /// Claims a track number for points that will come one by one (Android's raw signals).
    mutating func claimTrack() -> Int {
        defer { nextTrack += 1 }
        return nextTrack
    }

    /// `start` moved by `minutes`, keeping its offset; absent or invalid when `start` is.
    private static func time(_ start: GoogleTime.Reading, plusMinutes minutes: Double) -> GoogleTime.Reading {
        guard case .valid(var instant) = start else { return start }
        guard minutes.isFinite else { return .invalid("\(minutes) minutes after startTime") }
        instant.date += minutes * 60
        return .valid(instant)
    }

    private static func visitRecord(_ visit: Visit, segment: Segment) -> FormatRecord {
        func rejected(_ reason: RecordRejection.Reason) -> FormatRecord {
            .rejected(RecordRejection(position: segment.position, reason: reason))
        }
        let coordinate: Coordinate
        switch GoogleCoordinates.coordinate(
            latitude: visit.place.latitude, longitude: visit.place.longitude,
            latitudeField: "placeLocation", longitudeField: "placeLocation"
        ) {
        case .valid(let value): coordinate = value
        case .rejected(let reason): return rejected(reason)
        }
        let arrival: Date
        switch segment.start {
        case .valid(let instant): arrival = instant.date
        case .absent: return rejected(.missingField("startTime"))
        case .invalid(let text): return rejected(.invalidTime(text))
        }
        var departure: Date?
        switch segment.end {
        case .valid(let instant): departure = instant.date
        case .absent: departure = nil
        case .invalid(let text): return rejected(.invalidTime(text))
        }
        if let departure, departure < arrival {
            return rejected(.invalidValue(field: "endTime", value: "before startTime"))
        }
        return .visit(FormatVisit(arrival: arrival, departure: departure, coordinate: coordinate, placeIdentifier: visit.placeIdentifier))
    }

    /// Reads `visit`: `topCandidate.placeLocation` and `topCandidate.placeId` (`placeID` on iOS).
    private static func readVisit(from parser: inout JSONParser) throws -> Visit? {
        guard try parser.enterObject() else { return nil }
        var visit = Visit(place: GooglePointFields(position: parser.tokenPosition))
        while try parser.nextKey() {
            if parser.stringEquals("hierarchyLevel") {
                if let level = try parser.readGoogleDouble(), level.isFinite { visit.hierarchyLevel = level }
                continue
            }
            guard parser.stringEquals("topCandidate") else {
                try parser.skipValue()
                continue
            }
            guard try parser.enterObject() else { continue }
            while try parser.nextKey() {
                if parser.stringEquals("placeLocation") {
                    visit.place = try readLocation(from: &parser)
                } else if parser.stringEquals("placeId") || parser.stringEquals("placeID") {
                    visit.placeIdentifier = try parser.readGoogleString()
                } else {
                    try parser.skipValue()
                }
            }
        }
        return visit
    }

    /// Reads `activity`: its `start` and `end` locations.
    private static func readActivity(from parser: inout JSONParser) throws -> (start: GooglePointFields?, end: GooglePointFields?)? {
        guard try parser.enterObject() else { return nil }
        var activity: (start: GooglePointFields?, end: GooglePointFields?) = (nil, nil)
        while try parser.nextKey() {
            if parser.stringEquals("start") {
                activity.start = try readLocation(from: &parser)
            } else if parser.stringEquals("end") {
                activity.end = try readLocation(from: &parser)
            } else {
                try parser.skipValue()
            }
        }
        return activity
    }

    /// Reads a location written as text (`"geo:lat,lon"`, `"lat°, lon°"`) or as `{"latLng": text}`.
    static func readLocation(from parser: inout JSONParser) throws -> GooglePointFields {
        let event = try parser.next()
        var point = GooglePointFields(position: parser.tokenPosition)
        switch event {
        case .string?:
            parser.withStringBytes { point.setCoordinate(text: $0) }
        case .objectStart?:
            while try parser.nextKey() {
                if parser.stringEquals("latLng") || parser.stringEquals("LatLng") {
                    try parser.readCoordinateText(into: &point)
                } else {
                    try parser.skipValue()
                }
            }
        default:
            try parser.skipRest(after: event)
            point.latitude = .nan
            point.longitude = .nan
        }
        return point
    }

    /// Reads `timelinePath`: `[{point, time}]` (Android) or `[{point, durationMinutesOffsetFromStartTime}]` (iOS).
    private static func readPath(from parser: inout JSONParser) throws -> [(point: GooglePointFields, offsetMinutes: Double?)] {
        var path: [(point: GooglePointFields, offsetMinutes: Double?)] = []
        guard try parser.enterArray() else { return path }
        while let event = try parser.nextElement() {
            var point = GooglePointFields(position: parser.tokenPosition)
            var offsetMinutes: Double?
            if event == .objectStart {
                while try parser.nextKey() {
                    if parser.stringEquals("point") {
                        try parser.readCoordinateText(into: &point)
                    } else if parser.stringEquals("time") {
                        point.time = try parser.readGoogleTime(unit: .automatic)
                    } else if parser.stringEquals("durationMinutesOffsetFromStartTime") {
                        offsetMinutes = try parser.readGoogleDouble()
                    } else {
                        try parser.skipValue()
                    }
                }
            } else {
                try parser.skipRest(after: event)
            }
            path.append((point, offsetMinutes))
        }
        return path
    }
}
