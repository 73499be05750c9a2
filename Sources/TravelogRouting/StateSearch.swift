import Synchronization

/// The ends of a search over a turn graph: the states a route may start in, each with the cost
/// already spent reaching its head from the source point, and the states it may end in, each with
/// the (non-positive) cost of the part of its segment beyond the destination point.
struct SearchEnds {
    var sources: [(state: Int32, cost: Int64)] = []
    var targets: [(state: Int32, offset: Int64)] = []
}

/// A path through the turn graph: its states in order, and its cost (milliseconds or centimetres).
struct StatePath: Equatable {
    let states: [Int32]
    let cost: Int64
}

extension RoadGraph {
    /// The cheapest path between the ends by the mode's contraction hierarchy: a bidirectional
    /// Dijkstra search that only goes up the ranks (Geisberger et al. 2008, section 4), each side
    /// stopping once its smallest key plus the other side's least start cannot beat the best
    /// meeting, then the shortcuts unpacked. A state that is both a source and a target on its own
    /// is not a route (the caller handles two points on one segment). No stall-on-demand (the
    /// paper's section 4.2): across the generated 5M-node country it kept 25 % of the settled states
    /// from relaxing their edges but only 0.6 % of the states from being settled at all, for a scan of
    /// every settled state's downward edges (as many as its upward ones): routes were 10–20 % slower.
    /// - Complexity: the search spaces of the hierarchy (hundreds of states on city graphs, about
    ///   2,000 across the 5M-node country).
    func hierarchySearch(_ ends: SearchEnds, mode: DirectionsMode, searched: inout (forward: Int, backward: Int)) -> StatePath? {
        let hierarchy = hierarchies[mode.index]
        let stateCount = hierarchy.upOutOffsets.count - 1
        let forward = searchSpaces.take(stateCount: stateCount), backward = searchSpaces.take(stateCount: stateCount)
        defer {
            searchSpaces.give(forward)
            searchSpaces.give(backward)
        }
        var forwardQueue = MinHeap(), backwardQueue = MinHeap()
        let root: Int32 = -1
        // The search runs over positions (``ContractionHierarchy``); the path is given back in states.
        for (source, cost) in ends.sources {
            let state = hierarchy.position[Int(source)]
            guard forward.improves(state, cost) else { continue }
            forward.set(state, distance: cost, parent: root, middle: -1)
            forwardQueue.push(cost, state)
        }
        for (target, offset) in ends.targets {
            let state = hierarchy.position[Int(target)]
            guard backward.improves(state, offset) else { continue }
            backward.set(state, distance: offset, parent: root, middle: -1)
            backwardQueue.push(offset, state)
        }
        let forwardLeast = ends.sources.map(\.cost).min() ?? 0
        let backwardLeast = ends.targets.map(\.offset).min() ?? 0
        var best = Int64.max
        var meeting: Int32 = -1
        func consider(_ state: Int32) {
            guard forward.reached(state), backward.reached(state),
                  !(forward.parent(state) == root && backward.parent(state) == root) else { return }
            let total = forward.distance(state) + backward.distance(state)
            if total < best {
                best = total
                meeting = state
            }
        }
        // One step of one side: its least state settled and its edges up the hierarchy (out-edges
        // forward, in-edges backward) relaxed; false once the side can no longer improve the best meeting.
        func advance(_ queue: inout MinHeap, _ space: SearchSpace, otherLeast: Int64, _ offsets: UnsafeBufferPointer<UInt32>,
                     _ others: UnsafeBufferPointer<Int32>, _ weights: UnsafeBufferPointer<UInt32>, _ middles: UnsafeBufferPointer<Int32>) -> Bool {
            guard let (key, state) = queue.pop(), key + otherLeast < best else { return false }
            guard key == space.distance(state) else { return true }
            consider(state)
            for edge in Int(offsets[Int(state)])..<Int(offsets[Int(state) + 1]) {
                let other = others[edge]
                let distance = key + Int64(weights[edge])
                if space.improves(other, distance) {
                    space.set(other, distance: distance, parent: state, middle: middles[edge])
                    queue.push(distance, other)
                    consider(other)
                }
            }
            return true
        }
        var forwardDone = false, backwardDone = false
        while !(forwardDone && backwardDone) {
            if !forwardDone {
                forwardDone = !advance(&forwardQueue, forward, otherLeast: backwardLeast, hierarchy.upOutOffsets, hierarchy.upOutTarget,
                                       hierarchy.upOutWeight, hierarchy.upOutMiddle)
            }
            if !backwardDone {
                backwardDone = !advance(&backwardQueue, backward, otherLeast: forwardLeast, hierarchy.upInOffsets, hierarchy.upInSource,
                                        hierarchy.upInWeight, hierarchy.upInMiddle)
            }
        }
        searched = (forward.touched, backward.touched)
        guard meeting >= 0 else { return nil }
        var upward: [(from: Int32, to: Int32, middle: Int32)] = []
        var current = meeting
        while forward.reached(current), forward.parent(current) != root {
            let parent = forward.parent(current)
            upward.append((parent, current, forward.middle(current)))
            current = parent
        }
        var states = [current]
        for edge in upward.reversed() { unpack(from: edge.from, to: edge.to, middle: edge.middle, mode: mode, into: &states) }
        current = meeting
        while backward.reached(current), backward.parent(current) != root {
            let parent = backward.parent(current)
            unpack(from: current, to: parent, middle: backward.middle(current), mode: mode, into: &states)
            current = parent
        }
        return StatePath(states: states.map { hierarchy.order[Int($0)] }, cost: best)
    }

