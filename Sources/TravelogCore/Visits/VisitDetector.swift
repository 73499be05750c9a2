import Foundation

/// Finds visits (stays at one place) in a stream of locations: a state machine fed one location
/// at a time, in time order, that reports each visit when it is established and again when it ends.
///
/// A place is a cluster of fixes within `radiusMeters` of their accuracy-weighted mean. A cluster
/// whose fixes span `minimumDurationSeconds` becomes a visit (`.arrived`, arrival = its first fix).
/// It ends (`.departed`, departure = its last fix) once `departureFixCount` consecutive usable fixes
/// lie outside; those fixes then start the next cluster. So:
///
/// - A long gap followed by a fix at the same place continues the visit (phones stop reporting
///   while stationary); a gap followed by fixes elsewhere ends it at the last fix seen there.
/// - A silence longer than `maximumSilenceSeconds` (a `HistoryGap`) ends the visit at its last
///   fix wherever the next fix is: a gap in the history is never part of a stay. A stay that had
///   not yet lasted long enough is dropped, and the fix after the gap starts afresh.
/// - A stay becomes a visit only if it did not drift: its first fix must lie within
///   `radiusMeters` (plus that fix's accuracy) of its latest one. A slow walk sampled sparsely
///   (a fix a minute, steps inside the radius) drags the running mean along with it; when such a
///   stay would otherwise become a visit, its oldest fixes are let go one by one, as Li et al.'s
///   staypoint search moves from one anchor to the next, and what is left must still last.
/// - A single outlier that the next fix contradicts does not end a visit (with the default
///   `departureFixCount` of 2), nor does a fix whose reported accuracy is worse than
///   `maximumAccuracyMeters`, nor one whose accuracy circle still reaches the place (it lies
///   beyond `radiusMeters` by less than its own accuracy: ambiguous, so ignored).
/// - Locations older than the previous one are ignored and counted in `outOfOrderCount` (equal
///   times are accepted). Sort a batch before feeding it.
///
/// The outcome depends only on the sequence of locations: feeding a day point by point, in any
/// chunks, gives exactly (`==`) the same events as feeding it at once.
///
/// - Complexity: O(1) per location (one chord distance; a departure replays at most
///   `departureFixCount` fixes); memory O(`departureFixCount`).
/// - Note: The clustering is the staypoint detection of Li et al. 2008, "Mining user similarity
///   based on location history" (ACM SIGSPATIAL GIS), with the distance measured to the running
///   mean rather than to the first fix, as in Hariharan & Toyama 2004, "Project Lachesis: parsing
///   and modeling location histories" (GIScience). The two reports follow Apple's `CLVisit`
///   (arrival date, departure date unknown until the visit ends, a center and its accuracy).
public struct VisitDetector: Sendable {
    /// The thresholds in use.
    public let tuning: Tuning

    /// The current place (a candidate, or the ongoing visit when `established`).
    private var cluster: VisitCluster?
    private var established = false
    /// The fixes of the current place while it is not yet a visit, oldest first (emptied when it
    /// becomes one), so that a drifting stay can let its oldest go.
    private var candidate: [Sample] = []
    /// How far the current place's start reaches back towards the fix before it, seconds.
    private var leadingAllowanceSeconds = 0.0
    /// Consecutive usable fixes outside the current place, oldest first.
    private var outside: [Sample] = []
    private var latestTime = -Double.infinity
    private var lastUsableTime: Double?

    /// Locations ignored because they were older than the previous one.
    public private(set) var outOfOrderCount = 0
    /// Locations ignored because their reported accuracy was worse than `maximumAccuracyMeters`,
    /// or because they were ambiguous (beyond the radius by less than their accuracy).
    public private(set) var inaccurateCount = 0
    /// Fixes outside a place that the following fix contradicted (it was back), dropped.
    public private(set) var outlierCount = 0

    /// Creates an empty detector.
    public init(tuning: Tuning = Tuning()) {
        self.tuning = tuning
    }

    /// The visit going on now (`departure` is `nil`), if the current stay is established.
    public var currentVisit: Visit? {
        guard established, let cluster else { return nil }
        return cluster.visit(departed: false)
    }

    /// Feeds the next location and returns what it settled: nothing, an arrival, a departure, or
    /// a departure followed by the next arrival.
    public mutating func ingest(_ location: Location) -> [VisitEvent] {
        var events: [VisitEvent] = []
        ingest(location, into: &events)
        return events
    }

    /// Feeds locations in order and returns the events they settle (the same events as feeding
    /// them one by one).
    public mutating func ingest<S: Sequence>(contentsOf locations: S) -> [VisitEvent] where S.Element == Location {
        var events: [VisitEvent] = []
        for location in locations { ingest(location, into: &events) }
        return events
    }

    /// Ends the input: an established visit departs at its last fix; a candidate stay that is not
    /// yet a visit, and fixes waiting outside the place, are dropped. The detector is then empty
    /// (the order check still remembers the latest time).
    public mutating func finish() -> [VisitEvent] {
        defer {
            cluster = nil
            established = false
            outside.removeAll()
            candidate.removeAll()
        }
        guard established, let cluster else { return [] }
        return [.departed(cluster.visit(departed: true))]
    }

