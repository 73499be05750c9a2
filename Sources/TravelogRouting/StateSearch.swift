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
    /// is not a route (the caller handles two points on one segment).
    /// - Complexity: the search spaces of the hierarchy (hundreds of states on city graphs).
    func hierarchySearch(_ ends: SearchEnds, mode: DirectionsMode, searched: inout (forward: Int, backward: Int)) -> StatePath? {
        let hierarchy = hierarchies[mode.index]
        var forward: [Int32: (distance: Int64, parent: Int32, middle: Int32)] = [:]
        var backward: [Int32: (distance: Int64, parent: Int32, middle: Int32)] = [:]
        var forwardQueue = MinHeap(), backwardQueue = MinHeap()
        let root: Int32 = -1
        for (state, cost) in ends.sources where forward[state].map({ cost < $0.distance }) ?? true {
            forward[state] = (cost, root, -1)
            forwardQueue.push(cost, state)
        }
        for (state, offset) in ends.targets where backward[state].map({ offset < $0.distance }) ?? true {
            backward[state] = (offset, root, -1)
            backwardQueue.push(offset, state)
        }
        let forwardLeast = ends.sources.map(\.cost).min() ?? 0
        let backwardLeast = ends.targets.map(\.offset).min() ?? 0
        var best = Int64.max
        var meeting: Int32 = -1
        func consider(_ state: Int32) {
            guard let f = forward[state], let b = backward[state], !(f.parent == root && b.parent == root) else { return }
            if f.distance + b.distance < best {
                best = f.distance + b.distance
                meeting = state
            }
        }
        var forwardDone = false, backwardDone = false
        while !(forwardDone && backwardDone) {
            if !forwardDone {
                if let (key, state) = forwardQueue.pop() {
                    if key + backwardLeast >= best {
                        forwardDone = true
                    } else if key == forward[state]?.distance {
                        consider(state)
                        for edge in Int(hierarchy.upOutOffsets[Int(state)])..<Int(hierarchy.upOutOffsets[Int(state) + 1]) {
                            let next = hierarchy.upOutTarget[edge]
                            let distance = key + Int64(hierarchy.upOutWeight[edge])
                            if forward[next].map({ distance < $0.distance }) ?? true {
                                forward[next] = (distance, state, hierarchy.upOutMiddle[edge])
                                forwardQueue.push(distance, next)
                                consider(next)
                            }
                        }
                    }
                } else {
                    forwardDone = true
                }
            }
            if !backwardDone {
                if let (key, state) = backwardQueue.pop() {
                    if key + forwardLeast >= best {
                        backwardDone = true
                    } else if key == backward[state]?.distance {
                        consider(state)
                        for edge in Int(hierarchy.upInOffsets[Int(state)])..<Int(hierarchy.upInOffsets[Int(state) + 1]) {
                            let previous = hierarchy.upInSource[edge]
                            let distance = key + Int64(hierarchy.upInWeight[edge])
                            if backward[previous].map({ distance < $0.distance }) ?? true {
                                backward[previous] = (distance, state, hierarchy.upInMiddle[edge])
                                backwardQueue.push(distance, previous)
                                consider(previous)
                            }
                        }
                    }
                } else {
                    backwardDone = true
                }
            }
        }
        searched = (forward.count, backward.count)
        guard meeting >= 0 else { return nil }
        var upward: [(from: Int32, to: Int32, middle: Int32)] = []
        var current = meeting
        while let step = forward[current], step.parent != root {
            upward.append((step.parent, current, step.middle))
            current = step.parent
        }
        var states = [current]
        for edge in upward.reversed() { unpack(from: edge.from, to: edge.to, middle: edge.middle, mode: mode, into: &states) }
        current = meeting
        while let step = backward[current], step.parent != root {
            unpack(from: current, to: step.parent, middle: step.middle, mode: mode, into: &states)
            current = step.parent
        }
        return StatePath(states: states, cost: best)
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
