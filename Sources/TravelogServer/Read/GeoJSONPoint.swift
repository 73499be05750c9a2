import Foundation
import TravelogCore
import TravelogFormats
import TravelogStore

/// The read API's GeoJSON text: one Point Feature per stored location (its time in
/// `properties.timestamp`), and one MultiLineString Feature per device for the map's path.
/// Coordinates are written in their shortest exact form (storage keeps 1e-7°).
enum GeoJSONPoint {
    static func feature(_ stored: StoredLocation, deviceName: String) -> String {
        let location = stored.location
        var properties = #""timestamp":"\#(ISO8601TimeFormatter.string(location.timestamp))","device":\#(quoted(deviceName)),"source":"\#(stored.source.rawValue)""#
        if let altitude = location.altitudeMeters { properties += #","altitude":\#(number(altitude, places: 2))"# }
        if location.horizontalAccuracyMeters >= 0 {
            properties += #","horizontalAccuracy":\#(number(location.horizontalAccuracyMeters, places: 2))"#
        }
        if location.speedMetersPerSecond >= 0 { properties += #","speed":\#(number(location.speedMetersPerSecond, places: 2))"# }
        if location.courseDegrees >= 0 { properties += #","course":\#(number(location.courseDegrees, places: 1))"# }
        return #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(location.coordinate.longitude),\#(location.coordinate.latitude)]},"properties":{\#(properties)}}"#
    }

    static func pathFeature(device: String, segments: [[Coordinate]], builder: PathBuilder) -> String {
        var text = #"{"type":"Feature","geometry":{"type":"MultiLineString","coordinates":["#
        for (index, segment) in segments.enumerated() {
            if index > 0 { text += "," }
            text += "["
            for (pointIndex, coordinate) in segment.enumerated() {
                if pointIndex > 0 { text += "," }
                text += "[\(coordinate.longitude),\(coordinate.latitude)]"
            }
            text += "]"
        }
        let drawn = segments.reduce(0) { $0 + $1.count }
        text += #"]},"properties":{"device":\#(quoted(device)),"rawPointCount":\#(builder.rawPointCount),"pointCount":\#(drawn),"#
        text += #""distanceMeters":\#(number(builder.distanceMeters, places: 1))"#
        if let first = builder.first { text += #","first":"\#(ISO8601TimeFormatter.string(first.timestamp))""# }
        if let last = builder.last {
            text += #","last":"\#(ISO8601TimeFormatter.string(last.timestamp))","lastCoordinates":[\#(last.coordinate.longitude),\#(last.coordinate.latitude)]"#
        }
        return text + "}}"
    }

    static func number(_ value: Double, places: Int) -> String {
        let scale = pow(10, Double(places))
        let rounded = (value * scale).rounded() / scale
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int64(rounded)) : String(rounded)
    }

    static func quoted(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data("[\"\"]".utf8)
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }
}