    /// The visits in a whole sequence of locations, ended ones only (the last one ends at the end
    /// of the input): what `ingest` and `finish` report as departures.
    public static func visits<S: Sequence>(in locations: S, tuning: Tuning = Tuning()) -> [Visit] where S.Element == Location {
        var detector = VisitDetector(tuning: tuning)
        let events = detector.ingest(contentsOf: locations) + detector.finish()
        return events.compactMap { event in
            if case .departed(let visit) = event { return visit }
            return nil
        }
    }

    // MARK: The state machine

    /// A usable fix on its way through the machine.
    struct Sample: Sendable {
        var fix: PathFix
        var coordinate: Coordinate
        /// The reported accuracy, metres (0 when none was reported).
        var reportedAccuracyMeters: Double
        /// The time of the usable fix before it, seconds since the reference date.
        var precedingTime: Double?
    }

    private mutating func ingest(_ location: Location, into events: inout [VisitEvent]) {
        let time = location.timestamp.timeIntervalSinceReferenceDate
        guard time >= latestTime else {
            outOfOrderCount += 1
            return
        }
        latestTime = time
        let reported = location.horizontalAccuracyIfValid
        if let reported, reported > tuning.maximumAccuracyMeters {
            inaccurateCount += 1
            return
        }
        let fix = PathFix(point: SurfacePoint(location.coordinate),
                          accuracyMeters: max(reported ?? tuning.assumedAccuracyMeters, tuning.minimumAccuracyMeters),
                          time: time)
        if let previous = lastUsableTime, time - previous > tuning.maximumSilenceSeconds {
            events += finish()
            lastUsableTime = nil
        }
        let sample = Sample(fix: fix, coordinate: location.coordinate, reportedAccuracyMeters: reported ?? 0,
                            precedingTime: lastUsableTime)
        lastUsableTime = time
        process(sample, into: &events)
    }

    private mutating func process(_ sample: Sample, into events: inout [VisitEvent]) {
        guard var place = cluster else {
            cluster = VisitCluster(sample.fix, coordinate: sample.coordinate)
            leadingAllowanceSeconds = allowance(sample.precedingTime.map { sample.fix.time - $0 })
            candidate = [sample]
            return
        }
        let distance = place.point.chordMeters(to: sample.fix.point)
        if distance <= tuning.radiusMeters {
            outlierCount += outside.count
            outside.removeAll(keepingCapacity: true)
            place.add(sample.fix)
            cluster = place
            if !established {
                candidate.append(sample)
                if lasted(place, trailingAllowanceSeconds: 0) { establishIfSettled(trailingAllowanceSeconds: 0, into: &events) }
            }
            return
        }
        if distance <= tuning.radiusMeters + sample.reportedAccuracyMeters {
            inaccurateCount += 1
            return
        }
        outside.append(sample)
        guard outside.count >= tuning.departureFixCount else { return }
        let trailing = allowance(outside[0].fix.time - place.lastTime)
        if !established, lasted(place, trailingAllowanceSeconds: trailing) {
            establishIfSettled(trailingAllowanceSeconds: trailing, into: &events)
        }
        if established, let place = cluster { events.append(.departed(place.visit(departed: true))) }
        let departed = outside
        cluster = nil
        established = false
        candidate.removeAll(keepingCapacity: true)
        outside.removeAll(keepingCapacity: true)
        for sample in departed { process(sample, into: &events) }
    }

    /// Makes the candidate stay, which has lasted long enough, a visit unless it drifted: its oldest
    /// fixes farther than the radius (plus their accuracy) from the newest are let go first (the
    /// place is rebuilt from the rest, with the allowance towards the last fix let go), and what is
    /// left must still last.
    private mutating func establishIfSettled(trailingAllowanceSeconds: Double, into events: inout [VisitEvent]) {
        guard let newest = candidate.last else { return }
        // The newest itself always qualifies, so some index does.
        let settled = candidate.firstIndex { sample in
            sample.fix.point.chordMeters(to: newest.fix.point) <= tuning.radiusMeters + sample.fix.accuracyMeters
        } ?? 0
        if settled > 0 {
            let kept = candidate[settled...]
            var place = VisitCluster(kept[kept.startIndex].fix, coordinate: kept[kept.startIndex].coordinate)
            for sample in kept.dropFirst() { place.add(sample.fix) }
            cluster = place
            leadingAllowanceSeconds = allowance(kept[kept.startIndex].precedingTime.map { kept[kept.startIndex].fix.time - $0 })
            candidate.removeFirst(settled)
            guard lasted(place, trailingAllowanceSeconds: trailingAllowanceSeconds) else { return }
        }
        guard let place = cluster else { return }
        established = true
        candidate.removeAll(keepingCapacity: true)
        events.append(.arrived(place.visit(departed: false)))
    }

    /// How far an end of a stay reaches towards a neighbouring fix `gapSeconds` away.
    private func allowance(_ gapSeconds: Double?) -> Double {
        guard let gapSeconds else { return 0 }
        return min(gapSeconds / 2, tuning.boundaryAllowanceSeconds)
    }

    /// Whether a stay has lasted the minimum duration, counting the allowances at its ends.
    private func lasted(_ place: VisitCluster, trailingAllowanceSeconds: Double) -> Bool {
        place.lastTime - place.firstTime + leadingAllowanceSeconds + trailingAllowanceSeconds >= tuning.minimumDurationSeconds
    }
}
