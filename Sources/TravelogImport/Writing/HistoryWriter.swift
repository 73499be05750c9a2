import Crypto
import Foundation
import TravelogCore
import TravelogFormats
import TravelogStore

/// The one way locations enter the store, from every route, upload and import: check every item,
/// resolve the device (only once something is to be stored), store durably, keep the journal
/// current for the stretch that changed, and tell the observers (live stream, metrics).
///
/// Two policies: `.atomic` (the script API, files) refuses everything when one item is wrong;
/// `.keepValid` (phone apps) stores the good items and sets the others aside for the user, so no
/// app's queue is ever stuck behind one item (SPEC, "Ingest and trust").
public struct HistoryWriter: Sendable {
    public let store: any LocationStore & AccountStore & QuarantineStore
    public let journal: (any JournalScheduler)?
    public let observer: any HistoryObserver
    /// Runs what is stored through the user's regions (none: no geofences).
    public var regions: RegionEvaluator?
    /// The limits every location is checked against.
    public var plausibility: LocationPlausibility

    public enum Policy: Sendable {
        case atomic
        case keepValid
    }

    public init(store: any LocationStore & AccountStore & QuarantineStore, journal: (any JournalScheduler)?, observer: any HistoryObserver = SilentHistoryObserver(),
                plausibility: LocationPlausibility = LocationPlausibility()) {
        self.store = store
        self.journal = journal
        self.observer = observer
        self.plausibility = plausibility
    }

    /// What a write did.
    public struct Outcome: Sendable {
        public var stored = InsertSummary()
        /// Items set aside (keep-valid) as new entries of the user's rejected items.
        public var quarantined = 0
        /// Items refused, kept or not (a retry's repeats are refused again but not kept twice).
        public var refused = 0
        public var visits = 0
        public var passedOver: [String: Int] = [:]
        /// Fixes inside the user's drop zones: counted, not stored.
        public var dropped = 0
        /// The device written to, once one was needed.
        public var device: Device?

        public init() {}

        mutating func add(_ other: Outcome) {
            stored = stored + other.stored
            quarantined += other.quarantined
            refused += other.refused
            visits += other.visits
            passedOver.merge(other.passedOver, uniquingKeysWith: +)
            dropped += other.dropped
            device = other.device ?? device
        }
    }

    /// Writes a batch of items.
    /// - Parameters:
    ///   - target: the device; becomes `.device` once it was resolved (so chunks of one body
    ///     resolve it once).
    ///   - route: the route's name, for the rejected items and the metrics.
    ///   - body: where `IncomingItem.Raw.range` items are (for keeping refused items as sent).
    /// - Throws: `HistoryWriteError.invalidItem` for the first wrong item under `.atomic` (nothing is
    ///   stored), `.store` when the store fails (nothing of the batch is stored).
    ///   - hold: the journal's hold on the user's later fixes while this write is under way, when
    ///     the caller took one (`JournalScheduler.writeBegan`); told where the stored fixes start.
    public func write(_ items: [IncomingItem], to target: inout DeviceTarget, source: LocationSource,
                      visitSource: VisitSource, route: String, policy: Policy, body: (any RawBody)? = nil,
                      hold: JournalWriteHold? = nil, now: Date = Date(), userAgent: String? = nil) async throws(HistoryWriteError) -> Outcome {
        var outcome = Outcome()
        var valid: [Location] = []
        var newest: (location: Location, item: IncomingItem)?
        var visits: [FormatVisit] = []
        var refused: [(item: IncomingItem, reason: String)] = []
        var labelled: [(location: Location, labels: [LocationLabel])] = []
        valid.reserveCapacity(items.count)
        for item in items {
            switch item.content {
            case .location(let location):
                do {
                    let checked = try plausibility.checked(location, now: now)
                    valid.append(checked)
                    if !item.labels.isEmpty { labelled.append((checked, item.labels)) }
                    if newest.map({ checked.timestamp >= $0.location.timestamp }) ?? true { newest = (checked, item) }
                } catch {
                    refused.append((item, error.description))
                }
            case .visit(let visit): visits.append(visit)
            case .refused(let reason): refused.append((item, reason))
            case .passedOver(let kind): outcome.passedOver[kind, default: 0] += 1
            }
        }
        outcome.refused = refused.count
        if policy == .atomic, let first = refused.first {
            throw .invalidItem(position: first.item.position, reason: first.reason)
        }
        var device = target.knownDevice
        do throws(StoreError) {
            outcome.dropped = try await dropInsideZones(&valid, visits: &visits, userID: target.userID)
            if outcome.dropped > 0, let kept = newest, !valid.contains(kept.location) {
                // The newest fix was dropped: the device's report carries the newest one kept.
                newest = valid.max { $0.timestamp < $1.timestamp }.map { ($0, kept.item) }
            }
            if device == nil, !valid.isEmpty || !visits.isEmpty {
                let resolved = try await target.resolve(in: store)
                target = .device(resolved)
                device = resolved
            }
            if let device, !valid.isEmpty, let first = valid.map(\.timestamp).min(), let last = valid.map(\.timestamp).max() {
                if let hold { journal?.writeReached(hold, earliest: first) }
                outcome.stored = try await store.insert(valid.map { StoredLocation(deviceID: device.id, location: $0, source: source) })
                try await Self.keepLabels(labelled, of: valid, device: device, in: store)
                // The journal hears first, right after the commit: it can then tell that a run which
                // started later has read these fixes already.
                if outcome.stored.inserted > 0 {
                    await journal?.historyChanged(device: device, from: first, to: last,
                                                  stored: outcome.stored.inserted == valid.count ? valid : nil)
                }
                if outcome.stored.inserted > 0 { await evaluateRegions(valid, device: device) }
                await observer.didStore(valid, summary: outcome.stored, device: device, source: source)
            }
            if policy == .keepValid, let device, let deviceStore = store as? any DeviceStore {
                // A phone app's batch: once a batch, what the device said of itself with its newest fix.
                try await deviceStore.recordReport(DeviceReport(receivedAt: now, latestFix: newest?.location,
                                                                batteryPercent: newest?.item.batteryPercent,
                                                                isCharging: newest?.item.isCharging, userAgent: userAgent,
                                                                phoneStatus: newest?.item.phoneStatus),
                                                   deviceID: device.id)
            }
            if !refused.isEmpty, policy == .keepValid {
                let kept = refused.map { keepable($0.item, reason: $0.reason, userID: target.userID, device: device,
                                                  route: route, body: body, now: now) }
                outcome.quarantined = try await store.quarantine(kept)
                await observer.didQuarantine(count: outcome.quarantined, route: route)
            }
        } catch {
            throw .store(error)
        }
        if let device, let journal {
            // One at a time, so a batch replaces only the stays it reports again.
            for visit in visits {
                do {
                    try await journal.describedVisits([JournalVisit(visit, deviceID: device.id, source: visitSource)],
                                                      device: device, source: visitSource)
                } catch {
                    throw .journal(String(describing: error))
                }
            }
        }
        outcome.visits = visits.count
        outcome.device = device
        return outcome
    }

