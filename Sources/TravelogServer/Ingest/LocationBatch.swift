import Foundation
import TravelogCore
import TravelogFormats

/// The generic API's own batch: a JSON array of objects (or `{"locations": [...]}` of them), each
///
///     {"latitude": 52.52, "longitude": 13.405, "timestamp": "2024-03-01T09:00:00Z",
///      "altitude": 34, "horizontalAccuracy": 5, "verticalAccuracy": 3, "speed": 1.4, "course": 90}
///
/// `lat`/`lon`, `time`, `alt`, `accuracy`/`acc` are accepted too; `timestamp` may be ISO 8601 or
/// epoch seconds (milliseconds from 2^31−1 up); metres, m/s and degrees; a negative accuracy,
/// speed or course means unknown, as everywhere. A missing timestamp means "now" (the moment the
/// request arrived). Any wrong item refuses the batch with its index and field.
enum LocationBatch {
    static let aliases: [String: [String]] = [
        "latitude": ["latitude", "lat"],
        "longitude": ["longitude", "lon", "lng"],
        "timestamp": ["timestamp", "time", "tst"],
        "altitude": ["altitude", "alt"],
        "horizontalAccuracy": ["horizontalAccuracy", "accuracy", "acc"],
        "verticalAccuracy": ["verticalAccuracy", "vac"],
        "speed": ["speed"],
        "course": ["course", "bearing", "heading"],
    ]

    /// GeoJSON is recognised by a top-level `"type"` member (a Feature or FeatureCollection) or an
    /// Overland-style `locations` array of Features.
    static func looksLikeGeoJSON(_ bytes: [UInt8]) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else { return false }
        if object["type"] != nil { return true }
        if let first = (object["locations"] as? [Any])?.first as? [String: Any] { return first["type"] != nil }
        return false
    }

    static func decode(_ bytes: [UInt8], receivedAt: Date) throws(APIError) -> [Location] {
        let document: Any
        do {
            document = try JSONSerialization.jsonObject(with: Data(bytes))
        } catch {
            throw .badRequest("the body is not valid JSON: \((error as NSError).userInfo[NSDebugDescriptionErrorKey] ?? error)")
        }
        let items: [Any]
        if let array = document as? [Any] {
            items = array
        } else if let object = document as? [String: Any], let array = object["locations"] as? [Any] {
            items = array
        } else if let object = document as? [String: Any] {
            items = [object]
        } else {
            throw .badRequest("expected a JSON array of locations, or an object with a 'locations' array")
        }
        var locations: [Location] = []
        locations.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard let object = item as? [String: Any] else { throw .badRequest("item \(index): expected a JSON object") }
            locations.append(try location(object, index: index, receivedAt: receivedAt))
        }
        return locations
    }

    static func location(_ object: [String: Any], index: Int, receivedAt: Date) throws(APIError) -> Location {
        func value(_ field: String) -> (key: String, value: Any)? {
            for key in aliases[field] ?? [field] { if let value = object[key], !(value is NSNull) { return (key, value) } }
            return nil
        }
        func number(_ field: String) throws(APIError) -> Double? {
            guard let (key, raw) = value(field) else { return nil }
            if let number = raw as? NSNumber, !(raw is Bool) { return number.doubleValue }
            if let text = raw as? String, let number = Double(text) { return number }
            throw .badRequest("item \(index): field '\(key)': expected a number, found \(raw)")
        }
        guard let latitude = try number("latitude") else { throw .badRequest("item \(index): field 'latitude' is missing") }
        guard let longitude = try number("longitude") else { throw .badRequest("item \(index): field 'longitude' is missing") }
        let coordinate: Coordinate
        do {
            coordinate = try Coordinate(latitude: latitude, longitude: longitude)
        } catch {
            throw .badRequest("item \(index): \(error)")
        }
        var timestamp = receivedAt
        if let (key, raw) = value("timestamp") {
            let text = (raw as? String) ?? (raw as? NSNumber).map { $0.stringValue } ?? ""
            guard let parsed = try? TimestampParser.parse(text) else {
                throw .badRequest("item \(index): field '\(key)': expected an ISO 8601 time or epoch seconds, found \(raw)")
            }
            timestamp = parsed.date
        }
        return Location(coordinate: coordinate, altitudeMeters: try number("altitude"),
                        horizontalAccuracyMeters: try number("horizontalAccuracy") ?? -1,
                        verticalAccuracyMeters: try number("verticalAccuracy") ?? -1,
                        speedMetersPerSecond: try number("speed") ?? -1, speedAccuracyMetersPerSecond: -1,
                        courseDegrees: try number("course") ?? -1, courseAccuracyDegrees: -1, timestamp: timestamp)
    }
}
