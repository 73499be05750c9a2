import Foundation
import TravelogCore

/// Holds back fixes worse than the desired accuracy while a better one may come: a fix that meets
/// the accuracy passes at once and discards what was held; when `holdSeconds` pass with no such
/// fix, the most accurate held fix is released.
///
/// It also watches for stalled accuracy: fixes that miss the goal without getting better.
/// - Complexity: O(1) per fix.
public struct AccuracyGate: Sendable {
    public let desiredAccuracy: DesiredAccuracy
    public let holdSeconds: Double
    private var held: Location?
    private var heldSince: Date?
    private var bestMissAccuracyMeters: Double = .infinity
    private var lastProgress: Date?

    public init(desiredAccuracy: DesiredAccuracy, holdSeconds: Double) {
        self.desiredAccuracy = desiredAccuracy
        self.holdSeconds = holdSeconds
    }

    /// Passes a fix. - Returns: the fix to deliver, if any (the fix itself or a released one).
    public mutating func ingest(_ location: Location) -> Location? {
        if desiredAccuracy.isMet(by: location) {
            held = nil
            heldSince = nil
            bestMissAccuracyMeters = .infinity
            lastProgress = location.timestamp
            return location
        }
        let accuracy = location.horizontalAccuracyIfValid ?? .infinity
        if accuracy < bestMissAccuracyMeters - 1 || lastProgress == nil {
            lastProgress = location.timestamp
        }
        bestMissAccuracyMeters = min(bestMissAccuracyMeters, accuracy)
        if let current = held, (current.horizontalAccuracyIfValid ?? .infinity) <= accuracy {
            // keep the more accurate one
        } else {
            held = location
        }
        if heldSince == nil { heldSince = location.timestamp }
        return tick(location.timestamp)
    }

    /// Advances the clock. - Returns: the best held fix when its hold has ended.
    public mutating func tick(_ now: Date) -> Location? {
        guard let since = heldSince, now.timeIntervalSince(since) >= holdSeconds, let released = held else { return nil }
        held = nil
        heldSince = nil
        return released
    }

    /// How long fixes have missed the goal without improving by a metre, in seconds (0 when the
    /// last fix met it).
    public func stalledSeconds(at now: Date) -> Double {
        guard bestMissAccuracyMeters.isFinite || heldSince != nil, let progress = lastProgress else { return 0 }
        return now.timeIntervalSince(progress)
    }
}
