import Foundation

/// Distance traveled and fixes counted per local calendar period, fed location by location.
///
/// Each device's locations go through their own `TraveledDistance` (so standing still with a
/// jittering GPS adds nothing, and two devices carried together are not mixed into one zig-zag);
/// the change in distance a fix brings (negative when a provisional stretch is withdrawn) is booked
/// to the local period of that fix, so the periods always add up to the device's total. Local time is the offset the
/// caller's `utcOffset` gives for a location (the source's own offset where it wrote one, else the
/// time zone of the place or of the user).
/// - Complexity: O(1) amortised per location; memory O(periods + devices).
public struct TravelStatistics {
    /// The figures of one period.
    public struct Period: Hashable, Sendable {
        /// `2024-05-01`, `2024-W18`, `2024-05` or `2024`.
        public var label: String
        public var distanceMeters: Double = 0
        public var locationCount = 0
        /// Local days with at least one fix.
        public var activeDays = 0
        public var first: Date?
        public var last: Date?

        public init(label: String) {
            self.label = label
        }
    }

    public let period: CalendarPeriod
    private let utcOffset: (Location) -> Int
    private var distances: [Int64: TraveledDistance] = [:]
    private var byLabel: [String: Period] = [:]
    private var days: Set<Int> = []
    private var dayLabels: [Int: String] = [:]

    /// - Parameters:
    ///   - period: how to group.
    ///   - utcOffset: the local offset from UTC, in seconds, in force at a location.
    public init(period: CalendarPeriod, utcOffset: @escaping (Location) -> Int) {
        self.period = period
        self.utcOffset = utcOffset
    }

    /// Adds one location of a device; a device's locations must come oldest first.
    public mutating func ingest(_ location: Location, device: Int64) {
        let day = CivilDate(secondsSince1970: location.timestamp.timeIntervalSince1970, utcOffsetSeconds: utcOffset(location))
        let label = period.label(of: day)
        var distance = distances[device] ?? TraveledDistance()
        let before = distance.distanceMeters
        distance.ingest(location)
        // The distance of a moving stretch is provisional until the next fixes confirm it (and is
        // withdrawn when a stop turns out to have been jitter), so the change may be negative: book it
        // as it is, or withdrawn distance would be counted again later.
        let added = distance.distanceMeters - before
        distances[device] = distance
        var figures = byLabel[label] ?? Period(label: label)
        figures.distanceMeters += added
        figures.locationCount += 1
        if days.insert(day.daysSince1970).inserted { figures.activeDays += 1 }
        figures.first = min(figures.first ?? location.timestamp, location.timestamp)
        figures.last = max(figures.last ?? location.timestamp, location.timestamp)
        byLabel[label] = figures
    }

    /// The periods with at least one fix, in time order.
    public var periods: [Period] { byLabel.values.sorted { $0.label < $1.label } }

    /// All periods together.
    public var total: Period {
        periods.reduce(into: Period(label: "total")) { total, period in
            total.distanceMeters += period.distanceMeters
            total.locationCount += period.locationCount
            total.activeDays += period.activeDays
            total.first = [total.first, period.first].compactMap { $0 }.min()
            total.last = [total.last, period.last].compactMap { $0 }.max()
        }
    }
}
