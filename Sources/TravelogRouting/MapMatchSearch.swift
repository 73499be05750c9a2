import Foundation
import TravelogCore

/// A point on a road segment: a map-matching candidate for a fix, or an end of a route between two.
struct MapMatchCandidate: Sendable {
    let segment: Int32
    /// How far along the segment, 0 at its `from` node, 1 at its `to` node.
    let fraction: Double
    let coordinate: Coordinate
    /// From the fix, metres (local projection).
    let distanceMeters: Double
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

/// The reusable state of bounded Dijkstra searches on a ``MapMatchGraph`` (one per matching; not
/// shared between threads). A state's distance is that at its head: from the source point to the
/// end of the directed segment.
struct MapMatchSearch {
    let graph: MapMatchGraph
    private var distance: [Int64]
    /// The state before each reached state, or -1 for a start.
    private var parent: [Int32]
    private var touched: [Int32] = []
    private var heap = MinHeap()
    private var targetMark: [Bool]
    /// How far a fix may seem to move backwards along a segment it may only travel forwards (GPS
    /// noise at a stop on a one-way street), centimetres.
    static let backwardToleranceCentimeters: Int64 = 1_500

    init(graph: MapMatchGraph) {
        self.graph = graph
        let states = 2 * graph.graph.segmentCount
        distance = [Int64](repeating: .max, count: states)
        parent = [Int32](repeating: -1, count: states)
        targetMark = [Bool](repeating: false, count: states)
    }

    /// The road distance from `source` to each target (centimetres), `nil` for a target farther than `boundCentimeters` or unreachable.
    /// The search stops once the states of every target are settled.
    /// - Complexity: O(k log k) for the k states within the bound (usually fewer: it stops at the targets).
    mutating func distances(from source: MapMatchCandidate, to targets: [MapMatchCandidate], boundCentimeters: Int64) -> [Int64?] {
        reset()
        var pending = 0
        for target in targets {
            for state in [2 * target.segment, 2 * target.segment + 1] where !targetMark[Int(state)] {
                targetMark[Int(state)] = true
                pending += 1
            }
        }
        start(from: source)
        // One copy of the turn graph's arrays per search: reached through the class in the loop,
        // the struct was copied (every array retained and released) for each state settled, 38 %
        // of matching's time.
        let turns = graph.turns
        while let (key, state) = heap.pop() {
            guard key == distance[Int(state)] else { continue }
            if targetMark[Int(state)] {
                targetMark[Int(state)] = false
                pending -= 1
                if pending == 0 { break }
            }
            if key > boundCentimeters + 2 * graph.lengthCentimeters(state >> 1) { break }
            turns.successors(of: state) { next, _ in
                reach(next, key + graph.lengthCentimeters(next >> 1), from: state)
            }
        }
        for target in targets {
            targetMark[Int(2 * target.segment)] = false
            targetMark[Int(2 * target.segment + 1)] = false
        }
        return targets.map { target in
            guard let (centimeters, _) = best(from: source, to: target), centimeters <= boundCentimeters else { return nil }
            return centimeters
        }
    }

    /// The route from `source` to `target` as the states followed (the first on the source's
    /// segment, the last on the target's; one state when along one segment), and its length in
    /// centimetres; `nil` when none within the bound.
    mutating func path(from source: MapMatchCandidate, to target: MapMatchCandidate,
                       boundCentimeters: Int64) -> (states: [Int32], centimeters: Int64)? {
        guard case .some(.some) = distances(from: source, to: [target], boundCentimeters: boundCentimeters).first,
              let (centimeters, end) = best(from: source, to: target) else { return nil }
        guard let entered = end.entered else { return ([end.state], centimeters) }
        var states = [entered]
        var state = entered
        while parent[Int(state)] >= 0 {
            state = parent[Int(state)]
            states.append(state)
        }
        return (states.reversed(), centimeters)
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

    private mutating func start(from source: MapMatchCandidate) {
        let length = Double(graph.lengthCentimeters(source.segment))
        if graph.usable(source.segment, forward: true) {
            reach(2 * source.segment, Int64((length * (1 - source.fraction)).rounded()), from: -1)
        }
        if graph.usable(source.segment, forward: false) {
            reach(2 * source.segment + 1, Int64((length * source.fraction).rounded()), from: -1)
        }
    }

    /// After a search: the shortest way to a target (centimetres) and the state by which it was
    /// entered (`entered` nil along the source's own segment, `state` then its direction).
    private func best(from source: MapMatchCandidate, to target: MapMatchCandidate) -> (Int64, (state: Int32, entered: Int32?))? {
        var best: (Int64, (state: Int32, entered: Int32?))?
        let length = Double(graph.lengthCentimeters(target.segment))
        if source.segment == target.segment {
            let along = Int64((length * abs(target.fraction - source.fraction)).rounded())
            let forward = target.fraction >= source.fraction
            if graph.usable(target.segment, forward: forward) || along <= Self.backwardToleranceCentimeters {
                best = (along, (2 * target.segment + (forward ? 0 : 1), nil))
            }
        }
        for direction in Int32(0)...1 {
            let state = 2 * target.segment + direction
            // A start state reaches its own segment's points only directly (above).
            guard distance[Int(state)] != .max, parent[Int(state)] >= 0 else { continue }
            let beyond = direction == 0 ? 1 - target.fraction : target.fraction
            let centimeters = distance[Int(state)] - Int64((length * beyond).rounded())
            if best.map({ centimeters < $0.0 }) ?? true { best = (centimeters, (state, state)) }
        }
        return best
    }
}
