/// A turn graph's turns as compressed rows, one row per state: `targets[offsets[s] ..< offsets[s + 1]]`
/// are the states `s` leads to (``TurnGraph/successors(of:_:)``), or, reversed, those leading to it.
/// Entering a state costs that state's own cost (``TurnGraph/cost``), so the rows carry no weights.
/// Two flat arrays instead of an array per state each way (two allocations per state, three modes at
/// once): with the graph file written from the arrays in place, a generated million-node country's
/// `osm add` peaked at 1.7 GB instead of 2.2.
struct TurnAdjacency: Sendable {
    private(set) var offsets: [UInt32]
    private(set) var targets: [Int32]

    /// - Complexity: O(states + turns), twice over (count, then fill).
    init(_ turns: TurnGraph, reversed: Bool) {
        let count = turns.stateCount
        var offsets = [UInt32](repeating: 0, count: count + 1)
        for state in 0..<count where turns.cost[state] != TurnGraph.unusable {
            turns.successors(of: Int32(state)) { next, _ in
                if reversed { offsets[Int(next) + 1] += 1 } else { offsets[state + 1] += 1 }
            }
        }
        for state in 0..<count { offsets[state + 1] += offsets[state] }
        var fill = offsets
        var targets = [Int32](repeating: 0, count: Int(offsets[count]))
        for state in 0..<count where turns.cost[state] != TurnGraph.unusable {
            turns.successors(of: Int32(state)) { next, _ in
                let row = reversed ? Int(next) : state
                targets[Int(fill[row])] = reversed ? Int32(state) : next
                fill[row] += 1
            }
        }
        self.offsets = offsets
        self.targets = targets
    }

    func degree(_ state: Int32) -> Int { Int(offsets[Int(state) + 1] - offsets[Int(state)]) }

    /// The first state of a row that is not empty.
    func first(_ state: Int32) -> Int32 { targets[Int(offsets[Int(state)])] }

    func forEach(_ state: Int32, _ body: (Int32) -> Void) {
        for index in Int(offsets[Int(state)])..<Int(offsets[Int(state) + 1]) { body(targets[index]) }
    }
}
