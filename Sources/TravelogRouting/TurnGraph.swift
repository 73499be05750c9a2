/// The turn-aware (edge-based) graph of one mode: its vertices are directed segments (states),
/// and a state leads to the states leaving its head node that the mode may take from it — not a
/// turn a restriction forbids, not through a barrier that stops the mode, and not straight back
/// (a U-turn) unless nothing else is allowed there. Entering a state costs its whole segment:
/// milliseconds for driving and cycling, centimetres for walking. Restrictions are thus plain
/// missing edges, and the contraction hierarchy built over this graph keeps them (Geisberger et
/// al. 2008 over the edge-based graph, as OSRM does). A class: map matching reaches it for every search and
/// junction, and copying a struct of nine arrays retained and released each of them every time (an eighth of
/// map matching's time was reference counting).
final class TurnGraph: Sendable {
    let mode: DirectionsMode
    /// Per state, the cost of travelling its segment; `unusable` when the mode may not.
    let cost: [UInt32]
    let stateTail: [Int32]
    let stateHead: [Int32]
    let stateWay: [Int32]
    private let tailOffsets: [Int32]
    private let tailStates: [Int32]
    private let barrier: [Bool]
    private let restrictionsByVia: [Int32: [TurnRestriction]]
    /// Per node, whether a restriction goes through it: most do not, and the dictionary's hashing was
    /// 5 % of map matching.
    private let restrictedVia: [Bool]

    static let unusable = UInt32.max

    /// Every state's tail, head and way: the same in every mode, so the modes built at once share them.
    struct States: Sendable {
        let tail: [Int32]
        let head: [Int32]
        let way: [Int32]

        init(_ data: RoadGraphData) {
            let states = 2 * data.segmentCount
            var tail = [Int32](repeating: 0, count: states), head = [Int32](repeating: 0, count: states)
            var way = [Int32](repeating: 0, count: states)
            for segment in 0..<data.segmentCount {
                tail[2 * segment] = data.segmentFrom[segment]
                tail[2 * segment + 1] = data.segmentTo[segment]
                head[2 * segment] = data.segmentTo[segment]
                head[2 * segment + 1] = data.segmentFrom[segment]
                way[2 * segment] = data.segmentWay[segment]
                way[2 * segment + 1] = data.segmentWay[segment]
            }
            self.tail = tail
            self.head = head
            self.way = way
        }
    }

    init(_ data: RoadGraphData, mode: DirectionsMode, states shared: States? = nil) {
        self.mode = mode
        let states = 2 * data.segmentCount
        let (tail, head, way) = { let s = shared ?? States(data); return (s.tail, s.head, s.way) }()
        var cost = [UInt32](repeating: Self.unusable, count: states)
        var outDegree = [Int32](repeating: 0, count: data.nodeCount + 1)
        for segment in 0..<data.segmentCount {
            for direction in 0..<2 {
                let state = 2 * segment + direction
                guard data.segmentFlags[segment] & (1 << UInt8(2 * mode.index + direction)) != 0 else { continue }
                cost[state] = Self.cost(lengthCentimeters: data.segmentLengthCentimeters[segment],
                                        speedKilometersPerHour: data.segmentSpeed[3 * segment + mode.index], mode: mode)
                outDegree[Int(tail[state]) + 1] += 1
            }
        }
        for node in 0..<data.nodeCount { outDegree[node + 1] += outDegree[node] }
        var fill = outDegree
        var tailStates = [Int32](repeating: 0, count: Int(outDegree[data.nodeCount]))
        for state in 0..<states where cost[state] != Self.unusable {
            tailStates[Int(fill[Int(tail[state])])] = Int32(state)
            fill[Int(tail[state])] += 1
        }
        var byVia: [Int32: [TurnRestriction]] = [:]
        for restriction in data.restrictions where restriction.modes & (1 << UInt8(mode.index)) != 0 {
            byVia[restriction.viaNode, default: []].append(restriction)
        }
        self.cost = cost
        stateTail = tail
        stateHead = head
        stateWay = way
        tailOffsets = outDegree
        self.tailStates = tailStates
        barrier = data.nodeBarrier.map { $0 & (1 << UInt8(mode.index)) != 0 }
        restrictionsByVia = byVia
        var via = [Bool](repeating: false, count: data.nodeCount)
        for node in byVia.keys { via[Int(node)] = true }
        restrictedVia = via
    }

    /// A segment's cost for a mode: centimetres walking, else milliseconds at the speed.
    static func cost(lengthCentimeters: UInt32, speedKilometersPerHour: UInt8, mode: DirectionsMode) -> UInt32 {
        if mode.minimisesDistance { return lengthCentimeters }
        return UInt32(max(1, (Double(lengthCentimeters) * 36 / Double(max(1, speedKilometersPerHour))).rounded()))
    }

    var stateCount: Int { cost.count }

    /// Whether a restriction forbids going from `from` into `to` through their common node.
    func isRestricted(from: Int32, to: Int32) -> Bool {
        let node = stateHead[Int(from)]
        guard restrictedVia[Int(node)], let restrictions = restrictionsByVia[node] else { return false }
        for restriction in restrictions where restriction.fromWay == stateWay[Int(from)] {
            if restriction.only ? restriction.toWay != stateWay[Int(to)] : restriction.toWay == stateWay[Int(to)] { return true }
        }
        return false
    }

    /// The states `state` leads to, with the cost of entering each.
    func successors(of state: Int32, _ body: (Int32, UInt32) -> Void) {
        let node = Int(stateHead[Int(state)])
        let back = state ^ 1
        var any = false
        if !barrier[node] {
            for index in Int(tailOffsets[node])..<Int(tailOffsets[node + 1]) {
                let next = tailStates[index]
                guard next != back, !isRestricted(from: state, to: next) else { continue }
                any = true
                body(next, cost[Int(next)])
            }
        }
        if !any, cost[Int(back)] != Self.unusable { body(back, cost[Int(back)]) }
    }

    /// Whether the turn from `from` into `to` is one ``successors(of:_:)`` offers.
    func allows(from: Int32, to: Int32) -> Bool {
        var found = false
        successors(of: from) { next, _ in if next == to { found = true } }
        return found
    }
}
