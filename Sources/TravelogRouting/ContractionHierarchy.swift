/// A contraction hierarchy (Geisberger, Sanders, Schultes, Delling: "Contraction Hierarchies:
/// Faster and Simpler Hierarchical Routing in Road Networks", WEA 2008) over a turn graph: the
/// vertices are ranked, and each keeps only its edges to higher-ranked vertices — out-edges for the
/// forward search, in-edges for the backward one — including the shortcuts added when a vertex was
/// contracted. A shortcut `u → w` through `v` (its `middle`) stands for `u → v → w`.
/// Compressed rows: `upOut…[upOutOffsets[p] ..< upOutOffsets[p + 1]]` are the upward out-edges of
/// the vertex at position `p`.
///
/// Positions: a turn graph's hierarchy (``build(turns:successors:predecessors:nodes:leafSize:oneHopAfterScanned:progress:)``)
/// stores its rows, and names the ends and middles of its edges, by position, not by state: the chains'
/// states first, then the others in the order they were contracted, so that the states every long
/// route's search reaches (the top of the hierarchy) lie side by side in its arrays and in the search's
/// labels rather than spread over them. `order[p]` is the state at position `p`, `position[s]` the position
/// of state `s`. Empty in the builder's own result, whose positions are its vertices.
struct ContractionHierarchy: Sendable {
    var order: [Int32] = []
    var position: [Int32] = []
    var upOutOffsets: [UInt32] = [0]
    var upOutTarget: [Int32] = []
    var upOutWeight: [UInt32] = []
    var upOutMiddle: [Int32] = []
    var upInOffsets: [UInt32] = [0]
    var upInSource: [Int32] = []
    var upInWeight: [UInt32] = []
    var upInMiddle: [Int32] = []

    mutating func reserveCapacity(states: Int, upOut: Int, upIn: Int) {
        upOutOffsets.reserveCapacity(states + 1)
        upInOffsets.reserveCapacity(states + 1)
        upOutTarget.reserveCapacity(upOut)
        upOutWeight.reserveCapacity(upOut)
        upOutMiddle.reserveCapacity(upOut)
        upInSource.reserveCapacity(upIn)
        upInWeight.reserveCapacity(upIn)
        upInMiddle.reserveCapacity(upIn)
    }
}

/// Builds a ``ContractionHierarchy``. Vertices are contracted in the order of a lazily updated
/// priority (re-evaluated when it comes out of the queue, and put back when it got worse than the
/// next one, the paper's section 3.1), whose terms are those of RoutingKit's builder (Dibbelt,
/// Strasser, Wagner: "Customizable Contraction Hierarchies", 2014): the vertex's level (one more
/// than the highest level of the contracted vertices next to it), plus the shortcuts it would add
/// over the edges it would remove, plus the original edges those shortcuts stand for over those the
/// removed edges stand for. The level spreads the contraction evenly over a network; with an
/// edge-difference priority alone, ties were broken in the order of the ways in the file and the
/// contraction swept across a network of neighbourhoods row by row into a dense core: 251 s for the
/// 320,000 nodes of `make bench NAMES=directions-scale` at its smallest, 41 s now (Helsinki: 0.8 →
/// 1.5 s, its routes 10–25 % faster). A shortcut is added unless a witness search (a Dijkstra search
/// bounded in settled vertices) finds a path at most as short avoiding the vertex; a search that
/// gives up adds it: the hierarchy stays exact, only larger. Neighbours' priorities updated at
/// once after each contraction (as RoutingKit does) gave no smaller hierarchy here at 3–10 times
/// the time, and a witness bound of 256 settled vertices instead of 64 cost 20–90 % more time for
/// 10–20 % faster routes.
///
/// At the top of a network without a hierarchy of speeds (walking and cycling across a grid of
/// streets) the vertices left form a dense, nearly complete graph whose every witness search settles
/// its 64 vertices, each with hundreds of edges, and finds little: a generated million-node country
/// spent four fifths of its 428 s there. Once the witness searches of the last 1,024 evaluations
/// scanned more than 20,000 edges each on average, the rest of the contraction looks for witnesses
/// among direct edges only (Geisberger et al.'s one-hop search, section 3.2), which costs the
/// product of a vertex's degrees. With it that country took 141 s, its routes across about as
/// fast (driving p50 3.45 → 4.03 ms, walking 13.8 → 10.3, cycling 15.6 → 8.0), and a witness search
/// also stops as soon as every target is settled.
/// - Complexity: roughly O(n log n) for road networks; memory O(n + edges + shortcuts).
struct ContractionHierarchyBuilder {
    private struct Edge {
        var other: Int32
        var weight: UInt32
        var middle: Int32
        /// The original edges it stands for: 1, or a shortcut's two halves' sum.
        var hops: UInt32
    }

