import Foundation
import Synchronization
import TravelogCore
import TravelogFormats
import TravelogStore

/// Runs every stored location through its user's regions: a `RegionMonitor` per device, rebuilt
/// for each batch from the device's checkpoint in the store, so a restart goes on where it stopped
/// and never reports a crossing twice. Crossings are stored as detected transitions; those of the
/// recent past notify the user once (the outbox's key is the transition's).
///
/// Fixes newer than the checkpoint continue the monitor. Fixes at or before it (history imported
/// later, a phone's late queue) have the stretch they touch evaluated again from the stored fixes,
/// from `backfillLeadSeconds` before them (the monitor starts unknown there) to the checkpoint, or to
/// `backfillLeadSeconds` after them when the checkpoint is further on, and the detected transitions
/// of that stretch are replaced: the result does not depend on the order history arrived in,
/// except within the lead of a stretch's edges.
///
/// - Complexity: per batch, one read of the user's regions and the checkpoint, O(n) monitor steps
///   (see `RegionMonitor`) and one write; a backfill also reads the stretch it evaluates again.
public struct RegionEvaluator: Sendable {
    public let store: any LocationStore & RegionStore
    /// Queues a message in the outbox (the server's dispatcher sends it at once).
    let notify: @Sendable (NotificationMessage, UserID) async -> Void
    /// The monitor's thresholds: Core Location's, with many regions per device, and fixes without
    /// an accuracy (most files) taken as `assumedAccuracyMeters` rather than ignored.
    public let configuration: RegionMonitor.Configuration
    private let chain = TaskChain()

    /// Only crossings this recent notify (older ones come from imports of history), seconds.
    public static let notificationHorizonSeconds: TimeInterval = 6 * 3600
    /// How far before the earliest fix of a late batch its stretch is evaluated again, seconds.
    public static let backfillLeadSeconds: TimeInterval = HistoryGap.defaultMaximumSilenceSeconds
    /// The accuracy assumed for fixes that carry none, metres.
    public static let assumedAccuracyMeters: Double = 25
    /// How many regions a user may have monitored at once.
    public static let maximumRegionCount = 10_000

    public init(store: any LocationStore & RegionStore,
                notify: (@Sendable (NotificationMessage, UserID) async -> Void)? = nil) {
        self.store = store
        self.notify = notify ?? { message, userID in
            _ = try? await (store as? any NotificationStore)?.enqueue(message, userID: userID, at: Date())
        }
        configuration = RegionMonitor.Configuration(invalidAccuracyPolicy: .assume(meters: Self.assumedAccuracyMeters),
                                                    maximumRegionCount: Self.maximumRegionCount)
    }

