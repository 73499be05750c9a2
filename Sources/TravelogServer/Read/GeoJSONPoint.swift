import Foundation
import TravelogCore
import TravelogFormats
import TravelogStore

/// The read API's GeoJSON text: one Point Feature per stored location (`LocationFeatureWriter`,
/// as the export and the live stream write it), and one MultiLineString Feature per device for the
/// map's path, whose coordinates are written in their shortest exact form (storage keeps 1e-7°).
enum GeoJSONPoint {
    /// One stored location as the read API writes it: the export's feature (`LocationFeatureWriter`)
    /// with the device's name and the source, and where given the place's time zone (an IANA name).
    static func feature(_ stored: StoredLocation, deviceName: String, timeZone: TimeZone? = nil) -> String {
        let writer = LocationFeatureWriter()
        var extra = [("device", deviceName), ("source", stored.source.rawValue)]
        if let timeZone { extra.append(("timeZone", timeZone.identifier)) }
        writer.write(stored.location, extra: extra)
        return writer.take()
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

    /// A measurement to `places` decimals, trailing zeros dropped, through the export's formatter;
    /// `null` when it is not finite (JSON has no infinity or NaN).
    static func number(_ value: Double, places: Int) -> String {
        value.isFinite ? FixedDecimalFormatter.string(value, decimals: places, trimmingTrailingZeros: true) : "null"
    }

    static func quoted(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data("[\"\"]".utf8)
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }
}
