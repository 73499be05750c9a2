import Foundation
import TravelogCore

/// Core Location's `requestLocation()`: the first fix that meets the desired accuracy (see
/// `DesiredAccuracy.oneShotTargetMeters`); else, when the timeout ends, the most accurate fix seen;
/// else `LocationManagerError.locationUnknown`. It answers exactly once.
/// - Complexity: O(1) per fix.
public struct OneShotLocationRequest: Sendable {
    /// Core Location gives a one-shot request about ten seconds.
    public static let defaultTimeoutSeconds: Double = 10

    public let targetMeters: Double
    public let deadline: Date
    private var best: Location?
    public private(set) var isAnswered = false

    public init(desiredAccuracy: DesiredAccuracy, requestedAt: Date, timeoutSeconds: Double = defaultTimeoutSeconds) {
        self.targetMeters = desiredAccuracy.oneShotTargetMeters
        self.deadline = requestedAt.addingTimeInterval(timeoutSeconds)
    }

    /// Offers a fix. - Returns: the answer, when this fix decides it.
    public mutating func ingest(_ location: Location) -> LocationManagerEvent? {
        guard !isAnswered else { return nil }
        let accuracy = location.horizontalAccuracyIfValid ?? .infinity
        if accuracy <= targetMeters {
            isAnswered = true
            return .didUpdateLocations([location])
        }
        if accuracy < (best?.horizontalAccuracyIfValid ?? .infinity) || best == nil { best = location }
        return tick(location.timestamp)
    }

    /// Advances the clock. - Returns: the answer when the timeout has ended.
    public mutating func tick(_ now: Date) -> LocationManagerEvent? {
        guard !isAnswered, now >= deadline else { return nil }
        isAnswered = true
        if let best { return .didUpdateLocations([best]) }
        return .didFail(.locationUnknown)
    }
}