    /// Keeps the labels of the fixes that were stored (not of those a drop zone took out), before
    /// the write is acknowledged.
    static func keepLabels(_ labelled: [(location: Location, labels: [LocationLabel])], of stored: [Location], device: Device,
                           in store: any LocationStore) async throws(StoreError) {
        guard !labelled.isEmpty, let labelStore = store as? any LabelStore else { return }
        let kept = Set(stored.map { LocationKey(deviceID: device.id, location: $0) })
        let rows = labelled.filter { kept.contains(LocationKey(deviceID: device.id, location: $0.location)) }
            .flatMap { fix in fix.labels.map { StoredLabel(deviceID: device.id, location: fix.location, label: $0) } }
        try await labelStore.addLabels(rows)
    }

    /// Runs stored locations through the user's regions. The locations are durable already, so a
    /// failure here does not fail the write: the next batch's evaluation goes on from the checkpoint.
    func evaluateRegions(_ locations: [Location], device: Device) async {
        _ = try? await regions?.evaluate(locations, device: device)
    }

    /// A refused item as the user will see it.
    func keepable(_ item: IncomingItem, reason: String, userID: UserID, device: Device?, route: String,
                  body: (any RawBody)?, now: Date) -> NewRejectedItem {
        let raw: [UInt8]
        let byteCount: Int
        switch item.raw {
        case .none:
            raw = []
            byteCount = 0
        case .bytes(let bytes):
            raw = Array(bytes.prefix(RejectedItem.maximumRawBytes))
            byteCount = bytes.count
        case .range(let range):
            // Without the separators before it (`,`, `[`, white space).
            let bytes = body?.bytes(in: range, limit: RejectedItem.maximumRawBytes + 64) ?? []
            let skip = bytes.prefix { $0 == 0x2C || $0 == 0x5B || $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }.count
            raw = Array(bytes.dropFirst(skip).prefix(RejectedItem.maximumRawBytes))
            byteCount = range.count - skip
        }
        var hash = SHA256()
        hash.update(data: Array("\(route)\u{0}\(device?.id.rawValue ?? 0)\u{0}".utf8))
        hash.update(data: raw.isEmpty ? Array("\(item.position)\u{0}\(reason)".utf8) : raw)
        let fingerprint = hash.finalize().map { String(format: "%02x", $0) }.joined()
        return NewRejectedItem(userID: userID, deviceID: device?.id, route: route, reason: "\(item.position): \(reason)",
                               raw: String(decoding: raw, as: UTF8.self), rawByteCount: byteCount, receivedAt: now,
                               fingerprint: fingerprint)
    }
}

/// Why a write stored nothing.
public enum HistoryWriteError: Error, Sendable, CustomStringConvertible {
    /// An item is wrong (atomic writes): where it is and what is wrong.
    case invalidItem(position: String, reason: String)
    /// The body or file could not be read at all.
    case unreadable(String)
    case store(StoreError)
    /// The journal could not keep the stays the data described.
    case journal(String)

    public var description: String {
        switch self {
        case .invalidItem(let position, let reason): "\(position): \(reason)"
        case .unreadable(let reason): reason
        case .store(let error): error.description
        case .journal(let reason): "the journal could not be updated: \(reason)"
        }
    }
}
