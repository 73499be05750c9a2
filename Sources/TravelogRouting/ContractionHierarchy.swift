/// A contraction hierarchy (Geisberger, Sanders, Schultes, Delling: "Contraction Hierarchies:
/// Faster and Simpler Hierarchical Routing in Road Networks", WEA 2008) over a turn graph: the
/// vertices are ranked, and each keeps only its edges to higher-ranked vertices — out-edges for the
/// forward search, in-edges for the backward one — including the shortcuts added when a vertex was
/// contracted. A shortcut `u → w` through `v` (its `middle`) stands for `u → v → w`.
/// Compressed rows: `upOut…[upOutOffsets[v] ..< upOutOffsets[v + 1]]` are `v`'s upward out-edges.
struct ContractionHierarchy: Sendable {
    var upOutOffsets: [UInt32] = [0]
    var upOutTarget: [Int32] = []
    var upOutWeight: [UInt32] = []
    var upOutMiddle: [Int32] = []
    var upInOffsets: [UInt32] = [0]
    var upInSource: [Int32] = []
    var upInWeight: [UInt32] = []
    var upInMiddle: [Int32] = []
}

/// Builds a ``ContractionHierarchy``: vertices are contracted in the order of a lazily updated
/// priority (edge difference plus contracted neighbours, the paper's section 3.1), and a shortcut is
/// added unless a witness search (a Dijkstra search bounded in settled vertices) finds a path at most
/// as short avoiding the vertex. A search that gives up adds the shortcut: the hierarchy stays exact,
/// only larger.
/// - Complexity: roughly O(n log n) for road networks; memory O(n + edges + shortcuts).
struct ContractionHierarchyBuilder {
    private struct Edge {
        var other: Int32
        var weight: UInt32
        var middle: Int32
    }

    private var outEdges: [[Edge]]
    private var inEdges: [[Edge]]
    private var contracted: [Bool]
    private var contractedNeighbours: [Int32]
    private var witnessDistance: [Int64]
    private var witnessTouched: [Int32] = []
    private var heap = MinHeap()
    /// The most vertices a witness search settles before it gives up.
    static let witnessSettleLimit = 64

    init(vertexCount: Int, edges: (Int32, (Int32, UInt32) -> Void) -> Void) {
        outEdges = Array(repeating: [], count: vertexCount)
        inEdges = Array(repeating: [], count: vertexCount)
        contracted = Array(repeating: false, count: vertexCount)
        contractedNeighbours = Array(repeating: 0, count: vertexCount)
        witnessDistance = Array(repeating: Int64.max, count: vertexCount)
        for vertex in 0..<vertexCount {
            let from = Int32(vertex)
            edges(from) { to, weight in self.addEdge(from, to, weight, middle: -1) }
        }
    }

    private mutating func addEdge(_ from: Int32, _ to: Int32, _ weight: UInt32, middle: Int32) {
        guard from != to else { return }
        if let index = outEdges[Int(from)].firstIndex(where: { $0.other == to }) {
            guard weight < outEdges[Int(from)][index].weight else { return }
            outEdges[Int(from)][index] = Edge(other: to, weight: weight, middle: middle)
            if let back = inEdges[Int(to)].firstIndex(where: { $0.other == from }) {
                inEdges[Int(to)][back] = Edge(other: from, weight: weight, middle: middle)
            }
            return
        }
        outEdges[Int(from)].append(Edge(other: to, weight: weight, middle: middle))
        inEdges[Int(to)].append(Edge(other: from, weight: weight, middle: middle))
    }

    /// The shortcuts contracting `vertex` needs now: (from, to, weight).
    private mutating func shortcuts(of vertex: Int32) -> [(Int32, Int32, UInt32)] {
        var result: [(Int32, Int32, UInt32)] = []
        let outgoing = outEdges[Int(vertex)].filter { !contracted[Int($0.other)] }
        guard !outgoing.isEmpty else { return result }
        let maxOut = Int64(outgoing.map(\.weight).max() ?? 0)
        for incoming in inEdges[Int(vertex)] where !contracted[Int(incoming.other)] {
            let source = incoming.other
            witnessSearch(from: source, avoiding: vertex, limit: Int64(incoming.weight) + maxOut)
            for edge in outgoing where edge.other != source {
                let via = Int64(incoming.weight) + Int64(edge.weight)
                if witnessDistance[Int(edge.other)] > via { result.append((source, edge.other, UInt32(min(via, Int64(UInt32.max - 1))))) }
            }
            for touched in witnessTouched { witnessDistance[Int(touched)] = Int64.max }
            witnessTouched.removeAll(keepingCapacity: true)
        }
        return result
    }

