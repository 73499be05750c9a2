import Foundation
import TravelogCore
import TravelogStore

/// Turns stored locations into journal visits: re-runs visit detection over the stretch of a
/// device's history that new data touched, describes each visit (reverse geocoding), stores them
/// (`JournalStore.replaceVisits` keeps the person's decisions), and files each visit under a place
/// the person returns to.
///
/// Only the affected stretch is read again: from the start of the visit that was going on when the
/// new data begins (or a margin before it) to the end of the visit going on when it ends (or a
/// margin after it). Because detection depends only on the sequence of fixes, re-processing a
/// stretch gives the same visits as processing everything.
public struct JournalProcessor: Sendable {
    /// Fixes this long before and after the new data are read again, seconds, so that a stay that
    /// straddles the edge is judged on all its fixes.
    public static let marginSeconds: TimeInterval = 6 * 3600
    /// A visit joins a place whose center lies within the place's radius plus this, metres.
    public static let placeSlackMeters: Double = 50

    public let store: any LocationStore & AccountStore & JournalStore
    public let describer: (any PlaceDescriber)?
    public let tuning: VisitDetector.Tuning
    public let merger: VisitMerger
    /// The current time: a visit at the end of the data is ongoing only while its last fix is
    /// less than `tuning.maximumSilenceSeconds` old.
    public let now: @Sendable () -> Date
    /// A stretch whose fixes span this long or longer is read a window of this length at a time,
    /// seconds (see `detect`).
    public var windowSeconds: TimeInterval = 30 * 86_400
    /// Settled visits of a stretch read in windows are stored once this many wait.
    public var flushVisitCount = 500
    /// This processor's name among the processes sharing a store (`claim`).
    public let runner = UUID().uuidString

    public init(store: any LocationStore & AccountStore & JournalStore, describer: (any PlaceDescriber)?,
                tuning: VisitDetector.Tuning = VisitDetector.Tuning(), merger: VisitMerger = VisitMerger(),
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.describer = describer
        self.tuning = tuning
        self.merger = merger
        self.now = now
    }

    /// Re-processes a device's history where new fixes between `from` and `to` landed (all of it
    /// when both are `nil`).
    /// - Returns: the visits that arrived and the ones that ended, for notifications.
    ///
    /// On a store shared by several processes (PostgreSQL), the device is claimed for this processor
    /// first, so that a server that kept where the device's detection stood knows it no longer holds
    /// (a command's import, a re-processing).
    public func process(device: Device, from: Date? = nil, to: Date? = nil) async throws -> VisitChanges {
        _ = try await claim(device)
        return try await run(device: device, from: from, to: to).changes
    }

    /// Notes this processor as the last to work on the device when the store is shared by several
    /// processes (`ExclusiveDeviceWork.claimDeviceWork`); whether it was the last before too (always,
    /// on a store of one process).
    public func claim(_ device: Device) async throws -> Bool {
        guard let shared = store as? any ExclusiveDeviceWork else { return true }
        return try await shared.claimDeviceWork(userID: device.userID, deviceID: device.id, runner: runner)
    }

    /// Re-processes like `process`, and says where detection stood at the end of the data when the
    /// stretch reached it, so that the next batch can continue from there.
    func run(device: Device, from: Date?, to: Date?) async throws -> (changes: VisitChanges, resumePoint: JournalResumePoint?) {
        let (start, end) = try await stretch(device: device, from: from, to: to)
        return try await detect(device: device, continuing: JournalResumePoint(detector: VisitDetector(tuning: tuning), anchor: start),
                                readFrom: start, readTo: end, reportedUpTo: to)
    }

