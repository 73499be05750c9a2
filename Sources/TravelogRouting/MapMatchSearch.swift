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

/// The node graph of one mode for map matching: for each node the directed segments (states
/// `2 × segment + direction`) leaving it that the mode may travel, and a bounded one-to-many
/// Dijkstra search over it in centimetres. Turn restrictions are not applied (a matched trace
/// follows what was driven; they decide directions, not matches); barriers are.
final class MapMatchGraph: @unchecked Sendable {
    let graph: RoadGraph
    let mode: DirectionsMode
    private let offsets: [Int32]
    private let states: [Int32]

    /// - Complexity: O(nodes + segments).
    init(graph: RoadGraph, mode: DirectionsMode) {
        self.graph = graph
        self.mode = mode
        var degree = [Int32](repeating: 0, count: graph.nodeCount + 1)
        for segment in 0..<graph.segmentCount {
            if graph.usable(segment: segment, direction: 0, mode: mode) { degree[Int(graph.segmentFrom[segment]) + 1] += 1 }
            if graph.usable(segment: segment, direction: 1, mode: mode) { degree[Int(graph.segmentTo[segment]) + 1] += 1 }
        }
        for node in 0..<graph.nodeCount { degree[node + 1] += degree[node] }
        var fill = degree
        var states = [Int32](repeating: 0, count: Int(degree[graph.nodeCount]))
        for segment in 0..<graph.segmentCount {
            for direction in 0..<2 where graph.usable(segment: segment, direction: direction, mode: mode) {
                let tail = Int(direction == 0 ? graph.segmentFrom[segment] : graph.segmentTo[segment])
                states[Int(fill[tail])] = Int32(2 * segment + direction)
                fill[tail] += 1
            }
        }
        offsets = degree
        self.states = states
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

    func head(ofState state: Int32) -> Int32 {
        let segment = Int(state >> 1)
        return state & 1 == 0 ? graph.segmentTo[segment] : graph.segmentFrom[segment]
    }

    func tail(ofState state: Int32) -> Int32 {
        let segment = Int(state >> 1)
        return state & 1 == 0 ? graph.segmentFrom[segment] : graph.segmentTo[segment]
    }

    func lengthCentimeters(_ segment: Int32) -> Int64 { Int64(graph.segmentLengthCentimeters[Int(segment)]) }

    func usable(_ segment: Int32, forward: Bool) -> Bool { graph.usable(segment: Int(segment), direction: forward ? 0 : 1, mode: mode) }

    /// Visits the states leaving a node.
    @inline(__always)
    func forEachState(leaving node: Int32, _ body: (Int32) -> Void) {
        for index in Int(offsets[Int(node)])..<Int(offsets[Int(node) + 1]) { body(states[index]) }
    }

    func blocks(_ node: Int32) -> Bool { graph.nodeBarrier[Int(node)] & (1 << UInt8(mode.index)) != 0 }
}

/// The reusable state of bounded Dijkstra searches on a ``MapMatchGraph`` (one per matching; not shared between threads).
struct MapMatchSearch {
    let graph: MapMatchGraph
    private var distance: [Int64]
    /// The state by which each reached node was entered, or -1 for a start.
    private var parent: [Int32]
    private var touched: [Int32] = []
    private var heap = MinHeap()
    private var targetMark: [Bool]
    /// How far a fix may seem to move backwards along a segment it may only travel forwards (GPS
    /// noise at a stop on a one-way street), centimetres.
    static let backwardToleranceCentimeters: Int64 = 1_500

    init(graph: MapMatchGraph) {
        self.graph = graph
        distance = [Int64](repeating: .max, count: graph.graph.nodeCount)
        parent = [Int32](repeating: -1, count: graph.graph.nodeCount)
        targetMark = [Bool](repeating: false, count: graph.graph.nodeCount)
    }

