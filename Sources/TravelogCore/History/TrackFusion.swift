import Foundation

/// One person's devices fused into the track of one body: a state machine fed the fixes of all of
/// a user's devices in time order, giving back the fixes the person's figures are measured on.
///
/// Time is cut into windows of `windowSeconds`, aligned to the Unix epoch (every UTC offset is a
/// multiple of 15 minutes, so a local day is made of whole windows, and a day's fused fixes do not
/// depend on the range read around it). In each window:
///
/// 1. **Which devices are together.** Two devices agree at a fix of one when the other's position at
///    that time (interpolated between its fixes at most `2 × concurrencySeconds` apart, else its
///    nearest fix at most `concurrencySeconds` away) lies within
///    `max(minimumAgreementMeters, accuracyAgreementFactor × (accuracyA + accuracyB))`; they are
///    together when at least `agreementFraction` of the compared fixes agree (both directions,
///    at most `maximumComparisonsPerDevice` fixes each). Groups are the connected components of
///    "together". A device that disagrees (a phone left at home, a child's phone on another trip)
///    or records alone is a group of its own, and its movement counts.
/// 2. **Whose fixes.** In a group, one device's fixes are kept: the better median accuracy, then
///    the more fixes. The device chosen in the window before stays chosen unless another is clearly
///    better (median accuracy at most `switchAccuracyRatio` of its own, or at least
///    `switchCountRatio` times its fixes): each switch may step by the devices' offset, so switches
///    are kept rare. The other members' fixes fill the stretches where the chosen device was silent
///    for more than `concurrencySeconds` (best first), so no recorded movement is lost.
/// 3. **Lanes.** Each group continues the lane (a continuous track, measured on its own) whose
///    last chosen device is among its members, else starts a new one: a switch of device inside a
///    group joins the two devices' fixes in one line, which steps only as far as they agree, and
///    nothing is invented between devices that were not together. At every local midnight the
///    choice starts afresh (and the distance is cut, `DistanceBookkeeper`): a day's fused fixes
///    and distance do not depend on the range read around it.
///
/// Why these thresholds: phones and watches report with 5–65 m accuracy and a few seconds of
/// latency; 250 m keeps two devices carried together (a phone in a bag, a watch on a cycling
/// wrist, fixes a minute apart at walking speed) together, while a phone left at home is kept apart
/// as soon as the person is a few streets away. Two minutes is the longest interval a phone app
/// records at while moving (OwnTracks' significant mode, Overland's defaults); 15-minute windows
/// hold enough fixes to judge and let a device that is put down split off within a quarter of an hour.
///
/// - Complexity: O(n log n) per window of n fixes (each comparison a binary search; at most
///   `maximumComparisonsPerDevice` per device pair), memory O(fixes of one window).
public struct TrackFusion: Sendable {
    /// A fix of one device (its id in the store).
    public struct Fix: Hashable, Sendable {
        public var device: Int64
        public var location: Location

        public init(device: Int64, location: Location) {
            self.device = device
            self.location = location
        }
    }

    /// A fix of the fused track.
    public struct Fused: Hashable, Sendable {
        public var fix: Fix
        /// The continuous track it belongs to (measure each lane on its own).
        public var lane: Int64
        /// The devices together in its window (its own among them): a trip of any of them counts it.
        public var group: [Int64]

        public init(fix: Fix, lane: Int64, group: [Int64]) {
            self.fix = fix
            self.lane = lane
            self.group = group
        }
    }

    /// The length of a window, seconds (aligned to the Unix epoch).
    public static let windowSeconds: Double = 900
    /// Fixes of two devices at most this far apart in time are concurrent, seconds.
    public static let concurrencySeconds: Double = 120
    /// Two concurrent positions this close always agree, metres.
    public static let minimumAgreementMeters: Double = 250
    /// …and so do positions within this many times the sum of their accuracies.
    public static let accuracyAgreementFactor: Double = 2
    /// The share of compared fixes that must agree for two devices to be together.
    public static let agreementFraction: Double = 0.75
    /// The accuracy of a fix that has none, metres (as `TraveledDistance` assumes).
    public static let assumedAccuracyMeters: Double = 20
    /// The chosen device gives way to one whose median accuracy is at most this share of its own…
    public static let switchAccuracyRatio: Double = 0.5
    /// …or that has at least this many times its fixes.
    public static let switchCountRatio: Double = 2
    /// At most this many fixes of a device are compared per window (evenly spread).
    public static let maximumComparisonsPerDevice = 60

