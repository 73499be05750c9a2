extension TurnGraph {
    /// Which states lie in the largest strongly connected component of the turn graph: from any of
    /// them every other is reachable. Ends are snapped only onto segments with such a state, so that
    /// a point beside a one-way street cut off at the extract's edge, or a private driveway, is
    /// routed from the nearest road that leads somewhere (as OSRM prefers its big component).
    /// Kosaraju's algorithm (Sharir 1981), both passes iterative.
    /// - Complexity: O(states + turns) time and memory.
    func largestComponent(successors successorRows: TurnAdjacency, predecessors predecessorRows: TurnAdjacency) -> [Bool] {
        let count = stateCount
        // Pass 1: states in order of finishing a depth-first search.
        var visited = [Bool](repeating: false, count: count)
        var finished: [Int32] = []
        finished.reserveCapacity(count)
        var stack: [(state: Int32, next: Int)] = []
        for start in 0..<count where cost[start] != Self.unusable && !visited[start] {
            visited[start] = true
            stack.append((Int32(start), 0))
            while let top = stack.last {
                if top.next < successorRows.degree(top.state) {
                    stack[stack.count - 1].next += 1
                    let next = successorRows.targets[Int(successorRows.offsets[Int(top.state)]) + top.next]
                    if !visited[Int(next)] {
                        visited[Int(next)] = true
                        stack.append((next, 0))
                    }
                } else {
                    finished.append(top.state)
                    stack.removeLast()
                }
            }
        }
        // Pass 2: components over the reversed turns, in reverse finishing order.
        var component = [Int32](repeating: -1, count: count)
        var sizes: [Int] = []
        var queue: [Int32] = []
        for start in finished.reversed() where component[Int(start)] < 0 {
            let id = Int32(sizes.count)
            component[Int(start)] = id
            queue = [start]
            var size = 0
            while let state = queue.popLast() {
                size += 1
                predecessorRows.forEach(state) { previous in
                    guard component[Int(previous)] < 0 else { return }
                    component[Int(previous)] = id
                    queue.append(previous)
                }
            }
            sizes.append(size)
        }
        guard let largest = sizes.indices.max(by: { sizes[$0] < sizes[$1] }) else { return [Bool](repeating: false, count: count) }
        return component.map { $0 == Int32(largest) }
    }
}
