import Foundation

/// The one computation of distance traveled that a day's figures, the path's length and the trips
/// share: fixes of a track's lanes (a device's, or a person's fused lanes, `TrackFusion`) are fed in
/// time order, each lane is cut into stretches — at every silence longer than
/// `maximumSilenceSeconds` (a `HistoryGap`) and at every local midnight (the step across it, like
/// a move across a gap, is reported as unrecorded movement, so that a day's distance is its own
/// fixes' alone) — and each stretch is measured by its own `TraveledDistance`. Every fix books the distance it adds to a slot the
/// caller names (a period's label, a fix's index); when a stop turns out to have been jitter, the
/// withdrawal takes back what was booked most recently in that stretch, never more than it holds.
///
/// So a local day's distance depends on that day's fixes only (whatever range was read around it),
/// the slots add up to the sum of the stretches' distances whatever the grouping, and no slot is
/// ever negative.
/// - Complexity: O(1) amortised per location; memory O(lanes + provisional bookings).
public struct DistanceBookkeeper<Slot: Hashable & Sendable>: Sendable {
    /// A change of a slot's distance, metres: positive when booked, negative when withdrawn.
    public struct Booking: Hashable, Sendable {
        public var slot: Slot
        public var meters: Double
    }

    /// What feeding one fix did.
    public struct Outcome: Sendable {
        public var bookings: [Booking] = []
        /// The silence (longer than the bound) or the local midnight before the fix, when it cut
        /// the lane: a move across it is unrecorded movement, never distance.
        public var gap: HistoryGap?
    }

    private struct Stretch: Sendable {
        var distance = TraveledDistance()
        var bookedMeters = 0.0
        /// The bookings beyond the committed distance, oldest first (what a withdrawal may take back).
        var provisional: [(slot: Slot, meters: Double)] = []
        var last: Location
        var day: Int
    }

    public let maximumSilenceSeconds: Double
    private var stretches: [Int64: Stretch] = [:]

    public init(maximumSilenceSeconds: Double = HistoryGap.defaultMaximumSilenceSeconds) {
        self.maximumSilenceSeconds = maximumSilenceSeconds
    }

    /// Feeds a fix of a lane, booking what it adds to `slot`.
    /// - Parameters:
    ///   - day: the fix's local day (`CivilDate.daysSince1970`): a new day starts a new stretch.
    ///   A fix older than its lane's previous one adds nothing.
    public mutating func ingest(_ location: Location, lane: Int64, day: Int, slot: Slot) -> Outcome {
        var outcome = Outcome()
        var stretch = stretches[lane] ?? Stretch(last: location, day: day)
        guard location.timestamp >= stretch.last.timestamp else { return outcome }
        if let gap = HistoryGap(between: stretch.last, and: location, maximumSilenceSeconds: maximumSilenceSeconds) {
            outcome.gap = gap
            stretch = Stretch(last: location, day: day)
        } else if day != stretch.day {
            outcome.gap = HistoryGap(start: stretch.last.timestamp, end: location.timestamp,
                                     origin: stretch.last.coordinate, destination: location.coordinate)
            stretch = Stretch(last: location, day: day)
        }
        stretch.distance.ingest(location)
        stretch.last = location
        outcome.bookings = settle(&stretch, slot: slot)
        stretches[lane] = stretch
        return outcome
    }

    /// Books the change in a stretch's distance: an increase to `slot`, a withdrawal from the
    /// latest provisional bookings.
    private func settle(_ stretch: inout Stretch, slot: Slot) -> [Booking] {
        var bookings: [Booking] = []
        let current = stretch.distance.distanceMeters
        if current > stretch.bookedMeters {
            let added = current - stretch.bookedMeters
            bookings.append(Booking(slot: slot, meters: added))
            if let last = stretch.provisional.last, last.slot == slot {
                stretch.provisional[stretch.provisional.count - 1].meters += added
            } else {
                stretch.provisional.append((slot, added))
            }
        } else if current < stretch.bookedMeters {
            var withdrawn = stretch.bookedMeters - current
            while withdrawn > 0, let last = stretch.provisional.popLast() {
                let taken = min(withdrawn, last.meters)
                bookings.append(Booking(slot: last.slot, meters: -taken))
                withdrawn -= taken
                if taken < last.meters { stretch.provisional.append((last.slot, last.meters - taken)) }
            }
        }
        stretch.bookedMeters = current
        // What the committed distance covers can no longer be withdrawn.
        var settled = stretch.bookedMeters - stretch.distance.committedDistanceMeters
        var keep = stretch.provisional.count
        while keep > 0, settled > 0 {
            keep -= 1
            settled -= stretch.provisional[keep].meters
        }
        if settled <= 0, keep > 0 { stretch.provisional.removeFirst(keep) }
        return bookings
    }
}
