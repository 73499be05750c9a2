import Foundation

/// Distance traveled and fixes counted per local calendar period, fed location by location.
///
/// Each device's locations go through their own `TraveledDistance` (so standing still with a
/// jittering GPS adds nothing, and two devices carried together are not mixed into one zig-zag).
/// A device's history is cut at every silence longer than `maximumSilenceSeconds` (a
/// `HistoryGap`): each stretch between gaps is measured on its own, and a move across a gap is
/// counted as unrecorded movement (`Period.unrecordedMovement`, the straight line), never as
/// distance.
///
/// Each fix books the distance it adds to its own local period. The distance of a moving stretch
/// is provisional until the next fixes confirm it, and withdrawn when a stop turns out to have
/// been jitter: a withdrawal takes back what was booked most recently (the periods that booked the
/// provisional part), never more than they hold. So no period is ever negative, and the periods add
/// up to the sum of the stretches' distances whatever the grouping. Local time is the offset the
/// caller's `utcOffset` gives for a location (the source's own offset where it wrote one, else the
/// time zone of the place or of the user).
/// - Complexity: O(1) amortised per location; memory O(periods + devices).
public struct TravelStatistics {
    /// The figures of one period.
    public struct Period: Hashable, Sendable {
        /// `2024-05-01`, `2024-W18`, `2024-05` or `2024`.
        public var label: String
        /// Distance traveled, metres (never negative).
        public var distanceMeters: Double = 0
        public var locationCount = 0
        /// Local days with at least one fix.
        public var activeDays = 0
        public var first: Date?
        public var last: Date?
        /// Moves across gaps that ended in this period: not part of `distanceMeters`.
        public var unrecordedMovement = UnrecordedMovement()

        public init(label: String) {
            self.label = label
        }
    }

    /// One device's stretch being measured.
    private struct Stretch {
        var distance = TraveledDistance()
        /// How much of `distance` has been booked to periods, metres.
        var bookedMeters = 0.0
        /// The bookings beyond the committed distance, oldest first (what a withdrawal may take
        /// back): period label and metres.
        var provisional: [(label: String, meters: Double)] = []
        var last: Location
    }

    public let period: CalendarPeriod
    /// A silence longer than this cuts a device's history, seconds.
    public let maximumSilenceSeconds: Double
    private let utcOffset: (Location) -> Int
    private var stretches: [Int64: Stretch] = [:]
    private var byLabel: [String: Period] = [:]
    private var days: Set<Int> = []

    /// - Parameters:
    ///   - period: how to group.
    ///   - maximumSilenceSeconds: a longer silence between two fixes of a device is a gap.
    ///   - utcOffset: the local offset from UTC, in seconds, in force at a location.
    public init(period: CalendarPeriod, maximumSilenceSeconds: Double = HistoryGap.defaultMaximumSilenceSeconds,
                utcOffset: @escaping (Location) -> Int) {
        self.period = period
        self.maximumSilenceSeconds = maximumSilenceSeconds
        self.utcOffset = utcOffset
    }

    /// Adds one location of a device; a device's locations must come oldest first (an older one
    /// is counted, but adds no distance).
    public mutating func ingest(_ location: Location, device: Int64) {
        let day = CivilDate(secondsSince1970: location.timestamp.timeIntervalSince1970, utcOffsetSeconds: utcOffset(location))
        let label = period.label(of: day)
        var figures = byLabel[label] ?? Period(label: label)
        figures.locationCount += 1
        if days.insert(day.daysSince1970).inserted { figures.activeDays += 1 }
        figures.first = min(figures.first ?? location.timestamp, location.timestamp)
        figures.last = max(figures.last ?? location.timestamp, location.timestamp)
        byLabel[label] = figures

        var stretch = stretches[device] ?? Stretch(last: location)
        guard location.timestamp >= stretch.last.timestamp else { return }
        if let gap = HistoryGap(between: stretch.last, and: location, maximumSilenceSeconds: maximumSilenceSeconds) {
            byLabel[label]?.unrecordedMovement.add(gap)
            stretch = Stretch(last: location)
        }
        stretch.distance.ingest(location)
        stretch.last = location
        settle(&stretch, label: label)
        stretches[device] = stretch
    }

    /// Books the change in a stretch's distance: an increase to `label`, a withdrawal from the
    /// latest provisional bookings.
    private mutating func settle(_ stretch: inout Stretch, label: String) {
        let current = stretch.distance.distanceMeters
        if current > stretch.bookedMeters {
            let added = current - stretch.bookedMeters
            byLabel[label, default: Period(label: label)].distanceMeters += added
            if let last = stretch.provisional.last, last.label == label {
                stretch.provisional[stretch.provisional.count - 1].meters += added
            } else {
                stretch.provisional.append((label, added))
            }
        } else if current < stretch.bookedMeters {
            var withdrawn = stretch.bookedMeters - current
            while withdrawn > 0, let last = stretch.provisional.popLast() {
                let taken = min(withdrawn, last.meters)
                if let booked = byLabel[last.label]?.distanceMeters { byLabel[last.label]?.distanceMeters = max(0, booked - taken) }
                withdrawn -= taken
                if taken < last.meters { stretch.provisional.append((last.label, last.meters - taken)) }
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
    }

    /// The periods with at least one fix, in time order.
    public var periods: [Period] { byLabel.values.sorted { $0.label < $1.label } }

    /// All periods together.
    public var total: Period {
        periods.reduce(into: Period(label: "total")) { total, period in
            total.distanceMeters += period.distanceMeters
            total.locationCount += period.locationCount
            total.activeDays += period.activeDays
            total.unrecordedMovement.add(period.unrecordedMovement)
            total.first = [total.first, period.first].compactMap { $0 }.min()
            total.last = [total.last, period.last].compactMap { $0 }.max()
        }
    }
}
