import Foundation

/// The transport mode of a stretch of travel by a vote of its minutes: a state machine fed one
/// location at a time, in time order.
///
/// The fixes are cut into windows of at least `windowSeconds` (a window closes at the first fix
/// that far from its start, so a gap makes one long window). Each window votes with its length in
/// minutes for the mode of its speed: the median of the fixes' own (Doppler) speeds when the
/// window is short and has some, else the geodesic from its first to its last fix over the time
/// between (which a minute of jitter barely moves). When the phone's motion report in effect is
/// confident enough and plausible at that speed, the window votes for the reported mode instead.
/// The result is the moving mode with the most minutes (the faster on a tie); stationary only when
/// no window moved. Locations older than the previous one are ignored.
///
/// - Complexity: O(1) amortised per location (one geodesic per closed window, a median over the
///   speeds of one window); memory O(fixes per window).
/// - Note: Minute-level speed voting follows the segment-level speed features of Zheng et al.
///   2008, "Understanding mobility based on GPS data" (UbiComp), without its learned model; the
///   motion hint plays the role of Core Motion's `CMMotionActivity`.
public struct TransportModeClassifier: Sendable {
    /// The speed bands in use.
    public let thresholds: Thresholds

    private var anchor: (point: SurfacePoint, time: Double)?
    private var last: (point: SurfacePoint, time: Double)?
    private var windowSpeeds: [Double] = []
    private var activity: MotionActivity?
    private var committedMinutes: [TransportMode: Double] = [:]

    /// Creates a classifier with no votes.
    public init(thresholds: Thresholds = Thresholds()) {
        self.thresholds = thresholds
    }

    /// Feeds the next location, with the phone's motion report in effect at its time (`nil`: the
    /// previous report, if any, still holds).
    public mutating func ingest(_ location: Location, activity: MotionActivity? = nil) {
        let time = location.timestamp.timeIntervalSinceReferenceDate
        if let last, time < last.time { return }
        if let activity { self.activity = activity }
        let point = SurfacePoint(location.coordinate)
        last = (point, time)
        guard let start = anchor else {
            anchor = (point, time)
            return
        }
        if let speed = location.speedIfKnown { windowSpeeds.append(speed) }
        let seconds = time - start.time
        guard seconds >= thresholds.windowSeconds else { return }
        committedMinutes[voteMode(from: start, to: (point, time)), default: 0] += seconds / 60
        anchor = (point, time)
        windowSpeeds.removeAll(keepingCapacity: true)
    }

    /// Minutes voted for each mode so far (the window still open counts with what it has).
    public var minutesByMode: [TransportMode: Double] {
        var minutes = committedMinutes
        if let start = anchor, let end = last, end.time > start.time {
            minutes[voteMode(from: start, to: end), default: 0] += (end.time - start.time) / 60
        }
        return minutes
    }

    /// The mode of the travel so far: the moving mode with the most minutes, stationary if none.
    public var mode: TransportMode {
        let moving = minutesByMode.filter { $0.key != .stationary && $0.value > 0 }
        return moving.max { ($0.value, $0.key) < ($1.value, $1.key) }?.key ?? .stationary
    }

    private func voteMode(from start: (point: SurfacePoint, time: Double), to end: (point: SurfacePoint, time: Double)) -> TransportMode {
        let seconds = end.time - start.time
        let speed: Double
        if seconds <= 2 * thresholds.windowSeconds, !windowSpeeds.isEmpty {
            speed = Self.median(windowSpeeds)
        } else {
            speed = start.point.geodesicMeters(to: end.point) / seconds
        }
        if let activity, activity.confidence >= thresholds.minimumConfidence, let reported = activity.mode,
           reported.isPlausible(atSpeedMetersPerSecond: speed) {
            return reported
        }
        return thresholds.mode(forSpeedMetersPerSecond: speed)
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
