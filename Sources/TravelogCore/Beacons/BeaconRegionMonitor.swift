import Foundation

/// Beacon-region monitoring: a state machine fed beacon sightings (and the passing of time) that
/// reports entries into and exits from registered beacon regions.
///
/// Core Location's semantics for `CLBeaconRegion`:
/// - the device is inside a region while one of its beacons has been heard within the last
///   ``exitTimeoutSeconds`` (30 s): a sighting after that silence is an entry, and the silence
///   itself is an exit, timed at the last sighting plus the timeout;
/// - a new region is ``RegionState/unknown``; a sighting before its first timeout makes it
///   inside without an entry (the device was already there), and silence until then makes it
///   outside without an exit.
///
/// Time advances with each sighting and with ``advance(to:)`` (a scanner calls it as time
/// passes; a capture's replay calls it at its end). Sightings older than the latest time are
/// ignored and counted. The events depend only on the sequence of sightings and advances, not on
/// how they are chunked; events due at one time come in registration order.
/// - Complexity: O(r) per sighting or advance for r registered regions.
public struct BeaconRegionMonitor: Sendable {
    /// How long none of a region's beacons may be heard before the device has left it, seconds.
    public let exitTimeoutSeconds: Double
    /// How many beacon regions the monitor may watch (Core Location: 20 regions per app).
    public let maximumRegionCount: Int

    private struct Entry: Sendable {
        var region: BeaconRegion
        var state: RegionState = .unknown
        /// The time the state was last confirmed: the latest sighting, or (unknown) the first
        /// time seen after registration; seconds since the reference date.
        var since: Double?
        var lastBeacon: BeaconIdentity?
    }

    private var entries: [Entry] = []
    private var latestTime = -Double.infinity
    /// Sightings and advances ignored because they were older than the latest time.
    public private(set) var outOfOrderCount = 0

    /// Creates a monitor without regions.
    /// - Precondition: the timeout is finite and positive; the limit at least 1.
    public init(exitTimeoutSeconds: Double = 30, maximumRegionCount: Int = 20) {
        precondition(exitTimeoutSeconds.isFinite && exitTimeoutSeconds > 0, "exitTimeoutSeconds must be positive")
        precondition(maximumRegionCount >= 1, "maximumRegionCount must be at least 1")
        self.exitTimeoutSeconds = exitTimeoutSeconds
        self.maximumRegionCount = maximumRegionCount
    }

    /// The regions being monitored, in registration order.
    public var monitoredRegions: [BeaconRegion] { entries.map(\.region) }

    /// Starts monitoring a region in state unknown; one with the identifier of a monitored region
    /// replaces it in place.
    /// - Throws: ``BeaconRegionError/regionLimitReached(identifier:limit:)``.
    public mutating func register(_ region: BeaconRegion) throws(BeaconRegionError) {
        if let index = entries.firstIndex(where: { $0.region.identifier == region.identifier }) {
            entries[index] = Entry(region: region)
            return
        }
        guard entries.count < maximumRegionCount else {
            throw .regionLimitReached(identifier: region.identifier, limit: maximumRegionCount)
        }
        entries.append(Entry(region: region))
    }

    /// Stops monitoring a region; returns it, or `nil` when none has that identifier.
    @discardableResult
    public mutating func unregister(identifier: String) -> BeaconRegion? {
        guard let index = entries.firstIndex(where: { $0.region.identifier == identifier }) else { return nil }
        return entries.remove(at: index).region
    }

    /// The state of a region, or `nil` when none has that identifier.
    public func state(ofRegion identifier: String) -> RegionState? {
        entries.first { $0.region.identifier == identifier }?.state
    }

    /// Feeds a sighting; returns the exits that fell due before it and the entries it makes.
    public mutating func ingest(_ sighting: BeaconSighting) -> [BeaconRegionEvent] {
        var events: [BeaconRegionEvent] = []
        ingest(sighting, into: &events)
        return events
    }

    /// Feeds sightings in order (the same events as feeding them one by one).
    public mutating func ingest<S: Sequence>(contentsOf sightings: S) -> [BeaconRegionEvent] where S.Element == BeaconSighting {
        var events: [BeaconRegionEvent] = []
        for sighting in sightings { ingest(sighting, into: &events) }
        return events
    }

    /// Lets time pass without sightings; returns the exits that fall due by then.
    public mutating func advance(to date: Date) -> [BeaconRegionEvent] {
        let time = date.timeIntervalSinceReferenceDate
        guard time >= latestTime else {
            outOfOrderCount += 1
            return []
        }
        latestTime = time
        var events: [BeaconRegionEvent] = []
        expire(at: time, into: &events)
        return events
    }

    private mutating func ingest(_ sighting: BeaconSighting, into events: inout [BeaconRegionEvent]) {
        let time = sighting.timestamp.timeIntervalSinceReferenceDate
        guard time >= latestTime else {
            outOfOrderCount += 1
            return
        }
        latestTime = time
        expire(at: time, into: &events)
        for index in entries.indices where entries[index].region.contains(sighting.identity) {
            let region = entries[index].region
            if entries[index].state == .outside, region.notifyOnEntry {
                events.append(BeaconRegionEvent(kind: .entry, regionIdentifier: region.identifier, time: sighting.timestamp,
                                                beacon: sighting.identity))
            }
            entries[index].state = .inside
            entries[index].since = time
            entries[index].lastBeacon = sighting.identity
        }
    }

    /// Moves regions whose beacons have been silent for the timeout to outside: an exit for those
    /// that were inside (in order of exit time, then registration), silently for unknown ones.
    private mutating func expire(at time: Double, into events: inout [BeaconRegionEvent]) {
        var exits: [(time: Double, index: Int)] = []
        for index in entries.indices {
            guard let since = entries[index].since else {
                entries[index].since = time  // the first time seen since registration
                continue
            }
            guard entries[index].state != .outside, time - since >= exitTimeoutSeconds else { continue }
            if entries[index].state == .inside, entries[index].region.notifyOnExit { exits.append((since + exitTimeoutSeconds, index)) }
            entries[index].state = .outside
        }
        for exit in exits.sorted(by: { ($0.time, $0.index) < ($1.time, $1.index) }) {
            let entry = entries[exit.index]
            guard let beacon = entry.lastBeacon else { continue }  // inside only ever follows a sighting
            events.append(BeaconRegionEvent(kind: .exit, regionIdentifier: entry.region.identifier,
                                            time: Date(timeIntervalSinceReferenceDate: exit.time), beacon: beacon))
        }
    }
}
