import Foundation
import TravelogCore
import TravelogStore

/// Where a device's visit detection stood after its latest fix: the next batch that only adds
/// later fixes goes on from here (reading just those fixes) instead of reading hours of history
/// again. A phone sends its fixes in order, so nearly every batch can.
///
/// A point is valid as long as no fix at or before `lastFixTime` has been added or removed since it
/// was taken; `JournalProcessor.process(device:from:to:resumePoints:)` drops the ones a batch
/// makes stale.
public struct JournalResumePoint: Sendable {
    /// The detector after every fix up to `lastFixTime`.
    var detector: VisitDetector
    /// Detected visits arriving at or after this are rewritten by the next step; the journal before
    /// it is final for this run (`nil`: the whole history).
    var anchor: Date?
    /// The ended visits (before merging) that a later visit may still merge with.
    var openVisits: [Visit] = []
    /// Every fix at or before this time has been fed to the detector (`nil`: none yet).
    public internal(set) var lastFixTime: Date?
    /// The fixes a read of the store fed after the newest fix the caller had reported: batches
    /// stored while the journal was behind, which the caller reports next.
    var readAhead: ReadAhead?

    /// Fixes fed from the store after `after`, each by its identity.
    struct ReadAhead: Sendable {
        /// Beyond this many fixes read ahead, none are noted (the point is then dropped as before).
        static let limit = 200_000
        let after: Date
        let keys: Set<LocationKey>
    }

    /// Whether the point still stands for a batch of `known` fixes starting at `from`: every fix
    /// before the point is one it was fed already (found by reading ahead of what was reported).
    /// A journal that is behind reads batches stored after its work was taken; they are reported
    /// next, starting before this point, and would otherwise drop it and read everything back.
    func hasFed(_ known: [Location], from: Date, deviceID: DeviceID) -> Bool {
        guard let readAhead, let lastFixTime, from > readAhead.after else { return false }
        return known.allSatisfy { fix in
            fix.timestamp > lastFixTime || readAhead.keys.contains(LocationKey(deviceID: deviceID, location: fix))
        }
    }
}

extension JournalProcessor {
    /// How many resume points are kept per device: enough for batches that arrive a few out of order
    /// (an app with several uploads in flight).
    public static let resumePointLimit = 16

    /// Re-processes a device's history where new fixes between `from` and `to` landed, going on
    /// from the newest resume point taken before `from` when there is one (same visits as
    /// `process(device:from:to:)`, reading only what came after the point).
    /// - Parameters:
    ///   - resumePoints: the device's points, oldest first; updated.
    ///   - known: fixes the caller knows landed (as the server's journal knows the write path's
    ///     batches): detection goes on from the point without reading the store when they are every
    ///     fix stored after `knownAfter` and the point stands at or after it. Not used when no point
    ///     is left.
    ///   - knownAfter: how far back `known` is complete; `nil`: after the newest point before this call.
    public func process(device: Device, from: Date?, to: Date?, resumePoints: inout [JournalResumePoint],
                        known: [Location]? = nil, knownAfter: Date? = nil) async throws -> VisitChanges {
        let coverage = knownAfter ?? resumePoints.last?.lastFixTime
        if let from {
            let standing = known.flatMap { known in resumePoints.last.map { $0.hasFed(known, from: from, deviceID: device.id) } } ?? false
            let newest = standing ? resumePoints.popLast() : nil
            resumePoints.removeAll { point in point.lastFixTime.map { $0 >= from } ?? true }
            if let newest { resumePoints.append(newest) }
        } else {
            resumePoints.removeAll()
        }
        // Going on from a point before what `known` covers, the fixes fed after it are needed too:
        // read them back.
        let covered = resumePoints.last?.lastFixTime.map { point in coverage.map { point >= $0 } ?? false } ?? false
        let known = covered ? known : nil
        let outcome: (changes: VisitChanges, resumePoint: JournalResumePoint?)
        if let point = resumePoints.last, let lastFixTime = point.lastFixTime {
            outcome = try await detect(device: device, continuing: point, readFrom: lastFixTime, readTo: nil, known: known,
                                       reportedUpTo: to)
        } else {
            outcome = try await run(device: device, from: from, to: to)
        }
        if let next = outcome.resumePoint {
            resumePoints.append(next)
            if resumePoints.count > Self.resumePointLimit { resumePoints.removeFirst(resumePoints.count - Self.resumePointLimit) }
        }
        return outcome.changes
    }

    /// Fixes kept in a `JournalResumeState`; beyond this, an older point's fixes are read back instead.
    public static let recentFixLimit = 200_000
    /// A `JournalResumeState` keeps the fixes after this many points back from the newest.
    public static let recentDepth = 4

    /// Re-processes like `process(device:from:to:resumePoints:known:knownAfter:)` with a device's
    /// points and the fixes it was handed since the oldest of them, so that a batch that lands
    /// before the newest point goes on from an older one without reading anything back.
    /// - Parameter stored: exactly the fixes this write added, when the caller knows them; `nil`
    ///   (duplicates, a deletion) reads the store and starts the kept fixes over.
    public func process(device: Device, from: Date?, to: Date?, state: inout JournalResumeState,
                        stored: [Location]?) async throws -> VisitChanges {
        let knownAfter = state.recentAfter ?? state.points.last?.lastFixTime
        if let stored { state.recent.append(contentsOf: stored) }
        // Handed over without a copy: nothing else holds the fixes while they are processed.
        var known = stored == nil ? nil : state.recent
        if known != nil { state.recent = [] }
        let changes = try await process(device: device, from: from, to: to, resumePoints: &state.points, known: known,
                                        knownAfter: knownAfter)
        if known != nil, let knownAfter {
            swap(&state.recent, &known!)
            state.recentAfter = knownAfter
        } else {
            state.recent = []
            state.recentAfter = state.points.last?.lastFixTime
        }
        known = nil
        // Only the fixes after the point `recentDepth` from the newest are kept: uploads in flight
        // together are a few batches apart, and each kept fix is copied again as the rest move up.
        let depth = min(Self.recentDepth, state.points.count)
        if depth > 0, let oldest = state.points[state.points.count - depth].lastFixTime, let after = state.recentAfter, oldest > after {
            state.recent.removeAll { $0.timestamp <= oldest }
            state.recentAfter = oldest
        }
        if state.recent.count > Self.recentFixLimit {
            state.recent = []
            state.recentAfter = state.points.last?.lastFixTime
        }
        return changes
    }
}

/// A device's resume points and every fix stored after `recentAfter` that the caller handed over:
/// uploads of one phone in flight together commit in any order, and a batch that lands before the
/// newest point then goes on from an older point with these fixes instead of reading them back.
public struct JournalResumeState: Sendable {
    /// The points, oldest first.
    public internal(set) var points: [JournalResumePoint] = []
    /// Every stored fix later than `recentAfter` (none known when `recentAfter` is `nil`).
    var recent: [Location] = []
    var recentAfter: Date?

    public init() {}
}
