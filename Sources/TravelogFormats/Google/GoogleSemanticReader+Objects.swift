import Foundation
import TravelogCore

/// The two kinds of timeline object and the pieces they are made of.
extension GoogleSemanticReader {
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

    /// Reads a `placeVisit` whose `{` is at `position` (consumed).
    func readPlaceVisit(at position: SourcePosition) throws {
        var location: Place?
        var candidate: Place?
        var center = GooglePointFields(position: position)
        var start = GoogleTime.Reading.absent
        var end = GoogleTime.Reading.absent
        var rawPath: [GooglePointFields] = []
        while try parser.nextKey() {
            if parser.stringEquals("location") {
                location = try readPlace()
            } else if parser.stringEquals("duration") {
                (start, end) = try readDuration()
            } else if parser.stringEquals("centerLatE7") {
                center.latitude = try parser.readLenientDouble().map(GoogleCoordinates.latitudeDegrees(e7:))
            } else if parser.stringEquals("centerLngE7") {
                center.longitude = try parser.readLenientDouble().map(GoogleCoordinates.longitudeDegrees(e7:))
            } else if parser.stringEquals("otherCandidateLocations") {
                candidate = try readFirstCandidate()
            } else if parser.stringEquals("simplifiedRawPath") {
                rawPath = try readPath(arrayKey: "points")
            } else {
                try parser.skipValue()
            }
        }
        let centerPlace = Place(point: center)
        let chosen = [location, centerPlace, candidate].lazy.compactMap { $0 }.first { $0.hasCoordinate }
        pending.append(visitRecord(at: position, place: chosen, named: location, start: start, end: end))
        appendTrack([rawPath.map { ($0, requiresTime: false, fields: .pathPoint) }])
    }

    /// The visit, or why it is rejected.
    private func visitRecord(
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
    func readActivitySegment() throws {
        var startPlace: Place?
        var endPlace: Place?
        var start = GoogleTime.Reading.absent
        var end = GoogleTime.Reading.absent
        var waypoints: [GooglePointFields] = []
        var rawPath: [GooglePointFields] = []
        while try parser.nextKey() {
            if parser.stringEquals("startLocation") {
                startPlace = try readPlace()
            } else if parser.stringEquals("endLocation") {
                endPlace = try readPlace()
            } else if parser.stringEquals("duration") {
                (start, end) = try readDuration()
            } else if parser.stringEquals("waypointPath") {
                waypoints = try readPath(arrayKey: "waypoints")
            } else if parser.stringEquals("simplifiedRawPath") {
                rawPath = try readPath(arrayKey: "points")
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
        appendTrack([outline, rawPath.map { ($0, requiresTime: false, fields: .pathPoint) }])
    }

    /// Reads a place object; nil (skipped) when the value is not an object.
    private func readPlace() throws -> Place? {
        guard try parser.enterObject() else { return nil }
        return try readPlaceMembers()
    }

    /// Reads the members of a place object whose `{` has been consumed.
    private func readPlaceMembers() throws -> Place {
        var place = Place(point: GooglePointFields(position: parser.tokenPosition))
        while try parser.nextKey() {
            switch parser.key(in: Self.placeKeys) {
            case .latitudeE7?, .latE7?: place.point.latitude = try parser.readLenientDouble().map(GoogleCoordinates.latitudeDegrees(e7:))
            case .longitudeE7?, .lngE7?: place.point.longitude = try parser.readLenientDouble().map(GoogleCoordinates.longitudeDegrees(e7:))
            case .name?: place.name = try parser.readLenientString()
            case .address?: place.address = try parser.readLenientString()
            case .placeId?: place.placeIdentifier = try parser.readLenientString()
            case nil: try parser.skipValue()
            }
        }
        return place
    }

    /// Reads `otherCandidateLocations` and keeps the first candidate.
    private func readFirstCandidate() throws -> Place? {
        guard try parser.enterArray() else { return nil }
        var first: Place?
        while let event = try parser.nextElement() {
            if first == nil, event == .objectStart {
                first = try readPlaceMembers()
            } else {
                try parser.skipRest(after: event)
            }
        }
        return first
    }

    /// Reads a `duration`: start and end, ISO 8601 (`…Timestamp`) or milliseconds (`…TimestampMs`).
    private func readDuration() throws -> (start: GoogleTime.Reading, end: GoogleTime.Reading) {
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
    private func readPath(arrayKey: StaticString) throws -> [GooglePointFields] {
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
                try readPointMembers(into: &point)
                points.append(point)
            }
        }
        return points
    }

    /// Reads a path point's members: `latE7`, `lngE7`, `accuracyMeters`, `timestamp` or `timestampMs`.
    private func readPointMembers(into point: inout GooglePointFields) throws {
        var timestampMs = GoogleTime.Reading.absent
        while try parser.nextKey() {
            switch parser.key(in: Self.pointKeys) {
            case .latE7?, .latitudeE7?: point.latitude = try parser.readLenientDouble().map(GoogleCoordinates.latitudeDegrees(e7:))
            case .lngE7?, .longitudeE7?: point.longitude = try parser.readLenientDouble().map(GoogleCoordinates.longitudeDegrees(e7:))
            case .accuracyMeters?: point.horizontalAccuracyMeters = try parser.readLenientDouble()
            case .timestamp?: point.time = try parser.readGoogleTime(unit: .automatic)
            case .timestampMs?: timestampMs = try parser.readGoogleTime(unit: .milliseconds)
            case nil: try parser.skipValue()
            }
        }
        if point.time == .absent { point.time = timestampMs }
    }
}
