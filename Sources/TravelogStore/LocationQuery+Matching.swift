import Foundation
import TravelogCore

extension LocationQuery {
    /// Whether a stored location falls within the query's time range and area (not its user,
    /// devices or limit, which the store applies).
    public func matches(_ stored: StoredLocation) -> Bool {
        let time = stored.location.timestamp
        if let from, time < from { return false }
        if let to, time >= to { return false }
        if let area, !area.contains(latitude: stored.location.coordinate.latitude,
                                    longitude: stored.location.coordinate.longitude) { return false }
        return true
    }
}
