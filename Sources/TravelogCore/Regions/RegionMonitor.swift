import Foundation

/// Region monitoring (geofencing) for one device: a state machine fed the device's fixes in time
/// order, which reports confirmed entries into and exits from its registered regions.
///
/// Core Location's semantics (`CLLocationManager.startMonitoring(for:)`):
/// - a region starts in ``RegionState/unknown``; the first fix that places the device on a side
///   sets its state without an event, so registering a region the device is already in reports
///   no entry;
/// - a crossing is reported only after a fix has passed the boundary by the cushion
///   (``Configuration/cushionMeters``) and the fixes have stayed beyond it for at least
///   ``Configuration/dwellSeconds`` (20 s): a fix within the cushion, or back on the old side,
///   cancels a pending crossing, so a device wandering along the edge produces no events;
/// - a fix whose horizontal accuracy is worse than a region can resolve
///   (``Configuration/maximumAccuracyToRadiusRatio`` times its radius) changes nothing for that
///   region; a fix with an invalid (negative) accuracy is ignored or given an assumed accuracy
///   (``Configuration/invalidAccuracyPolicy``);
/// - regions outside the radius limits, and regions beyond the per-device limit, are refused with
///   a ``RegionMonitoringError`` (as `monitoringDidFailFor:withError:`).
///
/// Fixes older than the latest one are ignored and counted (equal times are accepted). The events
/// depend only on the registrations and the sequence of fixes: a day fed fix by fix, in any
/// chunks, or at once gives exactly (`==`) the same events. Events of one fix come in the order
/// the regions were registered in (a replaced region keeps its place).
///
/// - Complexity: per fix O(L + k) with L ≤ 25 grid levels in use and k the regions whose search
///   rect holds the fix or that the device is in (or may be entering); a region test is O(1) for a
///   circle and O(n) for a polygon of n positions. Registration O(1) (O(n) for a polygon).
public struct RegionMonitor: Sendable {
    /// The thresholds in use.
    public let configuration: Configuration

    /// Per slot (a region's place; freed slots are `nil` and reused): the region, its prepared
    /// geometry (read on every fix, so kept apart), and what the index listed.
    private var regions: [MonitoredRegion?] = []
    private var geometries: [RegionGeometry?] = []
    private var indexEntries: [RegionGridIndex.Entry?] = []
    private var trackers: [RegionTracker] = []
    private var slotByIdentifier: [String: Int] = [:]
    private var freeSlots: [Int] = []
    private var index = RegionGridIndex()
    /// Slots whose tracker ``RegionTracker/needsEveryFix``, and each slot's position in it (-1: absent).
    private var everyFixSlots: [Int] = []
    private var everyFixPosition: [Int] = []
    /// The fix number at which a slot was last collected, so a slot is tested once per fix.
    private var collectedAt: [Int] = []
    private var fixNumber = 0
    private var candidates: [Int] = []
    private var latestTime = -Double.infinity

    /// Fixes ignored because they were older than the latest one.
    public private(set) var outOfOrderCount = 0
    /// Fixes ignored because their horizontal accuracy was invalid (with ``InvalidAccuracyPolicy/ignoreFix``).
    public private(set) var invalidAccuracyCount = 0

    /// Creates a monitor without regions.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The regions being monitored, in registration order.
    public var monitoredRegions: [MonitoredRegion] { regions.compactMap { $0 } }

    /// Starts monitoring a region, in state ``RegionState/unknown``. A region with the identifier
    /// of a monitored one replaces it (and starts over as unknown).
    /// - Throws: ``RegionMonitoringError/radiusOutOfRange(identifier:radiusMeters:allowedMeters:)``
    ///   when the region's radius (a polygon's equivalent radius) is outside
    ///   ``Configuration/radiusLimitsMeters``; ``RegionMonitoringError/regionLimitReached(identifier:limit:)``
    ///   when ``Configuration/maximumRegionCount`` regions are monitored already.
    /// - Complexity: O(1) hash look-ups for a circle, O(n) for a polygon of n positions.
    public mutating func register(_ region: MonitoredRegion) throws(RegionMonitoringError) {
        let radius = region.equivalentRadiusMeters
        guard configuration.radiusLimitsMeters.contains(radius) else {
            throw .radiusOutOfRange(identifier: region.identifier, radiusMeters: radius,
                                    allowedMeters: configuration.radiusLimitsMeters)
        }
        let existing = slotByIdentifier[region.identifier]
        guard existing != nil || slotByIdentifier.count < configuration.maximumRegionCount else {
            throw .regionLimitReached(identifier: region.identifier, limit: configuration.maximumRegionCount)
        }
        if existing != nil { unregister(identifier: region.identifier) }
        let slot = existing ?? freeSlots.popLast() ?? appendSlot()
        let geometry = RegionGeometry(region, equivalentRadiusMeters: radius, configuration: configuration)
        indexEntries[slot] = index.insert(slot: slot, rect: geometry.searchRect)
        regions[slot] = region
        geometries[slot] = geometry
        slotByIdentifier[region.identifier] = slot
        if let free = freeSlots.firstIndex(of: slot) { freeSlots.remove(at: free) }
        trackers[slot] = RegionTracker()
        updateEveryFixMembership(slot)
    }

