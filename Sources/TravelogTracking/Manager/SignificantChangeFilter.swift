import Foundation
import TravelogCore

/// The significant-change service (`startMonitoringSignificantLocationChanges`): a fix is
/// delivered only when it is at least `minimumDistanceMeters` (about 500 m, as Apple documents)
/// from the last delivered one and at least `minimumIntervalSeconds` after it (Apple: "no more
/// frequently than once every five minutes"). The first fix is always delivered.
/// - Complexity: O(1) per fix.
public struct SignificantChangeFilter: Sendable {
    public static let defaultMinimumDistanceMeters: Double = 500
    public static let defaultMinimumIntervalSeconds: Double = 300

    public let minimumDistanceMeters: Double
    public let minimumIntervalSeconds: Double
    private var lastDelivered: Location?

    public init(minimumDistanceMeters: Double = defaultMinimumDistanceMeters,
                minimumIntervalSeconds: Double = defaultMinimumIntervalSeconds) {
        self.minimumDistanceMeters = minimumDistanceMeters
        self.minimumIntervalSeconds = minimumIntervalSeconds
    }

    public mutating func admits(_ location: Location) -> Bool {
        if let last = lastDelivered {
            guard location.timestamp.timeIntervalSince(last.timestamp) >= minimumIntervalSeconds,
                  location.distanceMeters(from: last) >= minimumDistanceMeters else { return false }
        }
        lastDelivered = location
        return true
    }
}
