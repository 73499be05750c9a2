import Foundation
import TravelogCore

/// A node a route passed shortly before a candidate: the state the route came into it on, and the road distance
/// from the node on to the candidate (centimetres).
struct MapMatchJunction: Sendable {
    let arriving: Int32
    let backCentimeters: Int64
}

/// A point on a road segment travelled in one direction: a map-matching candidate for a fix, or an
/// end of a route between two. A fix has a candidate per direction its mode may travel the segment,
/// so that a route arriving at a point leaves it the same way: turning round there is a U-turn, paid
/// for (``MapMatchSearch/uTurnPenaltyCentimeters(_:)``), not a free spur up a side street and back.
struct MapMatchCandidate: Sendable {
    let segment: Int32
    /// 0 travelling from the segment's `from` node to its `to` node, 1 the other way.
    let direction: Int32
    /// How far along the segment, 0 at its `from` node, 1 at its `to` node.
    let fraction: Double
    let coordinate: Coordinate
    /// From the fix, metres (local projection).
    let distanceMeters: Double
    /// Along the segment in the candidate's direction, to the head of its state and back to its tail, centimetres:
    /// worked out once here, not by every search that reaches the candidate.
    let aheadCentimeters: Int64
    let behindCentimeters: Int64

    init(segment: Int32, direction: Int32, fraction: Double, coordinate: Coordinate, distanceMeters: Double, lengthCentimeters: Int64) {
        self.segment = segment
        self.direction = direction
        self.fraction = fraction
        self.coordinate = coordinate
        self.distanceMeters = distanceMeters
        let length = Double(lengthCentimeters)
        aheadCentimeters = Int64((length * (direction == 0 ? 1 - fraction : fraction)).rounded())
        behindCentimeters = Int64((length * (direction == 0 ? fraction : 1 - fraction)).rounded())
    }

    /// The directed segment (turn-graph state) the candidate travels.
    var state: Int32 { 2 * segment + direction }
}

/// The turn graph of one mode for map matching (``TurnGraph``: one-way streets, turn restrictions
/// and barriers as directions obey them), searched by distance in centimetres.
final class MapMatchGraph: @unchecked Sendable {
    let graph: RoadGraph
    let mode: DirectionsMode
    let turns: TurnGraph

    /// - Complexity: O(nodes + segments).
    init(graph: RoadGraph, mode: DirectionsMode) {
        self.graph = graph
        self.mode = mode
        turns = TurnGraph(graph.data(), mode: mode)
    }

    private nonisolated(unsafe) static var cache: [Key: MapMatchGraph] = [:]
    private static let cacheLock = NSLock()

    private struct Key: Hashable {
        let graph: ObjectIdentifier
        let mode: DirectionsMode
    }

    /// The matching graph of a road graph and mode, built once per process (it keeps the road graph).
    static func shared(_ graph: RoadGraph, mode: DirectionsMode) -> MapMatchGraph {
        let key = Key(graph: ObjectIdentifier(graph), mode: mode)
        cacheLock.lock()
        defer { cacheLock.unlock() }
        if let found = cache[key] { return found }
        let built = MapMatchGraph(graph: graph, mode: mode)
        cache[key] = built
        return built
    }

    func head(ofState state: Int32) -> Int32 { turns.stateHead[Int(state)] }

    func tail(ofState state: Int32) -> Int32 { turns.stateTail[Int(state)] }

    func lengthCentimeters(_ segment: Int32) -> Int64 { Int64(graph.segmentLengthCentimeters[Int(segment)]) }

    func usable(_ segment: Int32, forward: Bool) -> Bool { graph.usable(segment: Int(segment), direction: forward ? 0 : 1, mode: mode) }
}

/// Per state of a turn graph, a search's distance, parent and target mark, in memory of its own: written
/// through pointers, not arrays, whose uniqueness check on every write was a tenth of matching.
private final class MapMatchSearchSpace {
    let distance: UnsafeMutableBufferPointer<Int64>
    let parent: UnsafeMutableBufferPointer<Int32>
    let targetMark: UnsafeMutableBufferPointer<Bool>

    init(states: Int) {
        distance = .allocate(capacity: states)
        distance.initialize(repeating: .max)
        parent = .allocate(capacity: states)
        parent.initialize(repeating: -1)
        targetMark = .allocate(capacity: states)
        targetMark.initialize(repeating: false)
    }

    deinit {
        distance.deallocate()
        parent.deallocate()
        targetMark.deallocate()
    }
}

