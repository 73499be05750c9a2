/// The coarse part of a nested-dissection order (George 1973; as Dibbelt, Strasser and Wagner order
/// their customizable contraction hierarchies, 2014): the graph is cut in two along one axis of its
/// vertices' positions where the fewest edges cross, the vertices at one end of the crossing edges
/// are the cut's separator, and each half is cut again, until a cell has at most `leafSize`
/// vertices. The contraction takes every vertex of a leaf cell first (in its greedy priority's
/// order) and a separator after everything it separates, the top cut last.
///
/// Why: the greedy priority alone leaves a network without a hierarchy of speeds (walking or cycling
/// across a grid of streets) a dense core at the top, a near-clique of thousands of states whose
/// contraction costs the cube of its size; a generated five-million-node country was still
/// contracting after 14 minutes. A separator stays as small as the roads that cross the cut.
///
/// The cut is the sweep of RoutingKit's inertial flow without its flow: along each axis, the
/// vertices in order of position, the split between 30 % and 70 % of them that the fewest edges
/// cross (a difference array makes it O(edges) after the sort).
enum NestedDissection {
    /// Per vertex, its `tier`: 0 inside a leaf cell, else 255 − the depth of the cell whose separator
    /// it is (the top cut's separator: 255), the contraction's order by tier first; and its `piece`:
    /// the leaf cell it is in or the separator it is in (a number per cell; a piece's vertices share a
    /// tier), by which the hierarchy's arrays keep each piece's states together (``ContractionHierarchy``).
    struct Dissection {
        var tier: [UInt8]
        var piece: [Int32]
    }

    /// The dissection of a directed graph given by its out-edges (`edges(vertex, each)` calls `each`
    /// with every vertex an edge of `vertex` leads to), taken as undirected.
    static func dissect(x: [Int32], y: [Int32], leafSize: Int,
                        edges: (Int32, (Int32) -> Void) -> Void) -> Dissection {
        let count = x.count
        // Every edge in the rows of both its ends.
        var offsets = [Int32](repeating: 0, count: count + 1)
        for vertex in 0..<count {
            edges(Int32(vertex)) { to in
                offsets[vertex + 1] += 1
                offsets[Int(to) + 1] += 1
            }
        }
        for vertex in 0..<count { offsets[vertex + 1] += offsets[vertex] }
        var fill = offsets
        var neighbours = [Int32](repeating: 0, count: Int(offsets[count]))
        for vertex in 0..<count {
            edges(Int32(vertex)) { to in
                neighbours[Int(fill[vertex])] = to
                fill[vertex] += 1
                neighbours[Int(fill[Int(to)])] = Int32(vertex)
                fill[Int(to)] += 1
            }
        }
        fill = []
        return dissect(x: x, y: y, offsets: offsets, neighbours: neighbours, leafSize: leafSize)
    }