    /// Feeds the device's fixes from `readFrom` to `end` (those after `state.lastFixTime` only) to
    /// the detector as `state` left it, and replaces the detected visits arriving from
    /// `state.anchor` on with what it finds.
    ///
    /// A long stretch (an imported history of years) is read a window of `windowSeconds` at a time,
    /// and the visits that nothing later can change are stored as soon as `flushVisitCount` of them
    /// are waiting, so that memory stays bounded by a window's visits, not by the history's.
    /// - Parameters:
    ///   - known: the fixes of that stretch when the caller has them in memory (every stored fix
    ///     after `state.lastFixTime`, in any order): fed instead of reading the store, except those
    ///     the point's `readAhead` says were fed already.
    ///   - reportedUpTo: the newest fix the caller reported; a read of the store that goes past it
    ///     notes what it found there in the resume point's `readAhead`.
    /// - Returns: the changes, and where detection stands when `end` is the end of the data.
    func detect(device: Device, continuing state: JournalResumePoint, readFrom: Date?, readTo end: Date?,
                known: [Location]? = nil, reportedUpTo: Date? = nil) async throws -> (changes: VisitChanges, resumePoint: JournalResumePoint?) {
        let box = DetectionBox(state.detector, latestFix: state.lastFixTime)
        let fedUpTo = state.lastFixTime
        let fedAhead = state.readAhead?.keys ?? []
        let ahead = ReadAheadBox(after: known == nil ? reportedUpTo : nil)
        // Visits found and not stored yet, in time order, and where the stored journal stops being final.
        var pending = state.openVisits
        var anchor = state.anchor
        var changes = VisitChanges()
        if let known {
            // Sorted stably: fixes of one time keep the order they were stored in, as a read gives them.
            let ordered = known.enumerated()
                .filter { fix in
                    (fedUpTo.map { fix.element.timestamp > $0 } ?? true)
                        && (fedAhead.isEmpty || !fedAhead.contains(LocationKey(deviceID: device.id, location: fix.element)))
                }
                .sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }
            for (_, fix) in ordered { box.ingest(fix) }
            pending += box.takeDeparted()
        } else {
            for window in try await windows(device: device, from: readFrom, to: end) {
                var query = LocationQuery(userID: device.userID, deviceIDs: [device.id])
                query.from = window.from
                query.to = window.to
                // Detection needs only time, coordinate and accuracy: the narrow read (on PostgreSQL,
                // binary arrays instead of every row's 14 cells decoded one by one).
                try await store.forEachTrackBatch(query, batchSize: 20_000) { batch in
                    for fix in batch where fedUpTo.map({ fix.timestamp > $0 }) ?? true {
                        box.ingest(fix)
                        ahead.note(fix, deviceID: device.id)
                    }
                }
                pending += box.takeDeparted()
                guard pending.count >= flushVisitCount else { continue }
                // Everything before the open tail is final: store it, up to the last one's departure
                // (a stored visit arriving later can only be one of the open tail's).
                let open = merger.openTail(pending)
                let settled = pending[..<open.startIndex]
                guard let until = settled.last?.departure else { continue }
                changes.absorb(try await storeDetected(Array(settled), device: device, from: anchor, to: until))
                anchor = until
                pending = Array(open)
            }
        }
        var visits = pending
        if end == nil, let current = box.detector.currentVisit, let latest = box.latestFix,
           now().timeIntervalSince(latest) <= tuning.maximumSilenceSeconds {
            visits.append(current)  // still going on: the data ends at this place, and recently
        } else {
            var ending = box.detector  // a copy: the resume point goes on from the stay, not its end
            visits += ending.finish().map(\.visit)
        }
        changes.absorb(try await storeDetected(visits, device: device, from: anchor, to: end))
        guard end == nil, let latest = box.latestFix else { return (changes, nil) }
        let open = merger.openTail(pending)
        return (changes, JournalResumePoint(detector: box.detector, anchor: open.first?.arrival ?? anchor,
                                            openVisits: Array(open), lastFixTime: latest, readAhead: ahead.found))
    }

    /// The time windows to read `[from, to)` in: one when the device's fixes there span less than
    /// `windowSeconds`; the last is open-ended like the stretch, so fixes stored meanwhile are read.
    func windows(device: Device, from: Date?, to: Date?) async throws -> [(from: Date?, to: Date?)] {
        var query = LocationQuery(userID: device.userID, deviceIDs: [device.id], from: from, to: to, limit: 1)
        guard let first = try await store.locations(query).first?.location.timestamp else { return [(from, to)] }
        query.newestFirst = true
        guard let last = try await store.locations(query).first?.location.timestamp,
              last.timeIntervalSince(first) >= windowSeconds else { return [(from, to)] }
        var result: [(from: Date?, to: Date?)] = []
        var cursor = first
        while last.timeIntervalSince(cursor) >= windowSeconds {
            let next = cursor.addingTimeInterval(windowSeconds)
            result.append((result.isEmpty ? from : cursor, next))
            cursor = next
        }
        result.append((cursor, to))
        return result
    }

    /// Describes and stores detected visits as the journal of `[from, to)`, replacing what was
    /// detected there before, and files them under places.
    func storeDetected(_ visits: [Visit], device: Device, from: Date?, to: Date?) async throws -> VisitChanges {
        let detected = merger.merged(visits).map { visit in
            JournalVisit(deviceID: device.id, source: .detected, arrival: visit.arrival, departure: visit.departure,
                         center: visit.center, radiusMeters: visit.radiusMeters, locationCount: visit.locationCount,
                         placemark: describer?.placemark(forVisitAt: visit.center, radiusMeters: visit.radiusMeters))
        }
        let journal = try await withoutDescribed(detected, device: device, from: from, to: to)
        // Every visit found arrives after `from`, so that is what is replaced.
        let changes = try await store.replaceVisits(deviceID: device.id, source: .detected, from: from ?? .distantPast,
                                                    to: to, with: journal)
        try await extendMerges(device: device, from: from, to: to)
        try await assignPlaces(userID: device.userID, from: from, to: to)
        return changes
    }

    /// Stores visits a file or an app described itself (Google's, Overland's), replacing those of
    /// the same source in their time span.
    @discardableResult
    public func storeDescribedVisits(_ visits: [JournalVisit], device: Device, source: VisitSource) async throws -> VisitChanges {
        guard let first = visits.map(\.arrival).min(), let last = visits.map(\.arrival).max() else { return VisitChanges() }
        let described = visits.map { visit in
            var visit = visit
            visit.deviceID = device.id
            visit.source = source
            if visit.placemark == nil { visit.placemark = describer?.placemark(forVisitAt: visit.center, radiusMeters: visit.radiusMeters) }
            // A stay the data gives no end for is ongoing only while it is recent; in old data its
            // evidence ends where it starts (as a detected visit ends at its last fix).
            if visit.departure == nil, now().timeIntervalSince(visit.arrival) > tuning.maximumSilenceSeconds {
                visit.departure = visit.arrival
            }
            return visit
        }
        let changes = try await store.replaceVisits(deviceID: device.id, source: source, from: first,
                                                    to: last.addingTimeInterval(0.001), with: described)
        try await withdrawDetected(accountedFor: described, device: device)
        try await extendMerges(device: device, from: first, to: last.addingTimeInterval(0.001))
        try await assignPlaces(userID: device.userID, from: first, to: last.addingTimeInterval(0.001))
        return changes
    }

    /// The stretch to read again: widened to whole stays at both edges.
    func stretch(device: Device, from: Date?, to: Date?) async throws -> (Date?, Date?) {
        guard let from else { return (nil, to.map { $0.addingTimeInterval(Self.marginSeconds) }) }
        var start = from.addingTimeInterval(-Self.marginSeconds)
        let overlapping = try await store.visits(userID: device.userID, deviceIDs: [device.id], from: start, to: from,
                                                 includeHidden: true)
        if let earliest = overlapping.filter({ $0.visit.source == .detected }).map(\.visit.arrival).min() {
            start = min(start, earliest.addingTimeInterval(-1))
        }
        guard let to else { return (start, nil) }
        var end = to.addingTimeInterval(Self.marginSeconds)
        // A stay going on at the end is read whole, and so is one going on at the end that makes.
        while true {
            let crossing = try await store.visits(userID: device.userID, deviceIDs: [device.id], from: end, to: end, includeHidden: true)
                .filter { $0.visit.source == .detected && $0.visit.arrival < end }
            guard !crossing.isEmpty else { break }
            let departures = crossing.map(\.visit.departure)
            if departures.contains(nil) { return (start, nil) }
            end = departures.compactMap { $0 }.max()!.addingTimeInterval(Self.marginSeconds)
        }
        // When nothing was recorded after the stretch, it reaches the end of the data: a stay there
        // is still going on, not ended by the edge of the stretch.
        let later = try await store.locations(LocationQuery(userID: device.userID, deviceIDs: [device.id], from: end, limit: 1))
        return (start, later.isEmpty ? nil : end)
    }

    /// Files the visits of `[from, to)` without a place under the nearest place within reach, or a
    /// new one.
    /// - Complexity: O(v·k + p) for v visits in the stretch, p places of the user, and k places in
    ///   the grid cells around a visit (`PlaceIndex`), instead of every visit against every place.
    func assignPlaces(userID: UserID, from: Date?, to: Date?) async throws {
        let unfiled = try await store.visits(userID: userID, deviceIDs: nil, from: from, to: to, includeHidden: false)
            .filter { $0.placeID == nil }
        guard !unfiled.isEmpty else { return }
        var index = PlaceIndex(try await store.places(userID: userID))
        var assignments: [VisitID: PlaceID] = [:]
        for stored in unfiled {
            let center = stored.visit.center
            if let nearest = index.nearest(to: center, slackMeters: Self.placeSlackMeters) {
                assignments[stored.id] = nearest.id
            } else {
                let place = try await store.addPlace(userID: userID, name: stored.visit.name, center: center,
                                                     radiusMeters: max(stored.visit.radiusMeters, tuning.radiusMeters))
                index.insert(place)
                assignments[stored.id] = place.id
            }
        }
        try await store.assignPlaces(assignments)
    }
}