    /// Evaluates locations just stored for a device (one batch at a time across the process, so two
    /// batches of a device never race for its checkpoint).
    /// - Returns: the transitions stored now that were not stored before.
    @discardableResult
    public func evaluate(_ locations: [Location], device: Device, now: Date = Date()) async throws(StoreError) -> [StoredRegionTransition] {
        let outcome = Mutex<Result<[StoredRegionTransition], StoreError>>(.success([]))
        await chain.run {
            do throws(StoreError) {
                let added = try await evaluateNow(locations, device: device)
                outcome.withLock { $0 = .success(added) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
        }
        let added = try outcome.withLock { $0 }.get()
        await announce(added, device: device, now: now)
        return added
    }

    /// Stores transitions a device reported itself (OwnTracks' `transition` messages), notifying the
    /// recent new ones like detected ones.
    /// - Returns: the transitions not stored before.
    @discardableResult
    public func recordReported(_ transitions: [RegionTransition], device: Device,
                               now: Date = Date()) async throws(StoreError) -> [StoredRegionTransition] {
        guard !transitions.isEmpty else { return [] }
        let added = try await store.recordTransitions(transitions, deviceID: device.id, replacingDetected: nil, checkpoint: nil)
        await announce(added, device: device, now: now)
        return added
    }

    private func evaluateNow(_ locations: [Location], device: Device) async throws(StoreError) -> [StoredRegionTransition] {
        guard let first = locations.map(\.timestamp).min(), let last = locations.map(\.timestamp).max() else { return [] }
        let regions = try await store.regions(userID: device.userID)
        guard !regions.isEmpty else { return [] }
        var monitor = RegionMonitor(configuration: configuration)
        for region in regions {
            try? monitor.register(region.definition.monitoredRegion(identifier: String(region.id.rawValue)))
        }
        let checkpoint = try await store.regionCheckpoint(deviceID: device.id)
        var events: [RegionEvent]
        var replacing: Range<Date>?
        var through = last
        if let checkpoint, first <= checkpoint.evaluatedThrough {
            // A late batch: evaluate its stretch again from the stored fixes.
            let start = first.addingTimeInterval(-Self.backfillLeadSeconds)
            let reachesCheckpoint = checkpoint.evaluatedThrough.timeIntervalSince(last) <= Self.backfillLeadSeconds
            let end = reachesCheckpoint ? max(last, checkpoint.evaluatedThrough) : last.addingTimeInterval(Self.backfillLeadSeconds)
            let stored = try await store.locations(LocationQuery(userID: device.userID, deviceIDs: [device.id], from: start,
                                                                 to: end.addingTimeInterval(0.001)))
            events = monitor.ingest(contentsOf: stored.map(\.location)).filter { $0.crossingTime >= first }
            replacing = first..<end.addingTimeInterval(0.001)
            guard reachesCheckpoint else {
                // The monitor's state belongs to a time before the checkpoint's: keep the checkpoint.
                return try await store.recordTransitions(transitions(events, regions: regions, device: device), deviceID: device.id,
                                                         replacingDetected: replacing, checkpoint: nil)
            }
            through = end
        } else {
            if let checkpoint {
                for (id, entry) in checkpoint.regions {
                    monitor.restore(region: String(id.rawValue), state: entry.state, pendingCrossingTime: entry.pendingCrossingTime)
                }
            }
            events = monitor.ingest(contentsOf: locations.sorted { $0.timestamp < $1.timestamp })
        }
        var entries: [RegionID: RegionCheckpoint.Entry] = [:]
        for region in regions {
            let identifier = String(region.id.rawValue)
            guard let state = monitor.state(ofRegion: identifier) else { continue }
            entries[region.id] = RegionCheckpoint.Entry(state: state, pendingCrossingTime: monitor.pendingCrossingTime(ofRegion: identifier))
        }
        return try await store.recordTransitions(transitions(events, regions: regions, device: device), deviceID: device.id,
                                                 replacingDetected: replacing,
                                                 checkpoint: RegionCheckpoint(deviceID: device.id, evaluatedThrough: through, regions: entries))
    }

    private func transitions(_ events: [RegionEvent], regions: [StoredRegion], device: Device) -> [RegionTransition] {
        events.compactMap { event in
            guard let raw = Int64(event.regionIdentifier) else { return nil }
            return RegionTransition(deviceID: device.id, regionID: RegionID(rawValue: raw), kind: event.kind,
                                    occurredAt: event.crossingTime, coordinate: event.location.coordinate,
                                    horizontalAccuracyMeters: event.location.horizontalAccuracyIfValid, source: .detected)
        }
    }

    /// Notifies the recent ones, once each.
    private func announce(_ added: [StoredRegionTransition], device: Device, now: Date) async {
        let recent = added.filter { now.timeIntervalSince($0.transition.occurredAt) < Self.notificationHorizonSeconds }
        guard !recent.isEmpty, let regions = try? await store.regions(userID: device.userID) else { return }
        let regionByID = Dictionary(regions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for stored in recent {
            guard let region = regionByID[stored.transition.regionID] else { continue }
            await notify(Self.message(stored.transition, region: region, device: device), device.userID)
        }
    }

    /// The message a transition sends; its key is the transition's, so it is queued once ever.
    public static func message(_ transition: RegionTransition, region: StoredRegion, device: Device) -> NotificationMessage {
        let entering = transition.kind == .entry
        let name = region.definition.name
        var details = ["region": name, "device": device.name, "transition": entering ? "enter" : "exit",
                       "time": ISO8601TimeFormatter.string(transition.occurredAt), "source": transition.source.rawValue]
        if let coordinate = transition.coordinate {
            details["latitude"] = String(coordinate.latitude)
            details["longitude"] = String(coordinate.longitude)
        }
        return NotificationMessage(event: entering ? "regionEntry" : "regionExit", key: "region-\(transition.key)",
                                   title: entering ? "Arrived: \(name)" : "Left: \(name)",
                                   message: "\(device.name) \(entering ? "arrived at" : "left") \(name)",
                                   occurredAt: transition.occurredAt, details: details)
    }
}
