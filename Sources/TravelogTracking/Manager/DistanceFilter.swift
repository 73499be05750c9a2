import TravelogCore

/// Core Location's `distanceFilter`: a fix is delivered only when it is at least the filter's
/// distance (WGS84 geodesic) from the last delivered one; the first fix always is.
/// - Complexity: O(1) per fix.
public struct DistanceFilter: Sendable {
    public let minimumDistanceMeters: Double?
    private var lastDelivered: Location?

    public init(minimumDistanceMeters: Double?) { self.minimumDistanceMeters = minimumDistanceMeters }

    /// Whether to deliver the fix (it becomes the reference when it is).
    public mutating func admits(_ location: Location) -> Bool {
        if let minimum = minimumDistanceMeters, let last = lastDelivered, location.distanceMeters(from: last) < minimum {
            return false
        }
        lastDelivered = location
        return true
    }
}