/// The fixes a read of the store found after the newest one the caller reported, touched only from
/// the store's reading thread; gives up (nil) beyond `JournalResumePoint.ReadAhead.limit`.
private final class ReadAheadBox: @unchecked Sendable {
    let after: Date?
    var keys: Set<LocationKey> = []
    var overflowed = false

    init(after: Date?) { self.after = after }

    func note(_ fix: Location, deviceID: DeviceID) {
        guard let after, !overflowed, fix.timestamp > after else { return }
        guard keys.count < JournalResumePoint.ReadAhead.limit else {
            overflowed = true
            keys = []
            return
        }
        keys.insert(LocationKey(deviceID: deviceID, location: fix))
    }

    var found: JournalResumePoint.ReadAhead? {
        guard let after, !overflowed, !keys.isEmpty else { return nil }
        return JournalResumePoint.ReadAhead(after: after, keys: keys)
    }
}

/// The detector and the visits it settled, touched only from the store's reading thread, one batch
/// at a time.
private final class DetectionBox: @unchecked Sendable {
    var detector: VisitDetector
    var departed: [Visit] = []
    var latestFix: Date?

    init(_ detector: VisitDetector, latestFix: Date?) {
        self.detector = detector
        self.latestFix = latestFix
    }

    func ingest(_ location: Location) {
        latestFix = max(latestFix ?? location.timestamp, location.timestamp)
        for event in detector.ingest(location) {
            if case .departed(let visit) = event { departed.append(visit) }
        }
    }

    /// The visits settled since the last call.
    func takeDeparted() -> [Visit] {
        defer { departed.removeAll() }
        return departed
    }
}

extension JournalStore where Self: LocationStore {
    /// The arrival of a device's latest detected visit, `nil` when it has none.
    public func latestDetectedArrival(device: Device) async throws -> Date? {
        // The latest visits overlap the last days of data; look back further only when needed.
        guard let last = try await locations(LocationQuery(userID: device.userID, deviceIDs: [device.id],
                                                           limit: 1, newestFirst: true)).first?.location.timestamp
        else { return nil }
        for days in [7.0, 90, 3_650] {
            let visits = try await visits(userID: device.userID, deviceIDs: [device.id],
                                          from: last.addingTimeInterval(-days * 86_400), to: nil, includeHidden: true)
            if let latest = visits.filter({ $0.visit.source == .detected }).map(\.visit.arrival).max() { return latest }
        }
        return try await visits(userID: device.userID, deviceIDs: [device.id], from: nil, to: nil, includeHidden: true)
            .filter { $0.visit.source == .detected }.map(\.visit.arrival).max()
    }
}