    private struct Shortcut {
        var from: Int32
        var to: Int32
        var weight: UInt32
        var hops: UInt32
        /// Where the edge `from → to` already is in `from`'s out-row: an index, `absent`, or `unknown`.
        var existing: Int32 = Shortcut.unknown
        static let unknown: Int32 = -1, absent: Int32 = -2
    }

    private var outEdges: [[Edge]]
    private var inEdges: [[Edge]]
    private var level: [Int32]
    /// Per vertex, its tier in a nested dissection (``NestedDissection``): lower tiers are contracted first.
    private let tier: [UInt8]
    private var witnessDistance: [Int64]
    private var isTarget: [Bool]
    /// In a one-hop search, where each out-neighbour of the source lies in its row.
    private var directIndex: [Int32]
    /// Whether witnesses are looked for only among direct edges (see ``oneHopAfterScanned``).
    private var oneHop = false
    /// The edges the witness searches scanned since the last look at their cost.
    private var scanned = 0
    private var witnessTouched: [Int32] = []
    private var heap = MinHeap()
    private var shortcutBuffer: [Shortcut] = []
    /// The most vertices a witness search settles before it gives up.
    static let witnessSettleLimit = 64
    /// When the witness searches of the last 1,024 evaluations scanned more edges than this each on
    /// average, the rest of the contraction looks for witnesses among direct edges only (0: from the start).
    private let oneHopAfterScanned: Int
    static let defaultOneHopAfterScanned = 20_000
    /// The priority's terms are fractions: they are kept in 1/1024ths.
    static let prioritySteps: Double = 1024

    /// - Parameter edges: called once per vertex with a function taking each of its out-edges:
    ///   target, weight, middle (kept as given: -1 for an original edge) and the original edges it stands for.
    /// - Parameter tiers: per vertex, empty for all in one: a vertex of a lower tier is contracted before any of a higher one.
    init(vertexCount: Int, tiers: [UInt8] = [], oneHopAfterScanned: Int = defaultOneHopAfterScanned,
         edges: (Int32, (Int32, UInt32, Int32, UInt32) -> Void) -> Void) {
        self.oneHopAfterScanned = oneHopAfterScanned
        tier = tiers.isEmpty ? Array(repeating: 0, count: vertexCount) : tiers
        oneHop = oneHopAfterScanned == 0
        outEdges = Array(repeating: [], count: vertexCount)
        inEdges = Array(repeating: [], count: vertexCount)
        level = Array(repeating: 0, count: vertexCount)
        witnessDistance = Array(repeating: Int64.max, count: vertexCount)
        isTarget = Array(repeating: false, count: vertexCount)
        directIndex = Array(repeating: 0, count: vertexCount)
        for vertex in 0..<vertexCount {
            let from = Int32(vertex)
            edges(from) { to, weight, middle, hops in self.addEdge(from, to, weight, middle: middle, hops: hops) }
        }
    }

    private mutating func addEdge(_ from: Int32, _ to: Int32, _ weight: UInt32, middle: Int32, hops: UInt32,
                                  existing: Int32 = Shortcut.unknown) {
        guard from != to else { return }
        let edge = Edge(other: to, weight: weight, middle: middle, hops: hops)
        let found: Int? = switch existing {
        case Shortcut.unknown: outEdges[Int(from)].firstIndex(where: { $0.other == to })
        case Shortcut.absent: nil
        default: Int(existing)
        }
        if let index = found {
            guard weight < outEdges[Int(from)][index].weight else { return }
            outEdges[Int(from)][index] = edge
            if let back = inEdges[Int(to)].firstIndex(where: { $0.other == from }) {
                inEdges[Int(to)][back] = Edge(other: from, weight: weight, middle: middle, hops: hops)
            }
            return
        }
        outEdges[Int(from)].append(edge)
        inEdges[Int(to)].append(Edge(other: from, weight: weight, middle: middle, hops: hops))
    }