    private let dayOf: @Sendable (Location) -> Int
    private var window: Int64?
    private var day: Int?
    private var pending: [Int64: [Location]] = [:]
    private var laneOfDevice: [Int64: Int64] = [:]
    private var chosenOfLane: [Int64: Int64] = [:]
    /// The device chosen in each lane since the local day began (the choice sticks within a day).
    private var incumbent: [Int64: Int64] = [:]
    /// The last window each lane was used in.
    private var lastUsed: [Int64: Int64] = [:]
    private var nextLane: Int64 = 0

    /// Fixes ignored because they came before the window being collected.
    public private(set) var outOfOrderCount = 0

    /// - Parameter dayOf: the local day of a fix (`CivilDate.daysSince1970`): the choice of devices
    ///   starts afresh (no device chosen before) at every local midnight, as the distance does, so a
    ///   day's fused fixes depend on that day's fixes only, whatever range was read around it.
    public init(dayOf: @escaping @Sendable (Location) -> Int = { location in
        CivilDate(secondsSince1970: location.timestamp.timeIntervalSince1970,
                  utcOffsetSeconds: location.utcOffsetSeconds ?? 0).daysSince1970
    }) {
        self.dayOf = dayOf
    }

    /// Fuses a whole time-ordered sequence of fixes.
    public static func fused<S: Sequence>(_ fixes: S) -> [Fused] where S.Element == Fix {
        var fusion = TrackFusion()
        var result: [Fused] = []
        for fix in fixes { result += fusion.ingest(fix) }
        return result + fusion.finish()
    }

    /// Feeds the next fix (time order across devices). - Returns: the fused fixes of the windows
    /// that ended before it, in time order.
    public mutating func ingest(_ fix: Fix) -> [Fused] {
        let index = Int64((fix.location.timestamp.timeIntervalSince1970 / Self.windowSeconds).rounded(.down))
        var out: [Fused] = []
        if let window, index < window {
            outOfOrderCount += 1
            return []
        }
        if let window, index > window { out = flush() }
        if window != index {
            let today = dayOf(fix.location)
            if let day, day != today { incumbent.removeAll() }
            day = today
        }
        window = index
        pending[fix.device, default: []].append(fix.location)
        return out
    }

    /// Ends the input. - Returns: the fused fixes of the last window.
    public mutating func finish() -> [Fused] {
        flush()
    }

    // MARK: One window

    private struct Member {
        var device: Int64
        var fixes: [Location]
        var medianAccuracy: Double
    }

    private mutating func flush() -> [Fused] {
        defer { pending.removeAll(keepingCapacity: true) }
        let members = pending.keys.sorted().map { device in
            let fixes = pending[device] ?? []
            let accuracies = fixes.map(Self.accuracy).sorted()
            return Member(device: device, fixes: fixes, medianAccuracy: accuracies[accuracies.count / 2])
        }
        var groups = Self.groups(members)
        // Groups holding a lane's chosen device claim lanes first, then the larger ones.
        let chosen = Set(chosenOfLane.values)
        groups.sort { a, b in
            let ca = a.contains { chosen.contains($0.device) }, cb = b.contains { chosen.contains($0.device) }
            if ca != cb { return ca }
            if a.count != b.count { return a.count > b.count }
            return a[0].device < b[0].device
        }
        var claimed = Set<Int64>()
        var out: [Fused] = []
        for group in groups {
            let lane = claimLane(for: group, claimed: &claimed)
            let pick = choose(in: group, lane: lane)
            chosenOfLane[lane] = pick.device
            incumbent[lane] = pick.device
            let ids = group.map(\.device)
            for member in group { laneOfDevice[member.device] = lane }
            out += Self.fill(group, chosen: pick).map { Fused(fix: $0, lane: lane, group: ids) }
        }
        return out.sorted { $0.fix.location.timestamp < $1.fix.location.timestamp }
    }