    /// Stops monitoring a region; returns it, or `nil` when no region has that identifier.
    @discardableResult
    public mutating func unregister(identifier: String) -> MonitoredRegion? {
        guard let slot = slotByIdentifier.removeValue(forKey: identifier), let removed = regions[slot],
              let entry = indexEntries[slot] else { return nil }
        index.remove(slot: slot, entry: entry)
        regions[slot] = nil
        geometries[slot] = nil
        indexEntries[slot] = nil
        trackers[slot] = RegionTracker()
        updateEveryFixMembership(slot, member: false)
        freeSlots.append(slot)
        return removed
    }

    /// The state of a monitored region (Core Location's `requestState(for:)`), or `nil` when no
    /// region has that identifier.
    public func state(ofRegion identifier: String) -> RegionState? {
        slotByIdentifier[identifier].map { trackers[$0].state }
    }

    /// When the crossing of a region that waits for its dwell time began: the first fix beyond the
    /// boundary by the cushion (`nil` when none waits, or no region has that identifier).
    public func pendingCrossingTime(ofRegion identifier: String) -> Date? {
        slotByIdentifier[identifier].flatMap { trackers[$0].crossingTime }
    }

    /// Puts a monitored region back in a state saved from ``state(ofRegion:)`` and
    /// ``pendingCrossingTime(ofRegion:)``, so a monitor rebuilt after a restart goes on where the
    /// old one stopped (a pending crossing is kept only in a known state).
    /// - Returns: `false` when no region has that identifier.
    @discardableResult
    public mutating func restore(region identifier: String, state: RegionState, pendingCrossingTime: Date?) -> Bool {
        guard let slot = slotByIdentifier[identifier] else { return false }
        trackers[slot] = RegionTracker(state: state, crossingTime: state == .unknown ? nil : pendingCrossingTime)
        updateEveryFixMembership(slot)
        return true
    }

    /// Feeds the next fix and returns the crossings it confirms.
    public mutating func ingest(_ location: Location) -> [RegionEvent] {
        var events: [RegionEvent] = []
        ingest(location, into: &events)
        return events
    }

    /// Feeds fixes in order and returns the crossings they confirm (the same events as feeding
    /// them one by one).
    public mutating func ingest<S: Sequence>(contentsOf locations: S) -> [RegionEvent] where S.Element == Location {
        var events: [RegionEvent] = []
        for location in locations { ingest(location, into: &events) }
        return events
    }

    // MARK: The state machine

    private mutating func ingest(_ location: Location, into events: inout [RegionEvent]) {
        let time = location.timestamp.timeIntervalSinceReferenceDate
        guard time >= latestTime else {
            outOfOrderCount += 1
            return
        }
        latestTime = time
        let accuracy: Double
        if let valid = location.horizontalAccuracyIfValid {
            accuracy = valid
        } else if case .assume(let meters) = configuration.invalidAccuracyPolicy {
            accuracy = meters
        } else {
            invalidAccuracyCount += 1
            return
        }
        fixNumber += 1
        candidates.removeAll(keepingCapacity: true)
        let before = candidates.count
        let point = MapPoint(location.coordinate)
        index.appendCandidates(at: point, to: &candidates)
        let indexed = candidates.count
        for slot in candidates[before..<indexed] { collectedAt[slot] = fixNumber }
        // Regions the fix is not near are outside by more than the cushion; those that need
        // every fix learn that too.
        for slot in everyFixSlots where collectedAt[slot] != fixNumber {
            collectedAt[slot] = fixNumber
            candidates.append(slot)
        }
        guard !candidates.isEmpty else { return }
        candidates.sort()
        let fix = RegionFix(location.coordinate)
        for slot in candidates {
            guard let geometry = geometries[slot], accuracy <= geometry.resolvableAccuracyMeters else { continue }
            let side = geometry.searchRectHolds(point) ? geometry.side(of: fix) : .outside
            let crossing = trackers[slot].step(side, time: location.timestamp, dwellSeconds: configuration.dwellSeconds)
            updateEveryFixMembership(slot)
            guard let crossing, let region = regions[slot] else { continue }
            guard crossing.kind == .entry ? region.notifyOnEntry : region.notifyOnExit else { continue }
            events.append(RegionEvent(kind: crossing.kind, regionIdentifier: region.identifier,
                                      crossingTime: crossing.crossingTime, location: location))
        }
    }

    private mutating func appendSlot() -> Int {
        regions.append(nil)
        geometries.append(nil)
        indexEntries.append(nil)
        trackers.append(RegionTracker())
        everyFixPosition.append(-1)
        collectedAt.append(0)
        return regions.count - 1
    }

    /// Keeps `everyFixSlots` equal to the slots whose tracker needs every fix.
    private mutating func updateEveryFixMembership(_ slot: Int, member: Bool? = nil) {
        let wanted = member ?? trackers[slot].needsEveryFix
        let position = everyFixPosition[slot]
        if wanted, position < 0 {
            everyFixPosition[slot] = everyFixSlots.count
            everyFixSlots.append(slot)
        } else if !wanted, position >= 0 {
            let last = everyFixSlots.removeLast()
            if last != slot {
                everyFixSlots[position] = last
                everyFixPosition[last] = position
            }
            everyFixPosition[slot] = -1
        }
    }
}
