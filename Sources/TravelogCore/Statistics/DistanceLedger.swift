import Foundation

/// The distance each fix of a fused track added, as `DistanceBookkeeper` books it (the same
/// stretches, local days and withdrawals as `TravelStatistics`), so the distance over any stretch
/// of time is a sum of the day's own figure's parts: trips measured with it never add up to more
/// than the day.
/// - Complexity: O(1) amortised to add a fix, memory O(n) for n fixes; `meters(after:through:device:)` O(n) in the
///   fixes of the interval plus O(log n) to find them.
public struct DistanceLedger: Sendable {
    private var times: [Date] = []
    private var meters: [Double] = []
    private var groups: [[Int64]] = []

    private var bookkeeper: DistanceBookkeeper<Int>
    private let utcOffset: @Sendable (Location) -> Int

    /// An empty ledger. - Parameter utcOffset: the local offset in force at a fix, seconds (as the
    ///   statistics read it: the day a fix books to).
    public init(maximumSilenceSeconds: Double = HistoryGap.defaultMaximumSilenceSeconds,
                utcOffset: @escaping @Sendable (Location) -> Int) {
        bookkeeper = DistanceBookkeeper(maximumSilenceSeconds: maximumSilenceSeconds)
        self.utcOffset = utcOffset
    }

    /// Adds the next fix of the fused track (time order).
    public mutating func add(_ fused: TrackFusion.Fused) {
        let location = fused.fix.location
        let index = times.count
        times.append(location.timestamp)
        meters.append(0)
        groups.append(fused.group)
        let day = CivilDate(secondsSince1970: location.timestamp.timeIntervalSince1970,
                            utcOffsetSeconds: utcOffset(location)).daysSince1970
        for booking in bookkeeper.ingest(location, lane: fused.lane, day: day, slot: index).bookings {
            meters[booking.slot] = max(0, meters[booking.slot] + booking.meters)
        }
    }

    /// The whole track's distance, metres.
    public var totalMeters: Double { meters.reduce(0, +) }

    /// Whether two devices were together (`TrackFusion`: in one group) for at least half of the
    /// fused fixes after `start` up to and including `end`.
    public func together(_ a: Int64, _ b: Int64, after start: Date, through end: Date) -> Bool {
        var index = times.partitioningIndex { $0 > start }
        var both = 0, all = 0
        while index < times.count, times[index] <= end {
            if groups[index].contains(a) || groups[index].contains(b) {
                all += 1
                if groups[index].contains(a) && groups[index].contains(b) { both += 1 }
            }
            index += 1
        }
        return all > 0 && 2 * both >= all
    }

    /// The distance booked by fixes after `start` up to and including `end`, metres; with a device,
    /// only by the fixes of the groups it was in (its own body's movement, not another's).
    public func meters(after start: Date, through end: Date, device: Int64? = nil) -> Double {
        var index = times.partitioningIndex { $0 > start }
        var sum = 0.0
        while index < times.count, times[index] <= end {
            if device.map(groups[index].contains) ?? true { sum += meters[index] }
            index += 1
        }
        return sum
    }
}
