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
    ///   - known: the new fixes, when they are every fix stored after the newest point that stays
    ///     valid (the caller knows what landed since, as the server's journal does): detection
    ///     goes on from that point without reading the store. Not used when no point is left.
    public func process(device: Device, from: Date?, to: Date?, resumePoints: inout [JournalResumePoint],
                        known: [Location]? = nil) async throws -> VisitChanges {
        let kept = resumePoints.count
        if let from {
            resumePoints.removeAll { point in point.lastFixTime.map { $0 >= from } ?? true }
        } else {
            resumePoints.removeAll()
        }
        // Going on from an older point, the fixes fed after it are needed too: read them back.
        let known = resumePoints.count == kept ? known : nil
        let outcome: (changes: VisitChanges, resumePoint: JournalResumePoint?)
        if let point = resumePoints.last, let lastFixTime = point.lastFixTime {
            outcome = try await detect(device: device, continuing: point, readFrom: lastFixTime, readTo: nil, known: known)
        } else {
            outcome = try await run(device: device, from: from, to: to)
        }
        if let next = outcome.resumePoint {
            resumePoints.append(next)
            if resumePoints.count > Self.resumePointLimit { resumePoints.removeFirst(resumePoints.count - Self.resumePointLimit) }
        }
        return outcome.changes
    }
}
