import Foundation

/// Distance traveled that measures movement, not GPS noise: a state machine fed one location at a
/// time, in time order.
///
/// A person who stands still for an hour while the fixes jitter by 20 m has traveled (close to)
/// nothing, and a real walk is not shortened by more than a few percent. The machine alternates
/// between two phases:
///
/// - **Stationary** at a place, the accuracy-weighted mean of the fixes within the stationary
///   radius (`stationaryRadiusFactor` × the combined accuracy of place and fix) of it. Steps
///   inside the radius contribute nothing, however long the stay and however many the fixes.
///   A fix outside is held back; the device leaves only when `departureFixCount` consecutive fixes
///   lie outside and so does their mean, so a stray fix or two does not move it.
/// - **Moving** from that place: fixes are averaged in groups spanning about twice their accuracy,
///   the group means are simplified with an opening window whose tolerance is each mean's own
///   noise, and the remaining vertices are joined by WGS84 geodesics. When the latest fixes have
///   stayed within the stationary radius of their centre for `stopDurationSeconds`, the trip ends
///   there: the distance counted since those fixes began (the jitter of the stop) is withdrawn and
///   replaced by the geodesic to the stop's centre. A trip that ends where it began without ever
///   getting clearly away, or whose average speed is below `minimumTripSpeedMetersPerSecond`, was
///   noise and contributes nothing.
///
/// Accuracy is read as Core Location reads it: the radius of the ≈ 68 % confidence circle,
/// roughly the root-mean-square radial error. A fix with no accuracy (negative) is given
/// `assumedAccuracyMeters`. A single fix far from both of its neighbours while they are close to
/// each other (a spike) is discarded before anything else sees it; judging that needs the next fix,
/// so the latest fix counts only provisionally (as a chord from the path's end) until the next one
/// arrives. Locations older than the previous one are ignored.
///
/// - Complexity: O(1) amortised per location, at most O(64) for the simplification window;
///   memory O(1) apart from the short window. Each committed vertex costs one geodesic inverse.
/// - Note: The stationary/moving segmentation follows the stay points of Li et al. 2008, "Mining
///   user similarity based on location history" (ACM SIGSPATIAL GIS), with radii scaled by the
///   accuracy; the moving phase is simplified online by an opening window (Meratnia & de By 2004,
///   "Spatiotemporal compression techniques for moving point objects", EDBT) that breaks at the
///   farthest point, as Douglas & Peucker 1973 do.
public struct TraveledDistance: Sendable {
    /// The thresholds in use.
    public let configuration: Configuration

    private enum State: Sendable {
        case empty
        /// At a place, with the fixes currently outside it (candidates for a departure).
        case stationary(place: WeightedCentroid, outside: [PathFix])
        case moving(Trip)
    }

    private var state = State.empty
    /// The fix that waits for its successor to be judged (spike or not).
    private var held: PathFix?
    /// The last fix that was passed on.
    private var lastAccepted: PathFix?
    private var latestTime = -Double.infinity
    /// The distance of the trips that have ended (their arrival confirmed), metres: it never
    /// decreases, unlike `distanceMeters`, whose provisional part may be withdrawn.
    public private(set) var committedDistanceMeters = 0.0
    private var committedMovingSeconds = 0.0
    private var committedMaximumSpeed: Double?

    /// Locations ignored because they were older than the previous one.
    public private(set) var outOfOrderCount = 0
    /// Locations discarded as spikes (far from both neighbours while those are close together).
    public private(set) var spikeCount = 0

    /// Creates an empty accumulator.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Creates an accumulator and feeds it every location of a time-ordered sequence.
    public init<S: Sequence>(_ locations: S, configuration: Configuration = Configuration()) where S.Element == Location {
        self.init(configuration: configuration)
        for location in locations { ingest(location) }
    }

    /// Feeds the next location (time order; an older one is counted in `outOfOrderCount` and ignored).
    public mutating func ingest(_ location: Location) {
        let time = location.timestamp.timeIntervalSinceReferenceDate
        guard time >= latestTime else {
            outOfOrderCount += 1
            return
        }
        latestTime = time
        let accuracy = max(location.horizontalAccuracyIfValid ?? configuration.assumedAccuracyMeters, configuration.minimumAccuracyMeters)
        let fix = PathFix(point: SurfacePoint(location.coordinate), accuracyMeters: accuracy, time: time)
        defer { held = fix }
        guard let candidate = held else { return }
        if let before = lastAccepted, isSpike(candidate, between: before, and: fix) {
            spikeCount += 1
            return
        }
        lastAccepted = candidate
        process(candidate)
    }

    /// The distance traveled so far, metres. While moving, the part since the last committed
    /// vertex is provisional (measured along the pending chords).
    public var distanceMeters: Double {
        guard let outcome = provisionalOutcome, counts(outcome) else { return committedDistanceMeters }
        return committedDistanceMeters + outcome.distanceMeters
    }