    /// The shortcuts contracting `vertex` needs now, into `shortcutBuffer`. Every edge still in the
    /// lists leads to a vertex not yet contracted: a contracted vertex leaves its neighbours' lists.
    private mutating func findShortcuts(of vertex: Int32) {
        shortcutBuffer.removeAll(keepingCapacity: true)
        let outgoing = outEdges[Int(vertex)]
        guard !outgoing.isEmpty else { return }
        if oneHop {
            for incoming in inEdges[Int(vertex)] {
                let source = incoming.other
                for (index, edge) in outEdges[Int(source)].enumerated() {
                    witnessDistance[Int(edge.other)] = Int64(edge.weight)
                    directIndex[Int(edge.other)] = Int32(index)
                }
                for edge in outgoing where edge.other != source {
                    let via = Int64(incoming.weight) + Int64(edge.weight)
                    let direct = witnessDistance[Int(edge.other)]
                    if direct > via {
                        shortcutBuffer.append(Shortcut(from: source, to: edge.other, weight: UInt32(min(via, Int64(UInt32.max - 1))),
                                                       hops: incoming.hops + edge.hops,
                                                       existing: direct == Int64.max ? Shortcut.absent : directIndex[Int(edge.other)]))
                    }
                }
                for edge in outEdges[Int(source)] { witnessDistance[Int(edge.other)] = Int64.max }
            }
            return
        }
        var maxOut: Int64 = 0
        for edge in outgoing {
            maxOut = max(maxOut, Int64(edge.weight))
            isTarget[Int(edge.other)] = true
        }
        defer { for edge in outgoing { isTarget[Int(edge.other)] = false } }
        for incoming in inEdges[Int(vertex)] {
            let source = incoming.other
            Self.witnessSearch(from: source, avoiding: vertex, limit: Int64(incoming.weight) + maxOut,
                               targets: outgoing.count, isTarget: isTarget, outEdges: outEdges,
                               distance: &witnessDistance, touched: &witnessTouched, heap: &heap, scanned: &scanned)
            for edge in outgoing where edge.other != source {
                let via = Int64(incoming.weight) + Int64(edge.weight)
                if witnessDistance[Int(edge.other)] > via {
                    shortcutBuffer.append(Shortcut(from: source, to: edge.other, weight: UInt32(min(via, Int64(UInt32.max - 1))),
                                                   hops: incoming.hops + edge.hops))
                }
            }
            for touched in witnessTouched { witnessDistance[Int(touched)] = Int64.max }
            witnessTouched.removeAll(keepingCapacity: true)
        }
    }

    /// The witness search proper, over the adjacency passed by value so that its loop reads the
    /// rows without the uniqueness checks a mutating method's access to `self` costs. It stops once
    /// every one of the `targets` marked in `isTarget` is settled (their distances are then final).
    private static func witnessSearch(from source: Int32, avoiding vertex: Int32, limit: Int64, targets: Int,
                                      isTarget: [Bool], outEdges: [[Edge]],
                                      distance: inout [Int64], touched: inout [Int32], heap: inout MinHeap, scanned: inout Int) {
        heap.removeAll()
        distance[Int(source)] = 0
        touched.append(source)
        heap.push(0, source)
        var settled = 0, unsettledTargets = targets
        while let (reached, current) = heap.pop() {
            guard reached == distance[Int(current)] else { continue }
            settled += 1
            if reached > limit || settled > witnessSettleLimit { break }
            if isTarget[Int(current)] {
                unsettledTargets -= 1
                if unsettledTargets == 0 { break }
            }
            scanned += outEdges[Int(current)].count
            for edge in outEdges[Int(current)] where edge.other != vertex {
                let next = reached + Int64(edge.weight)
                if next < distance[Int(edge.other)] {
                    if distance[Int(edge.other)] == Int64.max { touched.append(edge.other) }
                    distance[Int(edge.other)] = next
                    heap.push(next, edge.other)
                }
            }
        }
    }