    /// The lane a group continues: one whose last chosen device is in the group (the track goes on
    /// in the hands of a device that was with it), else a new one.
    private mutating func claimLane(for group: [Member], claimed: inout Set<Int64>) -> Int64 {
        let devices = Set(group.map(\.device))
        var counts: [Int64: Int] = [:]
        for member in group {
            guard let lane = laneOfDevice[member.device], !claimed.contains(lane),
                  let chosen = chosenOfLane[lane], devices.contains(chosen) else { continue }
            counts[lane, default: 0] += 1
        }
        let lane: Int64
        // Most members, then the lane used last (not one dormant since another day), then the oldest.
        if let best = counts.max(by: { ($0.value, lastUsed[$0.key] ?? 0, -$0.key) < ($1.value, lastUsed[$1.key] ?? 0, -$1.key) }) {
            lane = best.key
        } else {
            lane = nextLane
            nextLane += 1
        }
        claimed.insert(lane)
        lastUsed[lane] = window ?? 0
        return lane
    }

    private func choose(in group: [Member], lane: Int64) -> Member {
        let best = group.min { a, b in
            if a.medianAccuracy != b.medianAccuracy { return a.medianAccuracy < b.medianAccuracy }
            if a.fixes.count != b.fixes.count { return a.fixes.count > b.fixes.count }
            return a.device < b.device
        }!
        guard let previous = incumbent[lane], let kept = group.first(where: { $0.device == previous }),
              kept.device != best.device else { return best }
        let clearlyBetter = best.medianAccuracy <= Self.switchAccuracyRatio * kept.medianAccuracy
            || Double(best.fixes.count) >= Self.switchCountRatio * Double(kept.fixes.count)
        return clearlyBetter ? best : kept
    }

    /// The chosen device's fixes, and the other members' (best first) where no fix already kept
    /// lies within `concurrencySeconds`.
    private static func fill(_ group: [Member], chosen: Member) -> [Fix] {
        var fixes = chosen.fixes.map { Fix(device: chosen.device, location: $0) }
        guard group.count > 1 else { return fixes }
        var times = chosen.fixes.map(\.timestamp.timeIntervalSince1970)
        let others = group.filter { $0.device != chosen.device }.sorted { ($0.medianAccuracy, -$0.fixes.count) < ($1.medianAccuracy, -$1.fixes.count) }
        for other in others {
            let added = other.fixes.filter { nearestGap(times, $0.timestamp.timeIntervalSince1970) > concurrencySeconds }
            guard !added.isEmpty else { continue }
            fixes += added.map { Fix(device: other.device, location: $0) }
            times = (times + added.map(\.timestamp.timeIntervalSince1970)).sorted()
        }
        return fixes.sorted { $0.location.timestamp < $1.location.timestamp }
    }

    /// The time to the nearest of sorted `times`, seconds (infinity when there are none).
    private static func nearestGap(_ times: [Double], _ time: Double) -> Double {
        let index = times.partitioningIndex { $0 >= time }
        var gap = Double.infinity
        if index < times.count { gap = times[index] - time }
        if index > 0 { gap = min(gap, time - times[index - 1]) }
        return gap
    }

    /// The connected components of "together", each sorted by device.
    private static func groups(_ members: [Member]) -> [[Member]] {
        var parent = Array(members.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { i = parent[i] }
            return i
        }
        for a in members.indices {
            for b in members.indices where b > a && root(a) != root(b) {
                if together(members[a].fixes, members[b].fixes) { parent[root(b)] = root(a) }
            }
        }
        return Dictionary(grouping: members.indices, by: root).values
            .map { $0.sorted().map { members[$0] } }
    }
}
