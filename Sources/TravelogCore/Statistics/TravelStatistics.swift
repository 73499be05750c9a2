import Foundation

/// Distance traveled and fixes counted per local calendar period, fed location by location.
///
/// Each lane's locations (a device's, or a lane of a person's fused track, `TrackFusion`) go
/// through `DistanceBookkeeper`, the computation the path's length and the trips share: a lane is
/// cut into stretches at every silence longer than `maximumSilenceSeconds` (a `HistoryGap`) and at
/// every local midnight, each measured by its own `TraveledDistance` (so standing still with a
/// jittering GPS adds nothing, and two lanes are not mixed into one zig-zag). A move across a gap
/// is counted as unrecorded movement (`Period.unrecordedMovement`, the straight line), never as
/// distance.
///
/// Each fix books the distance it adds to its own local period; a withdrawal (a stop that was
/// jitter) takes back what was booked most recently. So no period is ever negative, the periods add
/// up to the sum of the stretches' distances whatever the grouping, and a local day's distance
/// depends on that day's fixes only. Local time is the offset the caller's `utcOffset` gives for a
/// location (the source's own offset where it wrote one, else the time zone of the place or of the
/// user).
/// - Complexity: O(1) amortised per location; memory O(periods + lanes).
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

    public let period: CalendarPeriod
    /// A silence longer than this cuts a device's history, seconds.
    public let maximumSilenceSeconds: Double
    private let utcOffset: (Location) -> Int
    private var bookkeeper: DistanceBookkeeper<String>
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
        bookkeeper = DistanceBookkeeper(maximumSilenceSeconds: maximumSilenceSeconds)
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

        let outcome = bookkeeper.ingest(location, lane: device, day: day.daysSince1970, slot: label)
        if let gap = outcome.gap { byLabel[label]?.unrecordedMovement.add(gap) }
        for booking in outcome.bookings {
            let booked = byLabel[booking.slot]?.distanceMeters ?? 0
            byLabel[booking.slot]?.distanceMeters = max(0, booked + booking.meters)
        }
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