    /// The graph's dissection down to cells of at most `leafSize` vertices.
    /// - Parameters:
    ///   - x: per vertex, its position along one axis (longitude), `y` along the other.
    ///   - offsets: rows of `neighbours`: every edge, in the rows of both its ends.
    /// - Complexity: O((n log n + edges) × depth).
    static func dissect(x: [Int32], y: [Int32], offsets: [Int32], neighbours: [Int32], leafSize: Int) -> Dissection {
        let count = x.count
        var tier = [UInt8](repeating: 0, count: count)
        // The cell a vertex is in (cells are numbered as they are made), -1 once in a separator.
        var cell = [Int32](repeating: 0, count: count)
        guard count > leafSize else { return Dissection(tier: tier, piece: cell) }
        // The cell whose separator a vertex is in.
        var separatorOf = [Int32](repeating: -1, count: count)
        var position = [Int32](repeating: 0, count: count)
        var members = (0..<count).map { Int32($0) }
        var cells: [(start: Int, end: Int, depth: Int)] = [(0, count, 0)]
        var nextCell: Int32 = 1
        var difference: [Int32] = []
        var sorted: [Int32] = [], best: [Int32] = []
        while let (start, end, depth) = cells.popLast() {
            let size = end - start
            guard size > leafSize, depth < maximumDepth else { continue }
            let id = cell[Int(members[start])]
            var bestCut = Int32.max, bestSplit = 0
            for axis in 0..<2 {
                let (key, other) = axis == 0 ? (x, y) : (y, x)
                sorted.removeAll(keepingCapacity: true)
                sorted.append(contentsOf: members[start..<end])
                sorted.sort { key[Int($0)] != key[Int($1)] ? key[Int($0)] < key[Int($1)]
                    : other[Int($0)] != other[Int($1)] ? other[Int($0)] < other[Int($1)] : $0 < $1 }
                for (index, vertex) in sorted.enumerated() { position[Int(vertex)] = Int32(index) }
                // An edge between positions a < b crosses every split k with a < k ≤ b.
                difference.removeAll(keepingCapacity: true)
                difference.append(contentsOf: repeatElement(0, count: size + 1))
                for (index, vertex) in sorted.enumerated() {
                    for row in Int(offsets[Int(vertex)])..<Int(offsets[Int(vertex) + 1]) {
                        let other = Int(neighbours[row])
                        guard cell[other] == id, Int(position[other]) > index else { continue }
                        difference[index + 1] += 1
                        difference[Int(position[other]) + 1] -= 1
                    }
                }
                let low = max(1, size * 3 / 10), high = max(low, size * 7 / 10)
                var crossing: Int32 = 0
                var axisCut = Int32.max, axisSplit = low
                for split in 1...high {
                    crossing += difference[split]
                    guard split >= low else { continue }
                    if crossing < axisCut || (crossing == axisCut && abs(split - size / 2) < abs(axisSplit - size / 2)) {
                        axisCut = crossing
                        axisSplit = split
                    }
                }
                if axisCut < bestCut {
                    bestCut = axisCut
                    bestSplit = axisSplit
                    swap(&best, &sorted)
                }
            }
            // The separator: the ends on the side where fewer vertices touch the cut.
            for (index, vertex) in best.enumerated() { position[Int(vertex)] = Int32(index) }
            func touchesCut(_ vertex: Int32) -> Bool {
                let left = Int(position[Int(vertex)]) < bestSplit
                for row in Int(offsets[Int(vertex)])..<Int(offsets[Int(vertex) + 1]) {
                    let other = Int(neighbours[row])
                    if cell[other] == id, (Int(position[other]) < bestSplit) != left { return true }
                }
                return false
            }
            let leftTouching = best[..<bestSplit].reduce(0) { touchesCut($1) ? $0 + 1 : $0 }
            let rightTouching = best[bestSplit...].reduce(0) { touchesCut($1) ? $0 + 1 : $0 }
            let separatorOnLeft = leftTouching <= rightTouching
            var separator: [Int32] = []
            for vertex in separatorOnLeft ? best[..<bestSplit] : best[bestSplit...] where touchesCut(vertex) {
                separator.append(vertex)
            }
            for vertex in separator {
                cell[Int(vertex)] = -1
                separatorOf[Int(vertex)] = id
                tier[Int(vertex)] = UInt8(255 - depth)
            }
            var write = start
            for (range, newCell) in [(best[..<bestSplit], nextCell), (best[bestSplit...], nextCell + 1)] {
                let first = write
                for vertex in range where cell[Int(vertex)] == id {
                    cell[Int(vertex)] = newCell
                    members[write] = vertex
                    write += 1
                }
                if write > first { cells.append((first, write, depth + 1)) }
            }
            nextCell += 2
        }
        for vertex in 0..<count where cell[vertex] < 0 { cell[vertex] = separatorOf[vertex] }
        return Dissection(tier: tier, piece: cell)
    }

    /// Cells are not cut deeper than this (tiers stay above 0).
    static let maximumDepth = 200
}