/// The reusable state of bounded Dijkstra searches on a ``MapMatchGraph`` (one per matching; not
/// shared between threads, nor copied to be used apart: copies share their space). A state's distance
/// is that at its head: from the source point to the end of the directed segment.
struct MapMatchSearch {
    let graph: MapMatchGraph
    private let space: MapMatchSearchSpace
    private var distance: UnsafeMutableBufferPointer<Int64> { space.distance }
    /// The state before each reached state, or -1 for a start.
    private var parent: UnsafeMutableBufferPointer<Int32> { space.parent }
    private var targetMark: UnsafeMutableBufferPointer<Bool> { space.targetMark }
    private var touched: [Int32] = []
    private var heap = MinHeap()
    /// How far a fix may seem to move backwards along a segment it may only travel forwards (GPS
    /// noise at a stop on a one-way street), centimetres.
    static let backwardToleranceCentimeters: Int64 = 1_500
    /// What turning round in the middle of a segment costs, as if it were this much further, centimetres: a
    /// driver does it (a missed turning, a drop-off) but rarely, and a fix a few metres up a side street must not
    /// make the route go up it and back; a cyclist turns more easily, a walker at once.
    static func uTurnPenaltyCentimeters(_ mode: DirectionsMode) -> Int64 {
        switch mode {
        case .driving: 10_000
        case .cycling: 5_000
        case .walking: 1_000
        }
    }

    init(graph: MapMatchGraph) {
        self.graph = graph
        space = MapMatchSearchSpace(states: 2 * graph.graph.segmentCount)
    }

    /// The road distance from `source` to each target (centimetres) into `found` (one per target; -1 for a target farther than
    /// `boundCentimeters` or unreachable: the caller's array, reused from search to search, not one allocated per search).
    /// The search stops once the states of every target are settled. `behind` is the junctions the route to the source passed
    /// shortly before it (``junctions(before:from:sourceBehind:)`` after the search that reached it).
    /// - Complexity: O(k log k) for the k states within the bound (usually fewer: it stops at the targets).
    mutating func distances(from source: MapMatchCandidate, behind: [MapMatchJunction] = [], to targets: [MapMatchCandidate],
                            boundCentimeters: Int64, into found: inout [Int64]) {
        reset()
        var pending = 0
        for target in targets where !targetMark[Int(target.state)] {
            targetMark[Int(target.state)] = true
            pending += 1
        }
        start(from: source, behind: behind)
        // The turn graph taken once per search (a class: one reference, not its nine arrays, retained).
        let turns = graph.turns
        let lengths = graph.graph.segmentLengthCentimeters
        while let (key, state) = heap.pop() {
            guard key == distance[Int(state)] else { continue }
            if targetMark[Int(state)] {
                targetMark[Int(state)] = false
                pending -= 1
                if pending == 0 { break }
            }
            if key > boundCentimeters + 2 * Int64(lengths[Int(state >> 1)]) { break }
            turns.successors(of: state) { next, _ in
                reach(next, key + Int64(lengths[Int(next >> 1)]), from: state)
            }
        }
        found.removeAll(keepingCapacity: true)
        for target in targets {
            targetMark[Int(target.state)] = false
            if let (centimeters, _) = best(from: source, to: target), centimeters <= boundCentimeters {
                found.append(centimeters)
            } else {
                found.append(-1)
            }
        }
    }

    /// After ``distances(from:behind:to:boundCentimeters:)`` from `source` reached `target`: the junctions (nodes with
    /// another way on) its route passed within ``junctionToleranceCentimeters`` before it, nearest first, each with the
    /// state the route came into it on (along the source's own segment, the source's own junctions, `sourceBehind`).
    func junctions(before target: MapMatchCandidate, from source: MapMatchCandidate, sourceBehind: [MapMatchJunction]) -> [MapMatchJunction] {
        guard let (_, end) = best(from: source, to: target) else { return [] }
        let entered = end.entered
        let toTail = target.behindCentimeters
        guard let entered else {
            // Along the source's segment, the same way: the source's nodes, farther by the way between them.
            guard target.direction == source.direction else { return [] }
            let length = Double(graph.lengthCentimeters(target.segment))
            let along = Int64((length * abs(target.fraction - source.fraction)).rounded())
            return sourceBehind.compactMap { junction in
                let back = junction.backCentimeters + along
                return back <= Self.junctionToleranceCentimeters ? MapMatchJunction(arriving: junction.arriving, backCentimeters: back) : nil
            }
        }
        var result: [MapMatchJunction] = []
        var back = toTail
        var state = parent[Int(entered)]
        let turns = graph.turns
        while state >= 0, back <= Self.junctionToleranceCentimeters {
            var ways = 0
            turns.successors(of: state) { _, _ in ways += 1 }
            if ways > 1 { result.append(MapMatchJunction(arriving: state, backCentimeters: back)) }
            back += graph.lengthCentimeters(state >> 1)
            state = parent[Int(state)]
        }
        return result
    }

