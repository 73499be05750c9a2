import Foundation
import TravelogCore
import TravelogImport
import TravelogStore

/// What the journal has still to process, per device, and the writes under way that may come
/// before it.
///
/// Uploads of one phone in flight together (Overland with several connections, a retry queue)
/// commit in any order. Were the journal to take a later batch before an earlier one, the earlier
/// one would make its resume point stale and the stretch would be read back from the store. So
/// fixes that a write under way may precede are held back until that write is reported, for at
/// most `holdLimit`; the rest is taken, with the fixes themselves when the write path handed them
/// over, so the journal goes on from them without reading them back.
struct JournalWorkQueue {
    /// The longest a device's work waits for writes under way, however many come.
    static let holdLimit = Duration.milliseconds(500)
    /// Fixes kept in memory per device; beyond this the stretch is read back from the store instead.
    static let knownLimit = 200_000

    /// A device's stretch to process.
    struct Item {
        var device: Device
        var from: Date
        var to: Date
        /// Every fix added in the stretch since the device's work was last taken, when the writes
        /// said exactly what they added; `nil`: read them from the store.
        var stored: [Location]?
        /// When the oldest part of this work was asked for.
        var since: ContinuousClock.Instant
    }

    private var pending: [DeviceID: Item] = [:]
    /// The writes under way and where their fixes start (`distantPast` until they say).
    private var writes: [JournalWriteHold: Date] = [:]
    private var nextNumber: UInt64 = 1
    /// Whether the last `take` left work behind for a write under way.
    private(set) var hasHeldWork = false

    mutating func add(device: Device, from: Date, to: Date, stored: [Location]?, at now: ContinuousClock.Instant) {
        guard pending[device.id] != nil else {
            pending[device.id] = Item(device: device, from: from, to: to, stored: stored, since: now)
            return
        }
        // In place: a copy of the fixes gathered so far for every batch added cost more than the batch.
        pending[device.id]!.from = min(pending[device.id]!.from, from)
        pending[device.id]!.to = max(pending[device.id]!.to, to)
        if let stored, let count = pending[device.id]!.stored?.count, count + stored.count <= Self.knownLimit {
            pending[device.id]!.stored!.append(contentsOf: stored)
        } else {
            pending[device.id]!.stored = nil
        }
    }

    mutating func beginWrite(userID: UserID) -> JournalWriteHold {
        let hold = JournalWriteHold(userID: userID, number: nextNumber)
        nextNumber += 1
        writes[hold] = .distantPast
        return hold
    }

    /// The write's next fixes start at `earliest` (what it reported before is no longer held).
    mutating func writeReached(_ hold: JournalWriteHold, earliest: Date) {
        if writes[hold] != nil { writes[hold] = earliest }
    }

    mutating func endWrite(_ hold: JournalWriteHold) {
        writes[hold] = nil
    }

    /// The work to process now: everything when `all`, else each device's fixes that no write
    /// under way for its user may come before (work waiting longer than `holdLimit`, and work
    /// without its fixes, is taken whole).
    mutating func take(all: Bool, now: ContinuousClock.Instant) -> [Item] {
        hasHeldWork = false
        var taken: [Item] = []
        for (id, item) in pending {
            let barrier = writes.filter { $0.key.userID == item.device.userID }.values.min()
            guard !all, let barrier, let stored = item.stored, now - item.since < Self.holdLimit else {
                taken.append(item)
                pending[id] = nil
                continue
            }
            // Wholly before or wholly after the barrier (nearly always), the fixes need no sorting out.
            if item.to < barrier {
                taken.append(item)
                pending[id] = nil
                continue
            }
            if item.from >= barrier {
                hasHeldWork = true
                continue
            }
            var ready: [Location] = [], held: [Location] = []
            var readyRange: ClosedRange<Date>?, heldRange: ClosedRange<Date>?
            for fix in stored {
                let time = fix.timestamp
                if time < barrier {
                    ready.append(fix)
                    readyRange = readyRange.map { min($0.lowerBound, time)...max($0.upperBound, time) } ?? time...time
                } else {
                    held.append(fix)
                    heldRange = heldRange.map { min($0.lowerBound, time)...max($0.upperBound, time) } ?? time...time
                }
            }
            if let readyRange {
                taken.append(Item(device: item.device, from: readyRange.lowerBound, to: readyRange.upperBound, stored: ready,
                                  since: item.since))
            }
            if let heldRange {
                pending[id] = Item(device: item.device, from: heldRange.lowerBound, to: heldRange.upperBound, stored: held,
                                   since: item.since)
                hasHeldWork = true
            } else {
                pending[id] = nil
            }
        }
        return taken
    }
}
