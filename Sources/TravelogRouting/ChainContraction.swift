extension ContractionHierarchy {
    /// The hierarchy of a turn graph, its chains contracted first without a search.
    ///
    /// Most states of a road network lie on chains: a segment between two shape nodes has one
    /// state before it and one after it (OSM places a node every few metres along a curve; the
    /// generated country of `make bench NAMES=directions-scale` has one every 25 m, so about
    /// seven states in eight are such). A chain `p → c₁ → … → cₖ → q` is contracted in its order,
    /// as the priority would have taken it anyway: each `cᵢ` keeps one upward in-edge (from `p`,
    /// a shortcut through `cᵢ₋₁` after the first) and one upward out-edge (to its successor),
    /// and `p → q` through `cₖ` is the shortcut the rest of the graph sees. Only the states left
    /// go through ``ContractionHierarchyBuilder`` (OSRM compresses such chains before building its
    /// edge-based graph; here the turn graph keeps them, so snapping, steps and map matching are
    /// unchanged). A cycle of chain states alone is left to the builder. On the generated
    /// million-node country (`make bench NAMES=directions-scale`, one-hop witnesses at the top in both
    /// runs) `osm add` took 116 s and 1,459 MB at its peak instead of 141 s and 1,901 MB.
    /// - Complexity: O(states + turns) besides the builder's work on the states left.
    /// - Parameters:
    ///   - nodes: the graph's node coordinates (1e-7 degrees), for a nested dissection of the states
    ///     left once the chains are contracted when more than `leafSize` are left (``NestedDissection``;
    ///     a state stands at its head node); `nil`: the greedy order alone.
    static func build(turns: TurnGraph, successors: TurnAdjacency, predecessors: TurnAdjacency,
                      nodes: (latitudeE7: [Int32], longitudeE7: [Int32])? = nil, leafSize: Int = defaultLeafSize,
                      oneHopAfterScanned: Int = ContractionHierarchyBuilder.defaultOneHopAfterScanned,
                      progress: (Int) -> Void = { _ in }) -> ContractionHierarchy {
        let count = turns.stateCount
        // A chain state has one predecessor and one successor, both other states and not the same one.
        var onChain = [Bool](repeating: false, count: count)
        for state in 0..<count where successors.degree(Int32(state)) == 1 && predecessors.degree(Int32(state)) == 1 {
            let before = predecessors.first(Int32(state)), after = successors.first(Int32(state))
            onChain[state] = before != Int32(state) && after != Int32(state) && before != after
        }
        // Walk each chain from its first state: the upward in-edge of each of its states, and the
        // shortcut that stands for the whole chain, kept by its first state.
        var chainSource = [Int32](repeating: -1, count: count), chainWeight = [UInt32](repeating: 0, count: count)
        var shortcuts: [Int32: (to: Int32, weight: UInt32, middle: Int32, hops: UInt32)] = [:]
        for first in 0..<count where onChain[first] && !onChain[Int(predecessors.first(Int32(first)))] {
            let source = predecessors.first(Int32(first))
            var state = Int32(first)
            var weight = UInt64(turns.cost[first]), hops: UInt32 = 1
            while true {
                chainSource[Int(state)] = source
                chainWeight[Int(state)] = UInt32(min(weight, UInt64(UInt32.max - 1)))
                let next = successors.first(state)
                weight += UInt64(turns.cost[Int(next)])
                hops += 1
                guard onChain[Int(next)] else {
                    shortcuts[Int32(first)] = (next, UInt32(min(weight, UInt64(UInt32.max - 1))), state, hops)
                    break
                }
                state = next
            }
        }
        for state in 0..<count where onChain[state] && chainSource[state] < 0 { onChain[state] = false }  // a cycle of them
        let chained = onChain.reduce(0) { $1 ? $0 + 1 : $0 }

        // The states left, numbered in order; a chain's shortcut keeps its middle as -2 - state.
        var compact = [Int32](repeating: -1, count: count)
        var original: [Int32] = []
        original.reserveCapacity(count - chained)
        for state in 0..<count where !onChain[state] {
            compact[state] = Int32(original.count)
            original.append(Int32(state))
        }
        func forEachEdge(_ vertex: Int32, _ edge: (Int32, UInt32, Int32, UInt32) -> Void) {
            successors.forEach(original[Int(vertex)]) { next in
                if onChain[Int(next)] {
                    let shortcut = shortcuts[next]!
                    edge(compact[Int(shortcut.to)], shortcut.weight, -2 - shortcut.middle, shortcut.hops)
                } else {
                    edge(compact[Int(next)], turns.cost[Int(next)], -1, 1)
                }
            }
        }
        var dissection = NestedDissection.Dissection(tier: [], piece: [])
        if let nodes, original.count > leafSize {
            let heads = original.map { Int(turns.stateHead[Int($0)]) }
            dissection = NestedDissection.dissect(x: heads.map { nodes.longitudeE7[$0] }, y: heads.map { nodes.latitudeE7[$0] },
                                                  leafSize: leafSize) { vertex, edge in
                forEachEdge(vertex) { to, _, _, _ in edge(to) }
            }
        }
        let core: ContractionHierarchy, contracted: [Int32]
        do {
            var builder = ContractionHierarchyBuilder(vertexCount: original.count, tiers: dissection.tier,
                                                      oneHopAfterScanned: oneHopAfterScanned, edges: forEachEdge)
            shortcuts = [:]
            (core, contracted) = builder.build { progress(chained + $0) }
        }

        // Positions: the chains' states in state order (a way's run together), then the others by
        // tier (the top separator last), by piece of the dissection (each leaf cell's and each
        // separator's states side by side) and in the order they were contracted. A route's search
        // reaches its two leaf cells and the separators above them: a few runs of the arrays, not
        // states spread over all of them (with the search's labels in one record per state: routes
        // across the 5M-node country from 8.4 / 15.4 / 15.5 ms to about 3 / 7 / 7 ms).
        compact = []
        var hierarchy = ContractionHierarchy()
        hierarchy.order.reserveCapacity(count)
        for state in 0..<count where onChain[state] { hierarchy.order.append(Int32(state)) }
        var coreOrder = contracted
        if !dissection.tier.isEmpty {
            var rank = [Int32](repeating: 0, count: contracted.count)
            for (index, vertex) in contracted.enumerated() { rank[Int(vertex)] = Int32(index) }
            let (tier, piece) = (dissection.tier, dissection.piece)
            coreOrder.sort { a, b in
                let (a, b) = (Int(a), Int(b))
                return tier[a] != tier[b] ? tier[a] < tier[b] : piece[a] != piece[b] ? piece[a] < piece[b] : rank[a] < rank[b]
            }
        }
        dissection = NestedDissection.Dissection(tier: [], piece: [])
        for vertex in coreOrder { hierarchy.order.append(original[Int(vertex)]) }
        hierarchy.position = [Int32](repeating: 0, count: count)
        for (position, state) in hierarchy.order.enumerated() { hierarchy.position[Int(state)] = Int32(position) }
        let position = hierarchy.position
        func positionOf(middle: Int32) -> Int32 {
            middle == -1 ? -1 : position[Int(middle <= -2 ? -2 - middle : original[Int(middle)])]
        }
        // Every array at its final size from the start: grown by doubling, a country's three
        // hierarchies (the build's largest arrays) held a third more than they needed.
        hierarchy.reserveCapacity(states: count, upOut: chained + core.upOutTarget.count, upIn: chained + core.upInSource.count)
        for at in 0..<count {
            let state = Int(hierarchy.order[at])
            if at < chained {
                let next = successors.first(Int32(state))
                hierarchy.upOutTarget.append(position[Int(next)])
                hierarchy.upOutWeight.append(turns.cost[Int(next)])
                hierarchy.upOutMiddle.append(-1)
                let before = predecessors.first(Int32(state))
                hierarchy.upInSource.append(position[Int(chainSource[state])])
                hierarchy.upInWeight.append(chainWeight[state])
                hierarchy.upInMiddle.append(onChain[Int(before)] ? position[Int(before)] : -1)
            } else {
                let vertex = Int(coreOrder[at - chained])
                for edge in Int(core.upOutOffsets[vertex])..<Int(core.upOutOffsets[vertex + 1]) {
                    hierarchy.upOutTarget.append(position[Int(original[Int(core.upOutTarget[edge])])])
                    hierarchy.upOutWeight.append(core.upOutWeight[edge])
                    hierarchy.upOutMiddle.append(positionOf(middle: core.upOutMiddle[edge]))
                }
                for edge in Int(core.upInOffsets[vertex])..<Int(core.upInOffsets[vertex + 1]) {
                    hierarchy.upInSource.append(position[Int(original[Int(core.upInSource[edge])])])
                    hierarchy.upInWeight.append(core.upInWeight[edge])
                    hierarchy.upInMiddle.append(positionOf(middle: core.upInMiddle[edge]))
                }
            }
            hierarchy.upOutOffsets.append(UInt32(hierarchy.upOutTarget.count))
            hierarchy.upInOffsets.append(UInt32(hierarchy.upInSource.count))
        }
        return hierarchy
    }

    /// The most states left after the chains that the greedy order takes alone (``NestedDissection``).
    static let defaultLeafSize = 1_024
}
