import Testing
@testable import TravelogRouting

@Suite("Nested dissection")
struct NestedDissectionTests {
    /// A `width` × `height` grid, each vertex joined to its right and upper neighbours (rows of both ends).
    static func grid(width: Int, height: Int, skipColumn: Int? = nil) -> (x: [Int32], y: [Int32], offsets: [Int32], neighbours: [Int32]) {
        var x: [Int32] = [], y: [Int32] = []
        var rows: [[Int32]] = Array(repeating: [], count: width * height)
        for row in 0..<height {
            for column in 0..<width {
                x.append(Int32(column))
                y.append(Int32(row))
                let vertex = row * width + column
                if column + 1 < width, column != skipColumn {
                    rows[vertex].append(Int32(vertex + 1))
                    rows[vertex + 1].append(Int32(vertex))
                }
                if row + 1 < height {
                    rows[vertex].append(Int32(vertex + width))
                    rows[vertex + width].append(Int32(vertex))
                }
            }
        }
        var offsets: [Int32] = [0]
        for row in rows { offsets.append(offsets.last! + Int32(row.count)) }
        return (x, y, offsets, rows.flatMap { $0 })
    }

    /// The connected components of the vertices `keep` accepts: their sizes.
    static func components(_ graph: (x: [Int32], y: [Int32], offsets: [Int32], neighbours: [Int32]), keep: (Int) -> Bool) -> [Int] {
        var seen = [Bool](repeating: false, count: graph.x.count)
        var sizes: [Int] = []
        for start in 0..<graph.x.count where keep(start) && !seen[start] {
            var stack = [start], size = 0
            seen[start] = true
            while let vertex = stack.popLast() {
                size += 1
                for row in Int(graph.offsets[vertex])..<Int(graph.offsets[vertex + 1]) {
                    let other = Int(graph.neighbours[row])
                    if keep(other), !seen[other] {
                        seen[other] = true
                        stack.append(other)
                    }
                }
            }
            sizes.append(size)
        }
        return sizes
    }

    @Test("separators cut a grid into cells no larger than the leaf size, the top one a single line across")
    func grid() {
        let graph = Self.grid(width: 60, height: 40)
        let dissection = NestedDissection.dissect(x: graph.x, y: graph.y, offsets: graph.offsets, neighbours: graph.neighbours, leafSize: 50)
        let tiers = dissection.tier
        // Each piece is one leaf cell or one separator: its vertices share a tier, and a leaf cell is
        // no larger than the leaf size.
        let pieces = Dictionary(grouping: tiers.indices, by: { dissection.piece[$0] })
        #expect(pieces.values.allSatisfy { members in Set(members.map { tiers[$0] }).count == 1 })
        #expect(pieces.values.allSatisfy { members in tiers[members[0]] != 0 || members.count <= 50 })
        #expect(pieces.values.filter { tiers[$0[0]] == 255 }.map(\.count) == [40], "the top separator is one piece")
        // Without every separator, no piece is larger than a leaf cell.
        let leaves = Self.components(graph) { tiers[$0] == 0 }
        #expect(leaves.max() ?? 0 <= 50)
        #expect(leaves.reduce(0, +) > 1500, "most vertices are in leaf cells")
        // The top separator is one column (the grid's short way across), and it splits the grid in two.
        let top = tiers.indices.filter { tiers[$0] == 255 }
        #expect(top.count == 40)
        #expect(Set(top.map { graph.x[$0] }).count == 1)
        let halves = Self.components(graph) { tiers[$0] != 255 }
        #expect(halves.count == 2 && halves.allSatisfy { $0 >= 2400 * 3 / 10 - 40 })
        // At every depth, the separators from there up split the graph into pieces no larger than their cells.
        var largest = 2400
        for depth in 1...4 {
            largest = largest * 7 / 10 + 1
            let pieces = Self.components(graph) { tiers[$0] <= 255 - depth }
            #expect(pieces.max() ?? 0 <= largest, "depth \(depth)")
            #expect(pieces.count == 1 << depth, "depth \(depth): \(pieces.count) pieces")
        }
    }

    @Test("a graph in two pieces is cut between them with no separator; a small one is left whole")
    func disconnected() {
        let graph = Self.grid(width: 20, height: 10, skipColumn: 9)
        let tiers = NestedDissection.dissect(x: graph.x, y: graph.y, offsets: graph.offsets, neighbours: graph.neighbours, leafSize: 100).tier
        #expect(tiers.allSatisfy { $0 == 0 })
        let small = NestedDissection.dissect(x: graph.x, y: graph.y, offsets: graph.offsets, neighbours: graph.neighbours, leafSize: 200).tier
        #expect(small.allSatisfy { $0 == 0 })
        let cut = NestedDissection.dissect(x: graph.x, y: graph.y, offsets: graph.offsets, neighbours: graph.neighbours, leafSize: 99).tier
        #expect(cut.contains { $0 != 0 }, "each 100-vertex half is cut once more")
    }
}