    /// The priority of contracting `vertex` now (its shortcuts found again).
    private mutating func currentPriority(of vertex: Int32) -> Int64 {
        findShortcuts(of: vertex)
        var removedHops: UInt32 = 0
        for edge in outEdges[Int(vertex)] { removedHops &+= edge.hops }
        for edge in inEdges[Int(vertex)] { removedHops &+= edge.hops }
        let removed = outEdges[Int(vertex)].count + inEdges[Int(vertex)].count
        guard removed > 0 else { return Int64(tier[Int(vertex)]) << 44 }
        var addedHops: UInt32 = 0
        for shortcut in shortcutBuffer { addedHops &+= shortcut.hops }
        let terms = Double(level[Int(vertex)]) + Double(shortcutBuffer.count) / Double(removed) + Double(addedHops) / Double(max(1, removedHops))
        return Int64(tier[Int(vertex)]) << 44 + Int64(terms * Self.prioritySteps)
    }

    /// Contracts every vertex and returns the hierarchy; `progress(n)` is told every few thousand
    /// vertices how many are contracted. The builder is spent afterwards (its rows are let go).
    /// - Returns: the hierarchy over the builder's vertices, and the vertices in the order they were contracted.
    mutating func build(progress: (Int) -> Void = { _ in }) -> (hierarchy: ContractionHierarchy, contracted: [Int32]) {
        let count = outEdges.count
        // Every vertex is in the queue once: a vertex put back was taken out first.
        var queue = MinHeap()
        for vertex in 0..<count { queue.push(currentPriority(of: Int32(vertex)), Int32(vertex)) }
        var rank = [Int32](repeating: 0, count: count)
        var contracted: [Int32] = []
        contracted.reserveCapacity(count)
        var nextRank: Int32 = 0
        var evaluations = 0
        scanned = 0
        while let (_, vertex) = queue.pop() {
            evaluations += 1
            if evaluations & 0x3FF == 0 {
                if scanned / 0x400 > oneHopAfterScanned { oneHop = true }
                scanned = 0
            }
            let now = currentPriority(of: vertex)
            if let next = queue.minimumKey, now > next {
                queue.push(now, vertex)
                continue
            }
            for shortcut in shortcutBuffer {
                addEdge(shortcut.from, shortcut.to, shortcut.weight, middle: vertex, hops: shortcut.hops, existing: shortcut.existing)
            }
            rank[Int(vertex)] = nextRank
            contracted.append(vertex)
            nextRank += 1
            if nextRank & 0x3FFF == 0 { progress(Int(nextRank)) }
            // The neighbours still to contract forget the vertex: their edges to it lead down the
            // hierarchy, which no search of theirs takes (the vertex's own rows keep them), and
            // the witness searches would otherwise scan every contracted neighbour's edge again.
            // They are a level above it at least.
            let nextLevel = level[Int(vertex)] + 1
            for edge in outEdges[Int(vertex)] {
                inEdges[Int(edge.other)].removeAll { $0.other == vertex }
                level[Int(edge.other)] = max(level[Int(edge.other)], nextLevel)
            }
            for edge in inEdges[Int(vertex)] {
                outEdges[Int(edge.other)].removeAll { $0.other == vertex }
                level[Int(edge.other)] = max(level[Int(edge.other)], nextLevel)
            }
        }
        var upOut = 0, upIn = 0
        for vertex in 0..<count {
            for edge in outEdges[vertex] where rank[Int(edge.other)] > rank[vertex] { upOut += 1 }
            for edge in inEdges[vertex] where rank[Int(edge.other)] > rank[vertex] { upIn += 1 }
        }
        var hierarchy = ContractionHierarchy()
        hierarchy.reserveCapacity(states: count, upOut: upOut, upIn: upIn)
        // Each row is let go once copied: the rows and the hierarchy are never both whole in memory
        // (the build is over; the builder has nothing left to contract).
        for vertex in 0..<count {
            for edge in outEdges[vertex] where rank[Int(edge.other)] > rank[vertex] {
                hierarchy.upOutTarget.append(edge.other)
                hierarchy.upOutWeight.append(edge.weight)
                hierarchy.upOutMiddle.append(edge.middle)
            }
            outEdges[vertex] = []
            hierarchy.upOutOffsets.append(UInt32(hierarchy.upOutTarget.count))
            for edge in inEdges[vertex] where rank[Int(edge.other)] > rank[vertex] {
                hierarchy.upInSource.append(edge.other)
                hierarchy.upInWeight.append(edge.weight)
                hierarchy.upInMiddle.append(edge.middle)
            }
            inEdges[vertex] = []
            hierarchy.upInOffsets.append(UInt32(hierarchy.upInSource.count))
        }
        outEdges = []
        inEdges = []
        return (hierarchy, contracted)
    }
}
