import Foundation
import TravelogCore

/// A BLE scan's iBeacons as its btsnoop stream arrives (`btmon -w` while `bluetoothctl scan on`
/// runs, or a capture replayed): a ``BTSnoopStreamReader`` feeding Core's ``BeaconRanger`` and
/// ``BeaconRegionMonitor``, turned into events worth telling a person as they happen.
///
/// Time is the capture's: every record (not only beacons) moves it on, so a region is left once
/// its beacons have been silent for the monitor's timeout while the scan goes on. Ranging is
/// looked at once per ranging interval, after the sightings of a record: a beacon is reported
/// when its proximity is first known and whenever it changes between immediate, near and far (a
/// second without a sample, proximity unknown, is not a change), and when it is lost (not heard
/// for the ranger's retention).
/// Fed the same bytes in any chunking it gives the same events.
/// - Complexity: O(b + r) per record for b beacons heard and r regions, plus ranging once per
///   interval.
public struct BeaconScan: Sendable {
    /// Something a scan tells as it happens.
    public enum Event: Sendable, Hashable {
        /// A beacon ranged for the first time, or nearer or further than when last told.
        case ranged(RangedBeacon, time: Date)
        /// A beacon not heard for the ranger's retention.
        case lost(BeaconIdentity, time: Date)
        /// A region entered or left.
        case region(BeaconRegionEvent)
        /// A region's state found without a crossing: inside when one of its beacons was heard
        /// before the timeout since the scan began, outside when none was.
        case determined(regionIdentifier: String, state: RegionState, time: Date)
    }

    private var reader = BTSnoopStreamReader()
    private var ranger: BeaconRanger
    private var monitor: BeaconRegionMonitor
    private let filter: BeaconRegion?
    /// The proximity last told per beacon.
    private var told: [BeaconIdentity: BeaconProximity] = [:]
    private var undetermined: Set<String>
    private var nextRanging: Date?
    /// The latest record's time.
    public private(set) var latestTime: Date?

    /// A scan watching `regions` for entry and exit, and ranging the beacons `filter` admits (all
    /// when `nil`).
    /// - Throws: ``BeaconRegionError/regionLimitReached(identifier:limit:)`` beyond the monitor's limit.
    public init(regions: [BeaconRegion], filter: BeaconRegion? = nil, ranger: BeaconRanger = BeaconRanger(),
                monitor: BeaconRegionMonitor = BeaconRegionMonitor()) throws(BeaconRegionError) {
        self.ranger = ranger
        self.monitor = monitor
        self.filter = filter
        for region in regions { try self.monitor.register(region) }
        undetermined = Set(regions.map(\.identifier))
    }

    /// Reads the records `bytes` completes and returns what they tell, in time order.
    /// - Throws: ``BTSnoopError`` for bytes that are no btsnoop capture or a malformed event.
    public mutating func append(_ bytes: some Collection<UInt8>) throws(BTSnoopError) -> [Event] {
        var events: [Event] = []
        let records = try reader.append(bytes)
        let firstIndex = reader.recordCount - records.count
        for (offset, record) in records.enumerated() {
            guard let datalink = reader.datalink else { break }
            let reports = try record.advertisingReports(datalink: datalink, recordIndex: firstIndex + offset)
            for sighting in reports.compactMap(\.beaconSighting) {
                ranger.ingest(sighting)
                events += monitor.ingest(sighting).map(Event.region) + determinations(at: sighting.timestamp)
            }
            events += range(until: record.timestamp)
            events += monitor.advance(to: record.timestamp).map(Event.region) + determinations(at: record.timestamp)
            latestTime = max(latestTime ?? record.timestamp, record.timestamp)
        }
        return events
    }

    /// Says the stream has ended.
    /// - Throws: what ``BTSnoopStreamReader/finish()`` throws.
    public func finish() throws(BTSnoopError) {
        try reader.finish()
    }

    /// The monitored regions and their states now.
    public var regionStates: [(region: BeaconRegion, state: RegionState)] {
        monitor.monitoredRegions.map { ($0, monitor.state(ofRegion: $0.identifier) ?? .unknown) }
    }

    /// The beacons the filter admits, ranged as of the latest record, nearest first.
    public var rangedBeacons: [RangedBeacon] {
        latestTime.map { ranger.rangedBeacons(at: $0, satisfying: filter) } ?? []
    }

    /// The rangings due up to `time` (one per interval), told as changes.
    private mutating func range(until time: Date) -> [Event] {
        guard let due = nextRanging else {
            nextRanging = time
            return []
        }
        guard time >= due else { return [] }
        var events: [Event] = []
        var seen: Set<BeaconIdentity> = []
        for beacon in ranger.rangedBeacons(at: time, satisfying: filter) {
            seen.insert(beacon.identity)
            guard beacon.proximity != .unknown, beacon.proximity != told[beacon.identity] else { continue }
            told[beacon.identity] = beacon.proximity
            events.append(.ranged(beacon, time: time))
        }
        for identity in told.keys.sorted() where !seen.contains(identity) {
            told[identity] = nil
            events.append(.lost(identity, time: time))
        }
        nextRanging = time.addingTimeInterval(ranger.configuration.rangingIntervalSeconds)
        return events
    }

    /// The regions whose state became known without a crossing.
    private mutating func determinations(at time: Date) -> [Event] {
        guard !undetermined.isEmpty else { return [] }
        var events: [Event] = []
        for region in monitor.monitoredRegions where undetermined.contains(region.identifier) {
            guard let state = monitor.state(ofRegion: region.identifier), state != .unknown else { continue }
            undetermined.remove(region.identifier)
            events.append(.determined(regionIdentifier: region.identifier, state: state, time: time))
        }
        return events
    }
}
