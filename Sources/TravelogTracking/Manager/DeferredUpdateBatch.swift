import Foundation
import TravelogCore

/// One deferral request (Core Location's `allowDeferredLocationUpdates(untilTraveled:timeout:)`):
/// collects the delivered fixes and hands them out together once the device has travelled the
/// distance (along the fixes, WGS84 geodesic) or the timeout has passed since the request.
/// - Complexity: O(1) per fix.
public struct DeferredUpdateBatch: Sendable {
    /// The distance after which the batch is delivered, in metres; `nil` for no limit.
    public let distanceMeters: Double?
    /// The time after which the batch is delivered, in seconds; `nil` for no limit.
    public let timeoutSeconds: Double?
    /// When the request was made.
    public let requestedAt: Date
    public private(set) var locations: [Location] = []
    public private(set) var traveledMeters: Double = 0

    public init(distanceMeters: Double?, timeoutSeconds: Double?, requestedAt: Date) {
        self.distanceMeters = distanceMeters
        self.timeoutSeconds = timeoutSeconds
        self.requestedAt = requestedAt
    }

    /// Adds a delivered fix. - Returns: whether the batch is complete.
    public mutating func append(_ location: Location) -> Bool {
        if let last = locations.last { traveledMeters += location.distanceMeters(from: last) }
        locations.append(location)
        if let distance = distanceMeters, traveledMeters >= distance { return true }
        return isTimedOut(at: location.timestamp)
    }

    /// Whether the timeout has passed at `now`.
    public func isTimedOut(at now: Date) -> Bool {
        guard let timeout = timeoutSeconds else { return false }
        return now.timeIntervalSince(requestedAt) >= timeout
    }
}