    /// The time spent moving, seconds: each counted trip from the last fix at the place it left
    /// to the first fix at the place where it stopped.
    public var movingDurationSeconds: Double {
        guard let outcome = provisionalOutcome, counts(outcome) else { return committedMovingSeconds }
        return committedMovingSeconds + outcome.durationSeconds
    }

    /// The largest speed along the counted trips that a single wild value cannot set, metres per
    /// second: speeds are sampled along the simplified path over spans of at least 10 s, and the
    /// maximum is taken over the medians of three consecutive samples. `nil` before any sample.
    public var maximumSpeedMetersPerSecond: Double? {
        guard let outcome = provisionalOutcome, counts(outcome), let provisional = outcome.speeds.value else {
            return committedMaximumSpeed
        }
        return max(committedMaximumSpeed ?? provisional, provisional)
    }

    /// Whether the device is currently between two stationary places.
    public var isMoving: Bool {
        if case .moving = state { return true }
        return false
    }

    // MARK: The state machine

    private func isSpike(_ fix: PathFix, between before: PathFix, and after: PathFix) -> Bool {
        let toBefore = fix.point.chordMeters(to: before.point), toAfter = fix.point.chordMeters(to: after.point)
        let limitBefore = TripTuning.spikeAccuracyFactor * hypot(fix.accuracyMeters, before.accuracyMeters)
        let limitAfter = TripTuning.spikeAccuracyFactor * hypot(fix.accuracyMeters, after.accuracyMeters)
        return toBefore > limitBefore && toAfter > limitAfter
            && before.point.chordMeters(to: after.point) < TripTuning.spikeReturnFraction * min(toBefore, toAfter)
    }

    private mutating func process(_ fix: PathFix) {
        // Each case takes its payload out of `state` before mutating it, so that the arrays inside
        // are uniquely referenced and grow in place.
        switch state {
        case .empty:
            state = .stationary(place: WeightedCentroid(fix), outside: [])
        case .stationary(var place, var outside):
            state = .empty
            let radius = configuration.stationaryRadiusMeters(placeAccuracyMeters: place.typicalAccuracyMeters,
                                                              fixAccuracyMeters: fix.accuracyMeters)
            if place.point.chordMeters(to: fix.point) <= radius {
                outside.removeAll(keepingCapacity: true)
                place.add(fix)
                state = .stationary(place: place, outside: outside)
                return
            }
            outside.append(fix)
            if outside.count > configuration.departureFixCount { outside.removeFirst() }
            // Sparse histories (a Google Takeout fix every few minutes, an activity's outline) may
            // hold only one or two fixes per trip: a fix far beyond any jitter leaves at once. A
            // lone spike is harmless: when the next fixes are back at the place, the trip returned
            // without leaving and counts for nothing.
            let clearlyGone = place.point.chordMeters(to: fix.point) > TripTuning.clearDepartureFactor * radius
            if clearlyGone { outside = [fix] }
            guard clearlyGone || (outside.count == configuration.departureFixCount && hasLeft(place, outside)) else {
                state = .stationary(place: place, outside: outside)
                return
            }
            state = .moving(Trip(leaving: place, configuration: configuration))
            for departed in outside { process(departed) }
        case .moving(var trip):
            state = .empty
            if let outcome = trip.ingest(fix), let arrival = outcome.arrival {
                finish(trip, with: outcome, at: arrival)
            } else {
                state = .moving(trip)
            }
        }
    }

    /// Whether the mean of the fixes outside a place is itself outside it.
    private func hasLeft(_ place: WeightedCentroid, _ outside: [PathFix]) -> Bool {
        var mean = WeightedCentroid(outside[0])
        for fix in outside.dropFirst() { mean.add(fix) }
        let radius = configuration.stationaryRadiusMeters(placeAccuracyMeters: place.typicalAccuracyMeters,
                                                          fixAccuracyMeters: mean.typicalAccuracyMeters)
        return place.point.chordMeters(to: mean.point) > radius
    }

    private mutating func finish(_ trip: Trip, with outcome: Trip.Outcome, at arrival: WeightedCentroid) {
        if outcome.returnedWithoutLeaving {
            var place = trip.origin
            place.merge(arrival)
            state = .stationary(place: place, outside: [])
            return
        }
        if counts(outcome) {
            committedDistanceMeters += outcome.distanceMeters
            committedMovingSeconds += outcome.durationSeconds
            if let speed = outcome.speeds.value { committedMaximumSpeed = max(committedMaximumSpeed ?? speed, speed) }
        }
        state = .stationary(place: arrival, outside: [])
    }

    private var provisionalOutcome: Trip.Outcome? {
        guard case .moving(let trip) = state else { return nil }
        return trip.provisionalOutcome(through: held)
    }

    /// Whether a trip counts: it got away from where it started, at a plausible average speed.
    private func counts(_ outcome: Trip.Outcome) -> Bool {
        guard !outcome.returnedWithoutLeaving else { return false }
        guard outcome.durationSeconds > 0 else { return true }
        return outcome.distanceMeters / outcome.durationSeconds >= configuration.minimumTripSpeedMetersPerSecond
    }
}
