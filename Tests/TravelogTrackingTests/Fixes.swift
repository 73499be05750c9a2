import Foundation
import TravelogCore
import TravelogTracking

/// Synthetic fixes for the state machines' specifications: positions so many metres north of a
/// start, at so many seconds after an epoch.
enum Fixes {
    static let start = Coordinate(validLatitude: 46.5, longitude: 6.6)!
    static let epoch = Date(timeIntervalSince1970: 1_750_000_000)

    static func at(northMeters: Double, second: Double, accuracyMeters: Double = 5) -> Location {
        let moved = Geodesic.wgs84.direct(from: start, azimuthDegrees: 0, distanceMeters: northMeters).coordinate
        return Location(coordinate: moved, horizontalAccuracyMeters: accuracyMeters, timestamp: epoch.addingTimeInterval(second))
    }

    static func time(_ second: Double) -> Date { epoch.addingTimeInterval(second) }
}

extension LocationManagerEvent {
    /// The fixes of a `didUpdateLocations`, else none.
    var locations: [Location] {
        if case .didUpdateLocations(let locations) = self { return locations }
        return []
    }
}
