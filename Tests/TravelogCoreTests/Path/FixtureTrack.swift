import Foundation
import TravelogCore

/// Just enough GPX to read the track points (latitude, longitude, time, elevation) of the shared
/// fixtures in Core's tests, which cannot depend on TravelogFormats.
enum FixtureTrack {
    static func locations(gpx url: URL) throws -> [Location] {
        let text = try String(contentsOf: url, encoding: .utf8)
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let whole = ISO8601DateFormatter()
        var locations: [Location] = []
        for chunk in text.components(separatedBy: "<trkpt ").dropFirst() {
            guard let body = chunk.components(separatedBy: "</trkpt>").first,
                  let latitude = attribute("lat", in: body).flatMap(Double.init),
                  let longitude = attribute("lon", in: body).flatMap(Double.init),
                  let coordinate = Coordinate(validLatitude: latitude, longitude: longitude),
                  let time = element("time", in: body),
                  let timestamp = fractional.date(from: time) ?? whole.date(from: time) else { continue }
            locations.append(Location(coordinate: coordinate, altitudeMeters: element("ele", in: body).flatMap(Double.init),
                                      timestamp: timestamp))
        }
        return locations
    }

    private static func attribute(_ name: String, in text: String) -> String? {
        guard let start = text.range(of: "\(name)=\"") else { return nil }
        return text[start.upperBound...].split(separator: "\"", maxSplits: 1).first.map(String.init)
    }

    private static func element(_ name: String, in text: String) -> String? {
        guard let start = text.range(of: "<\(name)>"), let end = text.range(of: "</\(name)>"), start.upperBound <= end.lowerBound else {
            return nil
        }
        return String(text[start.upperBound..<end.lowerBound])
    }
}
