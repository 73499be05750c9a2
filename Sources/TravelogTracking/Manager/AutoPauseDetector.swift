import Foundation
import TravelogCore

/// Decides when the device has stopped moving and when it moves again (Core Location's
/// `pausesLocationUpdatesAutomatically`).
///
/// The device is still while its fixes stay within the tuning's radius (widened by each fix's
/// accuracy) of the fix where it stopped; after `pauseAfterSeconds` of that, updates pause. The
/// first fix outside resumes them and is delivered.
/// - Complexity: O(1) per fix (one geodesic distance).
public struct AutoPauseDetector: Sendable {
    /// What a fix means for the updates.
    public enum Decision: Hashable, Sendable {
        case deliver
        case pause
        case resume
        case suppress
    }

    public let tuning: AutoPauseTuning
    private var anchor: Location?
    public private(set) var isPaused = false

    public init(tuning: AutoPauseTuning) { self.tuning = tuning }

    public mutating func ingest(_ location: Location) -> Decision {
        guard let stop = anchor else {
            anchor = location
            return .deliver
        }
        let radius = max(tuning.stationaryRadiusMeters, location.horizontalAccuracyIfValid ?? 0)
        if location.distanceMeters(from: stop) > radius {
            anchor = location
            if isPaused {
                isPaused = false
                return .resume
            }
            return .deliver
        }
        if isPaused { return .suppress }
        if location.timestamp.timeIntervalSince(stop.timestamp) >= tuning.pauseAfterSeconds {
            isPaused = true
            return .pause
        }
        return .deliver
    }
}