    /// Appends the states after `from` up to `to` that the hierarchy's edge `from → to` stands for.
    private func unpack(from: Int32, to: Int32, middle: Int32, mode: DirectionsMode, into states: inout [Int32]) {
        var stack: [(Int32, Int32, Int32)] = [(from, to, middle)]
        let hierarchy = hierarchies[mode.index]
        while let (u, v, m) = stack.popLast() {
            guard m >= 0 else {
                states.append(v)
                continue
            }
            var first: Int32 = -1, second: Int32 = -1
            for edge in Int(hierarchy.upInOffsets[Int(m)])..<Int(hierarchy.upInOffsets[Int(m) + 1]) where hierarchy.upInSource[edge] == u {
                first = hierarchy.upInMiddle[edge]
            }
            for edge in Int(hierarchy.upOutOffsets[Int(m)])..<Int(hierarchy.upOutOffsets[Int(m) + 1]) where hierarchy.upOutTarget[edge] == v {
                second = hierarchy.upOutMiddle[edge]
            }
            stack.append((m, v, second))  // popped second
            stack.append((u, m, first))
        }
    }
}

extension TurnGraph {
    /// The cheapest path between the ends by plain Dijkstra over the whole turn graph: the
    /// reference the hierarchy's answers are checked against.
    /// - Complexity: O((states + turns) log states).
    func dijkstra(_ ends: SearchEnds) -> StatePath? {
        var distance: [Int32: Int64] = [:]
        var parent: [Int32: Int32] = [:]
        var queue = MinHeap()
        for (state, cost) in ends.sources where distance[state].map({ cost < $0 }) ?? true {
            distance[state] = cost
            queue.push(cost, state)
        }
        var offsets: [Int32: Int64] = [:]
        for (state, offset) in ends.targets { offsets[state] = min(offsets[state] ?? .max, offset) }
        let least = ends.targets.map(\.offset).min() ?? 0
        var best = Int64.max
        var end: Int32 = -1
        while let (key, state) = queue.pop() {
            if key + least >= best { break }
            guard key == distance[state] else { continue }
            if let offset = offsets[state], parent[state] != nil, key + offset < best {
                best = key + offset
                end = state
            }
            successors(of: state) { next, cost in
                let candidate = key + Int64(cost)
                if distance[next].map({ candidate < $0 }) ?? true {
                    distance[next] = candidate
                    parent[next] = state
                    queue.push(candidate, next)
                }
            }
        }
        guard end >= 0 else { return nil }
        var states = [end]
        while let previous = parent[states[states.count - 1]] { states.append(previous) }
        return StatePath(states: states.reversed(), cost: best)
    }
}

/// One side's labels of a search over a graph's states, valid for the search that took it: a label
/// is current when its stamp is the space's generation, so a new search starts by moving the
/// generation on, not by clearing the arrays. A state's label is one record of 24 bytes (its stamp,
/// distance, parent and middle side by side): a search touching a state reads one cache line, not
/// four arrays'.
final class SearchSpace: @unchecked Sendable {  // used by one query at a time, handed over through the pool's lock
    private struct Label {
        var distance: Int64 = 0
        var stamp: UInt32 = 0
        var parent: Int32 = -1
        var middle: Int32 = -1
    }
    // Allocated once and freed with the space: no exclusivity or reference counting per access (the
    // indices are states of the graph the pool belongs to, checked when its file was opened).
    private let labels: UnsafeMutableBufferPointer<Label>
    private var generation: UInt32 = 0
    /// The states labelled in the current search.
    private(set) var touched = 0

    init(stateCount: Int) {
        labels = .allocate(capacity: stateCount)
        labels.initialize(repeating: Label())
    }

    deinit { labels.deallocate() }

    var stateCount: Int { labels.count }

    /// Forgets every label.
    func reset() {
        touched = 0
        if generation == UInt32.max {
            for index in labels.indices { labels[index].stamp = 0 }
            generation = 0
        }
        generation += 1
    }

    @inline(__always)
    func reached(_ state: Int32) -> Bool { labels[Int(state)].stamp == generation }

    /// The state's distance (meaningful when it is reached).
    @inline(__always)
    func distance(_ state: Int32) -> Int64 { labels[Int(state)].distance }

    /// The state the search came from (-1 at a start).
    @inline(__always)
    func parent(_ state: Int32) -> Int32 { labels[Int(state)].parent }

    /// The middle state of the hierarchy edge it came by (-1 for an edge of the graph).
    @inline(__always)
    func middle(_ state: Int32) -> Int32 { labels[Int(state)].middle }

    /// Whether `cost` is less than the state's label (or it has none).
    @inline(__always)
    func improves(_ state: Int32, _ cost: Int64) -> Bool {
        let label = labels[Int(state)]
        return label.stamp != generation || cost < label.distance
    }

    @inline(__always)
    func set(_ state: Int32, distance cost: Int64, parent from: Int32, middle via: Int32) {
        let index = Int(state)
        if labels[index].stamp != generation { touched += 1 }
        labels[index] = Label(distance: cost, stamp: generation, parent: from, middle: via)
    }
}

/// Search spaces for concurrent queries of one graph: a query takes one per side and gives them
/// back, so their arrays are allocated once per concurrent query, not per query.
final class SearchSpacePool: Sendable {
    private let free = Mutex<[SearchSpace]>([])
    /// At most this many are kept (a burst of concurrent queries frees the rest).
    private static let kept = 16

    init() {}

    func take(stateCount: Int) -> SearchSpace {
        let space = free.withLock { spaces in
            spaces.lastIndex { $0.stateCount == stateCount }.map { spaces.remove(at: $0) }
        } ?? SearchSpace(stateCount: stateCount)
        space.reset()
        return space
    }

    func give(_ space: SearchSpace) {
        free.withLock { spaces in
            if spaces.count < Self.kept { spaces.append(space) }
        }
    }
}