    /// The road distance from `source` to each target (centimetres), `nil` for a target farther than `boundCentimeters` or unreachable.
    /// The search stops once every target's end nodes are settled.
    /// - Complexity: O(k log k) for the k nodes within the bound (usually fewer: it stops at the targets).
    mutating func distances(from source: MapMatchCandidate, to targets: [MapMatchCandidate], boundCentimeters: Int64) -> [Int64?] {
        reset()
        var pending = 0
        for target in targets {
            for node in [graph.graph.segmentFrom[Int(target.segment)], graph.graph.segmentTo[Int(target.segment)]] where !targetMark[Int(node)] {
                targetMark[Int(node)] = true
                pending += 1
            }
        }
        start(from: source)
        while let (key, node) = heap.pop() {
            guard key == distance[Int(node)] else { continue }
            if key > boundCentimeters { break }
            if targetMark[Int(node)] {
                targetMark[Int(node)] = false
                pending -= 1
                if pending == 0 { break }
            }
            expand(node, key)
        }
        for target in targets {
            targetMark[Int(graph.graph.segmentFrom[Int(target.segment)])] = false
            targetMark[Int(graph.graph.segmentTo[Int(target.segment)])] = false
        }
        return targets.map { target in
            guard let (meters, _) = best(from: source, to: target), meters <= boundCentimeters else { return nil }
            return meters
        }
    }

    /// The route from `source` to `target` as the states followed between them (empty when along
    /// one segment), and its length in centimetres; `nil` when none within the bound.
    mutating func path(from source: MapMatchCandidate, to target: MapMatchCandidate,
                       boundCentimeters: Int64) -> (states: [Int32], centimeters: Int64)? {
        guard case .some(.some) = distances(from: source, to: [target], boundCentimeters: boundCentimeters).first,
              let (centimeters, end) = best(from: source, to: target) else { return nil }
        guard let end else { return ([], centimeters) }
        var states: [Int32] = [end]
        var node = graph.tail(ofState: end)
        while parent[Int(node)] >= 0 {
            let state = parent[Int(node)]
            states.append(state)
            node = graph.tail(ofState: state)
        }
        return (states.reversed(), centimeters)
    }

    private mutating func reset() {
        for node in touched {
            distance[Int(node)] = .max
            parent[Int(node)] = -1
        }
        touched.removeAll(keepingCapacity: true)
        heap.removeAll()
    }

    private mutating func reach(_ node: Int32, _ key: Int64, by state: Int32) {
        guard key < distance[Int(node)] else { return }
        if distance[Int(node)] == .max { touched.append(node) }
        distance[Int(node)] = key
        parent[Int(node)] = state
        heap.push(key, node)
    }

    private mutating func start(from source: MapMatchCandidate) {
        let length = graph.lengthCentimeters(source.segment)
        if graph.usable(source.segment, forward: true) {
            reach(graph.graph.segmentTo[Int(source.segment)], Int64((Double(length) * (1 - source.fraction)).rounded()), by: -1)
        }
        if graph.usable(source.segment, forward: false) {
            reach(graph.graph.segmentFrom[Int(source.segment)], Int64((Double(length) * source.fraction).rounded()), by: -1)
        }
    }

    private mutating func expand(_ node: Int32, _ key: Int64) {
        if parent[Int(node)] >= 0 && graph.blocks(node) { return }
        graph.forEachState(leaving: node) { state in
            reach(graph.head(ofState: state), key + graph.lengthCentimeters(state >> 1), by: state)
        }
    }

    /// After a search: the shortest way to a target (centimetres) and the state by which it enters
    /// the target's segment, `nil` for the way along the source's own segment.
    private func best(from source: MapMatchCandidate, to target: MapMatchCandidate) -> (Int64, Int32?)? {
        var best: (Int64, Int32?)?
        let length = graph.lengthCentimeters(target.segment)
        if source.segment == target.segment {
            let along = Int64((Double(length) * abs(target.fraction - source.fraction)).rounded())
            let forward = target.fraction >= source.fraction
            if graph.usable(target.segment, forward: forward) || along <= Self.backwardToleranceCentimeters { best = (along, nil) }
        }
        let from = graph.graph.segmentFrom[Int(target.segment)], to = graph.graph.segmentTo[Int(target.segment)]
        if graph.usable(target.segment, forward: true), distance[Int(from)] != .max {
            let meters = distance[Int(from)] + Int64((Double(length) * target.fraction).rounded())
            if best.map({ meters < $0.0 }) ?? true { best = (meters, 2 * target.segment) }
        }
        if graph.usable(target.segment, forward: false), distance[Int(to)] != .max {
            let meters = distance[Int(to)] + Int64((Double(length) * (1 - target.fraction)).rounded())
            if best.map({ meters < $0.0 }) ?? true { best = (meters, 2 * target.segment + 1) }
        }
        return best
    }
}