    private mutating func witnessSearch(from source: Int32, avoiding vertex: Int32, limit: Int64) {
        Self.witnessSearch(from: source, avoiding: vertex, limit: limit, outEdges: outEdges, contracted: contracted,
                           distance: &witnessDistance, touched: &witnessTouched, heap: &heap)
    }

    /// The witness search proper, over the adjacency passed by value so that its loop reads the
    /// rows without the uniqueness checks a mutating method's access to `self` costs.
    private static func witnessSearch(from source: Int32, avoiding vertex: Int32, limit: Int64, outEdges: [[Edge]], contracted: [Bool],
                                      distance: inout [Int64], touched: inout [Int32], heap: inout MinHeap) {
        heap.removeAll()
        distance[Int(source)] = 0
        touched.append(source)
        heap.push(0, source)
        var settled = 0
        while let (reached, current) = heap.pop() {
            guard reached == distance[Int(current)] else { continue }
            settled += 1
            if reached > limit || settled > witnessSettleLimit { break }
            for edge in outEdges[Int(current)] where edge.other != vertex && !contracted[Int(edge.other)] {
                let next = reached + Int64(edge.weight)
                if next < distance[Int(edge.other)] {
                    if distance[Int(edge.other)] == Int64.max { touched.append(edge.other) }
                    distance[Int(edge.other)] = next
                    heap.push(next, edge.other)
                }
            }
        }
    }

    /// The priority of contracting `vertex` now, given the shortcuts it would need.
    private func priority(of vertex: Int32, shortcuts: Int) -> Int64 {
        let degree = outEdges[Int(vertex)].count(where: { !contracted[Int($0.other)] })
            + inEdges[Int(vertex)].count(where: { !contracted[Int($0.other)] })
        return Int64(shortcuts - degree) * 4 + Int64(contractedNeighbours[Int(vertex)])
    }

    /// Contracts every vertex and returns the hierarchy.
    mutating func build() -> ContractionHierarchy {
        let count = contracted.count
        var queue = MinHeap()
        for vertex in 0..<count { queue.push(priority(of: Int32(vertex), shortcuts: shortcuts(of: Int32(vertex)).count), Int32(vertex)) }
        var rank = [Int32](repeating: 0, count: count)
        var nextRank: Int32 = 0
        while let (_, vertex) = queue.pop() {
            let needed = shortcuts(of: vertex)
            let current = priority(of: vertex, shortcuts: needed.count)
            if let next = queue.minimumKey, current > next {
                queue.push(current, vertex)
                continue
            }
            for (from, to, weight) in needed { addEdge(from, to, weight, middle: vertex) }
            contracted[Int(vertex)] = true
            rank[Int(vertex)] = nextRank
            nextRank += 1
            for edge in outEdges[Int(vertex)] + inEdges[Int(vertex)] where !contracted[Int(edge.other)] {
                contractedNeighbours[Int(edge.other)] += 1
            }
            // The neighbours still to contract forget the vertex: their edges to it lead down the
            // hierarchy, which no search of theirs takes (the vertex's own rows keep them), and
            // the witness searches would otherwise scan every contracted neighbour's edge again.
            for edge in outEdges[Int(vertex)] where !contracted[Int(edge.other)] {
                inEdges[Int(edge.other)].removeAll { $0.other == vertex }
            }
            for edge in inEdges[Int(vertex)] where !contracted[Int(edge.other)] {
                outEdges[Int(edge.other)].removeAll { $0.other == vertex }
            }
        }
        var hierarchy = ContractionHierarchy()
        for vertex in 0..<count {
            for edge in outEdges[vertex] where rank[Int(edge.other)] > rank[vertex] {
                hierarchy.upOutTarget.append(edge.other)
                hierarchy.upOutWeight.append(edge.weight)
                hierarchy.upOutMiddle.append(edge.middle)
            }
            hierarchy.upOutOffsets.append(UInt32(hierarchy.upOutTarget.count))
            for edge in inEdges[vertex] where rank[Int(edge.other)] > rank[vertex] {
                hierarchy.upInSource.append(edge.other)
                hierarchy.upInWeight.append(edge.weight)
                hierarchy.upInMiddle.append(edge.middle)
            }
            hierarchy.upInOffsets.append(UInt32(hierarchy.upInSource.count))
        }
        return hierarchy
    }
}