    /// The route from `source` to `target` as the states followed (the first on the source's
    /// segment, the last on the target's; one state when along one segment), and its length in
    /// centimetres; `nil` when none within the bound. A route that leaves from a node behind the source
    /// (``start(from:behind:)``) starts with a state off the source's segment, `backCentimeters` behind it.
    mutating func path(from source: MapMatchCandidate, behind: [MapMatchJunction] = [], to target: MapMatchCandidate,
                       boundCentimeters: Int64) -> (states: [Int32], centimeters: Int64, backCentimeters: Int64?)? {
        var found: [Int64] = []
        distances(from: source, behind: behind, to: [target], boundCentimeters: boundCentimeters, into: &found)
        guard found.first.map({ $0 >= 0 }) == true, let (centimeters, end) = best(from: source, to: target) else { return nil }
        guard let entered = end.entered else { return ([end.state], centimeters, nil) }
        var states = [entered]
        var state = entered
        while parent[Int(state)] >= 0 {
            state = parent[Int(state)]
            states.append(state)
        }
        let back = parent[Int(state)] == Self.junctionStart ? distance[Int(state)] - graph.lengthCentimeters(state >> 1) : nil
        return (states.reversed(), centimeters, back)
    }

    private mutating func reset() {
        for state in touched {
            distance[Int(state)] = .max
            parent[Int(state)] = -1
        }
        touched.removeAll(keepingCapacity: true)
        heap.removeAll()
    }

    private mutating func reach(_ state: Int32, _ key: Int64, from previous: Int32) {
        guard key < distance[Int(state)] else { return }
        if distance[Int(state)] == .max { touched.append(state) }
        distance[Int(state)] = key
        parent[Int(state)] = previous
        heap.push(key, state)
    }

    /// How far past a junction a fix may lie and still have been recorded at it, centimetres: 3σ of the
    /// noise along the road (``MapMatcher/sigmaMeters``).
    static let junctionToleranceCentimeters = Int64(3 * MapMatcher.sigmaMeters * 100)

    /// The parent of a state a search starts on at a node behind its source (``start(from:behind:)``).
    static let junctionStart: Int32 = -2

    /// The source's own direction from where it lies, and the other direction after turning round there.
    /// A fix recorded at a junction may lie, by noise along the road, a little past it on a segment the route
    /// never took: so the route may also leave each node the route to the source passed within
    /// ``junctionToleranceCentimeters`` (`behind`) by any turn allowed there, after going back to it.
    private mutating func start(from source: MapMatchCandidate, behind: [MapMatchJunction]) {
        reach(source.state, source.aheadCentimeters, from: -1)
        let back = source.state ^ 1
        if graph.usable(source.segment, forward: back & 1 == 0) {
            // The other way from the same point: what is behind it in its own direction is ahead.
            reach(back, Self.uTurnPenaltyCentimeters(graph.mode) + source.behindCentimeters, from: -1)
        }
        guard !behind.isEmpty else { return }
        let lengths = graph.graph.segmentLengthCentimeters
        for junction in behind {
            graph.turns.successors(of: junction.arriving) { next, _ in
                reach(next, junction.backCentimeters + Int64(lengths[Int(next >> 1)]), from: Self.junctionStart)
            }
        }
    }

    /// After a search: the shortest way to a target (centimetres, a U-turn's penalty included) and the state by which
    /// it was entered (`entered` nil along the source's own segment, `state` then the target's).
    private func best(from source: MapMatchCandidate, to target: MapMatchCandidate) -> (Int64, (state: Int32, entered: Int32?))? {
        var best: (Int64, (state: Int32, entered: Int32?))?
        if source.segment == target.segment {
            let length = Double(graph.lengthCentimeters(target.segment))
            let along = Int64((length * abs(target.fraction - source.fraction)).rounded())
            let ahead = target.direction == 0 ? target.fraction >= source.fraction : target.fraction <= source.fraction
            // Ahead in the target's direction (or seemingly a little behind: noise at a stop), turning round first
            // when the source travels the other way.
            if ahead || along <= Self.backwardToleranceCentimeters {
                best = (along + (target.direction == source.direction ? 0 : Self.uTurnPenaltyCentimeters(graph.mode)), (target.state, nil))
            }
        }
        let state = target.state
        // A start state reaches its own segment's points only directly (above); one started at the junction
        // behind the source holds the whole segment's distance, as a state reached by the search does.
        if distance[Int(state)] != .max, parent[Int(state)] != -1 {
            let centimeters = distance[Int(state)] - target.aheadCentimeters
            if best.map({ centimeters < $0.0 }) ?? true { best = (centimeters, (state, state)) }
        }
        return best
    }
}
