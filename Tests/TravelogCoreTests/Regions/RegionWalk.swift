import Foundation
import TravelogCore

/// Fixes placed by distance and bearing from a point, one every `intervalSeconds`, for region
/// tests that read like a walk: "30 s at 80 m east of the centre, then 40 s at 200 m".
struct RegionWalk {
    let center: Coordinate
    var intervalSeconds: Double = 5
    var accuracyMeters: Double = 5
    var time = 0.0
    var locations: [Location] = []
    static let start = Date(timeIntervalSinceReferenceDate: 800_000_000)

    init(center: Coordinate, intervalSeconds: Double = 5, accuracyMeters: Double = 5) {
        self.center = center
        self.intervalSeconds = intervalSeconds
        self.accuracyMeters = accuracyMeters
    }

    static func date(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }

    /// One fix `distanceMeters` from the centre on a bearing, then time moves on.
    mutating func fix(atMeters distanceMeters: Double, bearingDegrees: Double = 90, accuracyMeters: Double? = nil) {
        let coordinate = center.destination(bearingDegrees: bearingDegrees, distanceMeters: distanceMeters)
        locations.append(Location(coordinate: coordinate, horizontalAccuracyMeters: accuracyMeters ?? self.accuracyMeters,
                                  timestamp: Self.date(time)))
        time += intervalSeconds
    }

    /// Fixes at one distance for a while (`seconds / intervalSeconds` of them).
    mutating func stay(atMeters distanceMeters: Double, seconds: Double, bearingDegrees: Double = 90) {
        for _ in 0..<Int((seconds / intervalSeconds).rounded()) { fix(atMeters: distanceMeters, bearingDegrees: bearingDegrees) }
    }
}

extension Coordinate {
    /// A coordinate from literal test values.
    static func at(_ latitude: Double, _ longitude: Double) -> Coordinate {
        Coordinate(validLatitude: latitude, longitude: longitude)!
    }
}
