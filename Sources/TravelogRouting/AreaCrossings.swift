import Foundation
import TravelogCore

/// The straight ways across a square: a pedestrian area (`highway=pedestrian` + `area=yes`) is mapped
/// by its outline, and a walker crosses it rather than following its edge (OSRM's foot profile walks
/// the outline; Valhalla's `mjolnir.pedestrian_areas` triangulates the area, and did not finish on the
/// Helsinki extract). Two entries (outline nodes where another way meets the square) may be joined by
/// a segment when the straight line between them stays inside the outline: it touches no outline edge
/// but at its own ends, passes through no other outline node, and its middle is inside; of those
/// lines a spanner keeps a few (``stretch``). A square whose outline is not closed, or that has more
/// entries than ``maximumEntries``, is only walked round.
enum AreaCrossings {
    static let maximumEntries = 64

    /// The pairs of `entries` to join, each once (the lower index first). `outline` is closed (its
    /// first node is its last).
    static func chords(outline: [Int32], entries: [Int32], data: RoadGraphData) -> [(Int32, Int32)] {
        guard outline.count >= 4, outline.first == outline.last, entries.count >= 2, entries.count <= maximumEntries else { return [] }
        // A plane tangent at the square's first node: x east, y north, both in degrees of latitude.
        let scale = cos(Double(data.nodeLatitudeE7[Int(outline[0])]) / 1e7 * .pi / 180)
        func point(_ node: Int32) -> (x: Double, y: Double) {
            (Double(data.nodeLongitudeE7[Int(node)]) / 1e7 * scale, Double(data.nodeLatitudeE7[Int(node)]) / 1e7)
        }
        let ring = outline.map(point)
        let edges = Array(zip(outline, outline.dropFirst()))
        var candidates: [(a: Int, b: Int, meters: Double)] = []
        for (i, a) in entries.enumerated() {
            for (j, b) in entries.enumerated().dropFirst(i + 1)
            where !edges.contains(where: { ($0.0 == a && $0.1 == b) || ($0.0 == b && $0.1 == a) }) {
                let p = point(a), q = point(b)
                let crosses = edges.contains { edge in
                    if edge.0 == a || edge.0 == b || edge.1 == a || edge.1 == b { return false }
                    return segmentsMeet(p, q, point(edge.0), point(edge.1))
                }
                guard !crosses, contains(ring, ((p.x + q.x) / 2, (p.y + q.y) / 2)) else { continue }
                // An outline node on the line itself (the other edges at a or b may run along it).
                let throughNode = outline.contains { node in
                    node != a && node != b && onSegment(p, q, point(node))
                }
                if !throughNode { candidates.append((i, j, data.coordinate(of: a).distanceMeters(to: data.coordinate(of: b)))) }
            }
        }
        return spanner(candidates, entries: entries, outline: outline, data: data).map { (entries[$0.a], entries[$0.b]) }
    }

    /// A walk between two entries may be this much longer than the straight line when that line is
    /// not a segment of its own.
    static let stretch = 1.1

    /// Of the crossings, those a greedy spanner keeps (Althöfer et al., "On sparse spanners of
    /// weighted graphs", 1993): shortest first, each only if the outline and the crossings kept so far
    /// do not already join its ends within ``stretch`` times its length. Every entry of a square
    /// joined to every other (a clique of k² / 2 segments) took the Helsinki extract's hierarchies
    /// from 2.8 to 5.0 MB and their build from 1.0 to 1.5 s; the spanner (157 crossings there, not
    /// 531) keeps them at 3.0 MB and 1.07 s (`make bench NAMES=routing`).
    private static func spanner(_ candidates: [(a: Int, b: Int, meters: Double)], entries: [Int32], outline: [Int32],
                                data: RoadGraphData) -> [(a: Int, b: Int, meters: Double)] {
        // Distances between the entries round the outline, either way.
        var along: [Int32: Double] = [:]
        var perimeter = 0.0
        for (index, node) in outline.enumerated() {
            if index > 0 { perimeter += data.coordinate(of: outline[index - 1]).distanceMeters(to: data.coordinate(of: node)) }
            if along[node] == nil { along[node] = perimeter }
        }
        let count = entries.count
        var distance = [Double](repeating: 0, count: count * count)
        for i in 0..<count {
            for j in 0..<count {
                let gap = abs((along[entries[i]] ?? 0) - (along[entries[j]] ?? 0))
                distance[i * count + j] = min(gap, perimeter - gap)
            }
        }
        var kept: [(a: Int, b: Int, meters: Double)] = []
        for candidate in candidates.sorted(by: { $0.meters < $1.meters })
        where distance[candidate.a * count + candidate.b] > stretch * candidate.meters {
            kept.append(candidate)
            for i in 0..<count {
                for j in 0..<count {
                    let through = min(distance[i * count + candidate.a] + candidate.meters + distance[candidate.b * count + j],
                                      distance[i * count + candidate.b] + candidate.meters + distance[candidate.a * count + j])
                    if through < distance[i * count + j] { distance[i * count + j] = through }
                }
            }
        }
        return kept
    }

    private static func orientation(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), _ c: (x: Double, y: Double)) -> Double {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }

    /// Whether `c` lies on the segment from `a` to `b` (within a hair: about a millimetre).
    private static func onSegment(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), _ c: (x: Double, y: Double)) -> Bool {
        let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        guard length > 0, abs(orientation(a, b, c)) / length < 1e-8 else { return false }
        let along = ((c.x - a.x) * (b.x - a.x) + (c.y - a.y) * (b.y - a.y)) / (length * length)
        return along > 0 && along < 1
    }

    /// Whether two segments cross or touch.
    private static func segmentsMeet(_ p: (x: Double, y: Double), _ q: (x: Double, y: Double),
                                     _ r: (x: Double, y: Double), _ s: (x: Double, y: Double)) -> Bool {
        let d1 = orientation(r, s, p), d2 = orientation(r, s, q), d3 = orientation(p, q, r), d4 = orientation(p, q, s)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return true }
        return onSegment(r, s, p) || onSegment(r, s, q) || onSegment(p, q, r) || onSegment(p, q, s)
    }

    /// Whether a point is inside a closed ring (even-odd rule).
    private static func contains(_ ring: [(x: Double, y: Double)], _ point: (x: Double, y: Double)) -> Bool {
        var inside = false
        for (a, b) in zip(ring, ring.dropFirst()) where (a.y > point.y) != (b.y > point.y) {
            if point.x < a.x + (point.y - a.y) / (b.y - a.y) * (b.x - a.x) { inside.toggle() }
        }
        return inside
    }
}
