import Foundation
import TravelogCore

/// Map matching by a hidden Markov model (Newson & Krumm, "Hidden Markov Map Matching Through
/// Noise and Sparseness", ACM SIGSPATIAL GIS 2009), as OSRM, Valhalla and GraphHopper match:
/// - the hidden states of a fix are its *candidates*, the nearest point of each road segment the
///   mode may use within ``searchRadiusMeters`` (the ``maximumCandidates`` nearest), once per direction
///   the mode may travel it: a route leaves a point the way it arrived, or turns round at a price;
/// - emission: a Gaussian of the fix's distance to the candidate (σ = ``sigmaMeters``);
/// - transition: an exponential (β = ``betaMeters``) of |great-circle distance between the fixes −
///   road distance between the candidates|, the road distance by a bounded one-to-many Dijkstra
///   search (``MapMatchSearch``);
/// - Viterbi's most likely sequence of candidates, joined by their road routes. The search is a beam: a
///   transition that could not come within ``beamMargin`` of its column's best is never searched for.
///
/// Before the model, as the paper does, a fix within 3σ (``collapseMeters``) of the last one kept joins it (a stop
/// collapses to one point). A fix with no road within ``outlierMeters`` is dropped, and so is one
/// that jumps far off the line of its neighbours and back. A fix that no candidate before it can
/// reach is skipped; after ``maximumSkips`` in a row the chain is cut and a new piece starts. A gap
/// (a tunnel, missing fixes) is routed through, within twice the straight distance plus 200 m.
public struct MapMatcher {
    public static let sigmaMeters = 8.0
    public static let betaMeters = 5.0
    /// Beam pruning: a transition whose score falls this far (natural log) below the best of its column is
    /// not searched for (e^-10: never the most likely sequence in practice; 20, 12 and 10 gave the same matches in
    /// the benchmark, 8 lost one; 10 searches about a third less than 20).
    static let beamMargin = 10.0
    /// Candidates are looked for this far from a fix first, metres: 4σ, beyond which the emission is e^-8 of
    /// the nearest road's (the benchmark's 200 routes matched the same at 50, 35 and 30 m, one route worse at 25 m;
    /// 50 m looked through about twice the segments). A fix with none this near looks as far as ``outlierMeters``.
    public static let searchRadiusMeters = 4 * sigmaMeters
    /// A fix with no road within this distance is dropped, metres.
    public static let outlierMeters = 200.0
    /// Segments a fix may be matched to (each once or twice: per direction).
    public static let maximumCandidates = 10
    /// A fix this close to the last one kept joins it (a stop), metres: 3σ (the paper takes 2σ; 3σ keeps
    /// noise from moving a slow trace backwards).
    static let collapseMeters = 3 * sigmaMeters
    /// Fixes skipped in a row before the chain is cut into a new piece.
    public static let maximumSkips = 3
    /// Two fixes farther apart than this are not joined by a route (a flight, a lost day), metres.
    public static let maximumGapMeters = 20_000.0
    /// A fix off the chord of its neighbours by more than this, twice as far from them as they are from each other, is an outlier, metres.
    static let outlierDeviationMeters = 100.0
    /// A road stretch shorter than this between two others is left out of the roads list (a
    /// crossing's corner), metres.
    static let minimumRoadMeters = 30.0

    let graph: MapMatchGraph
    var search: MapMatchSearch
    /// ``candidates(_:radiusMeters:)``'s working arrays, kept from fix to fix (growing three arrays for every fix
    /// was a twentieth of matching's time in malloc and free).
    private var found: [(segment: Int32, fraction: Double, squared: Double)] = []
    private var beaten: [Int32] = [], nodesTaken: [Int32] = []

    init(graph: RoadGraph, mode: DirectionsMode) {
        self.graph = MapMatchGraph.shared(graph, mode: mode)
        search = MapMatchSearch(graph: self.graph)
    }

    private static let metersPerDegree = WGS84.semiMajorAxisMeters * .pi / 180

    /// Planar distance of two nearby points (local equirectangular projection), metres.
    static func planarMeters(_ a: Coordinate, _ b: Coordinate) -> Double {
        let x = (b.longitude - a.longitude) * cos((a.latitude + b.latitude) / 2 * .pi / 180)
        let y = b.latitude - a.latitude
        return (x * x + y * y).squareRoot() * metersPerDegree
    }

    /// The candidates of a fix: per segment within `radius`, its nearest point, once per direction the mode may travel
    /// it; the nearest first.
    mutating func candidates(_ fix: Coordinate, radiusMeters: Double) -> [MapMatchCandidate] {
        let roads = graph.graph
        let cosine = cos(fix.latitude * .pi / 180)
        let perLongitude = Self.metersPerDegree * cosine, perLatitude = Self.metersPerDegree
        let latitudeReach = radiusMeters / perLatitude, longitudeReach = radiusMeters / max(perLongitude, 1)
        found.removeAll(keepingCapacity: true)
        let radiusSquared = radiusMeters * radiusMeters
        // The reach as a box in the graph's 1e-7° integers: the grid gives only the segments whose boxes meet it.
        let south = Int64(((fix.latitude - latitudeReach) * 1e7).rounded(.down)), north = Int64(((fix.latitude + latitudeReach) * 1e7).rounded(.up))
        let west = Int64(((fix.longitude - longitudeReach) * 1e7).rounded(.down)), east = Int64(((fix.longitude + longitudeReach) * 1e7).rounded(.up))
        let from = roads.segmentFrom, to = roads.segmentTo, latitudes = roads.nodeLatitudeE7, longitudes = roads.nodeLongitudeE7
        roads.grid.segments(southE7: south, westE7: west, northE7: north, eastE7: east) { index in
            let segment = Int(index)
            let a = Int(from[segment]), b = Int(to[segment])
            guard graph.usable(index, forward: true) || graph.usable(index, forward: false) else { return }
            let ax = (Double(longitudes[a]) / 1e7 - fix.longitude) * perLongitude
            let ay = (Double(latitudes[a]) / 1e7 - fix.latitude) * perLatitude
            let bx = (Double(longitudes[b]) / 1e7 - fix.longitude) * perLongitude
            let by = (Double(latitudes[b]) / 1e7 - fix.latitude) * perLatitude
            let dx = bx - ax, dy = by - ay
            let lengthSquared = dx * dx + dy * dy
            let t = lengthSquared > 0 ? min(1, max(0, -(ax * dx + ay * dy) / lengthSquared)) : 0
            let px = ax + t * dx, py = ay + t * dy
            let squared = px * px + py * py
            guard squared <= radiusSquared else { return }
            found.append((index, t, squared))
        }
        // A segment in several of the grid's cells was found once per cell: the copies sort next to each other.
        found.sort { ($0.squared, $0.segment) < ($1.squared, $1.segment) }
        // A segment whose nearest point is one of its nodes is a candidate only when that node is
        // nearer than every segment through it (a corner): otherwise a road of short segments
        // would fill the candidates with its nodes and crowd out the other roads. (Arrays: a few
        // dozen nodes at most, and sets' hashing was a tenth of matching.)
        beaten.removeAll(keepingCapacity: true)
        nodesTaken.removeAll(keepingCapacity: true)
        for item in found where item.fraction > 0 && item.fraction < 1 {
            beaten.append(roads.segmentFrom[Int(item.segment)])
            beaten.append(roads.segmentTo[Int(item.segment)])
        }
        var result: [MapMatchCandidate] = []
        result.reserveCapacity(2 * Self.maximumCandidates)
        var segmentsTaken = 0
        var previous: Int32 = -1
        for item in found {
            guard item.segment != previous else { continue }
            previous = item.segment
            if item.fraction == 0 || item.fraction == 1 {
                let node = item.fraction == 0 ? roads.segmentFrom[Int(item.segment)] : roads.segmentTo[Int(item.segment)]
                guard !beaten.contains(node), !nodesTaken.contains(node) else { continue }
                nodesTaken.append(node)
            }
            let a = roads.coordinate(ofNode: roads.segmentFrom[Int(item.segment)])
            let b = roads.coordinate(ofNode: roads.segmentTo[Int(item.segment)])
            let point = Coordinate(validLatitude: a.latitude + item.fraction * (b.latitude - a.latitude),
                                   longitude: a.longitude + item.fraction * (b.longitude - a.longitude)) ?? a
            for direction in Int32(0)...1 where graph.usable(item.segment, forward: direction == 0) {
                result.append(MapMatchCandidate(segment: item.segment, direction: direction, fraction: item.fraction, coordinate: point,
                                                distanceMeters: item.squared.squareRoot(), lengthCentimeters: graph.lengthCentimeters(item.segment)))
            }
            segmentsTaken += 1
            if segmentsTaken == Self.maximumCandidates { break }
        }
        return result
    }

    /// The Viterbi columns of the piece being matched, flat: column `c` is a kept fix, `fixes[c]`, and its candidates
    /// are `candidates[starts[c] ..< starts[c + 1]]`, each with the best candidate of the column before (its index in
    /// that column), the road distance from it and the junctions its route passed. (A struct of four arrays per
    /// column was four allocations a fix, each asking the runtime for the arrays' generic metadata.)
    private struct Lattice {
        var fixes: [Int] = []
        var starts: [Int] = [0]
        var candidates: [MapMatchCandidate] = []
        var back: [Int] = []
        /// The road distance from the chosen candidate before (centimetres; 0 in a first column).
        var backCentimeters: [Int64] = []
        /// The nodes the route from the chosen candidate before passed shortly before this one.
        var behind: [[MapMatchJunction]] = []

        var count: Int { fixes.count }
        /// Where the last column's candidates start.
        var lastStart: Int { starts[starts.count - 2] }

        mutating func removeAll() {
            fixes.removeAll(keepingCapacity: true)
            starts.removeAll(keepingCapacity: true)
            starts.append(0)
            candidates.removeAll(keepingCapacity: true)
            back.removeAll(keepingCapacity: true)
            backCentimeters.removeAll(keepingCapacity: true)
            behind.removeAll(keepingCapacity: true)
        }

        mutating func append(fix: Int, candidates layer: [MapMatchCandidate], back: [Int], backCentimeters: [Int64], behind: [[MapMatchJunction]]) {
            fixes.append(fix)
            candidates.append(contentsOf: layer)
            starts.append(candidates.count)
            self.back.append(contentsOf: back)
            self.backCentimeters.append(contentsOf: backCentimeters)
            self.behind.append(contentsOf: behind)
        }

        /// Viterbi's backtracking from the best last score: per column, the chosen candidate's index.
        func backtracked(_ scores: [Double]) -> [Int] {
            var choice = scores.indices.max(by: { scores[$0] < scores[$1] }) ?? 0
            var chosen = [Int](repeating: 0, count: count)
            for column in stride(from: count - 1, through: 0, by: -1) {
                let index = starts[column] + choice
                chosen[column] = index
                choice = back[index]
            }
            return chosen
        }
    }

    /// Matches a trace: fixes in the order recorded.
    /// - Complexity: per kept fix, a grid lookup and up to ``maximumCandidates`` Dijkstra searches bounded by the
    ///   distance to the next fix.
    mutating func match(_ fixes: [Coordinate]) -> MapMatch {
        var drops = [MapMatchDrop?](repeating: nil, count: fixes.count)
        var representative = Array(0..<fixes.count)
        var candidatesOf = [[MapMatchCandidate]](repeating: [], count: fixes.count)
        // Stops collapse; fixes far from every road are dropped.
        var kept: [Int] = []
        for (index, fix) in fixes.enumerated() {
            // The last fix ends the line where the trace ends, unless it repeats the one before.
            let closeToKept = kept.last.map { Self.planarMeters(fixes[$0], fix) < (index == fixes.count - 1 ? 1 : Self.collapseMeters) }
            if let last = kept.last, closeToKept == true {
                representative[index] = last
                continue
            }
            var found = candidates(fix, radiusMeters: Self.searchRadiusMeters)
            if found.isEmpty { found = Array(candidates(fix, radiusMeters: Self.outlierMeters).prefix(6)) }
            guard !found.isEmpty else {
                drops[index] = .noRoadNearby
                continue
            }
            candidatesOf[index] = found
            kept.append(index)
        }
        // A jump out and back: far off the chord of its neighbours, and far from both.
        var filtered: [Int] = []
        for (position, index) in kept.enumerated() {
            if let previous = filtered.last, position + 1 < kept.count {
                let next = fixes[kept[position + 1]]
                let toPrevious = Self.planarMeters(fixes[previous], fixes[index]), toNext = Self.planarMeters(fixes[index], next)
                let chord = Self.planarMeters(fixes[previous], next)
                let deviation = Self.deviationMeters(fixes[index], fixes[previous], next)
                if deviation > Self.outlierDeviationMeters && toPrevious + toNext > 2 * max(chord, 1) {
                    drops[index] = .outlier
                    continue
                }
            }
            filtered.append(index)
        }

        var pieces: [[MapMatchCandidate]] = []
        var pieceFixes: [[Int]] = []
        var pieceCentimeters: [[Int64]] = []
        var pieceBehind: [[[MapMatchJunction]]] = []
        var lattice = Lattice()
        var scores: [Double] = []
        var skipped: [Int] = []
        var position = 0
        // A column's working arrays and the searches' distances, one of each for all of them.
        var next: [Double] = [], back: [Int] = [], backCentimeters: [Int64] = [], behind: [[MapMatchJunction]] = []
        var order: [Int] = [], reached: [Int64] = []
        func finishPiece() {
            if lattice.count >= 2 {
                let chosen = lattice.backtracked(scores)
                pieces.append(chosen.map { lattice.candidates[$0] })
                pieceFixes.append(lattice.fixes)
                pieceCentimeters.append(chosen.map { lattice.backCentimeters[$0] })
                pieceBehind.append(chosen.map { lattice.behind[$0] })
            } else {
                for fix in lattice.fixes { drops[fix] = .unreachable }
            }
            lattice.removeAll()
            scores.removeAll(keepingCapacity: true)
        }
        while position < filtered.count {
            let index = filtered[position]
            position += 1
            let layer = candidatesOf[index]
            guard let lastFix = lattice.fixes.last else {
                lattice.append(fix: index, candidates: layer, back: Array(repeating: -1, count: layer.count),
                               backCentimeters: Array(repeating: 0, count: layer.count), behind: Array(repeating: [], count: layer.count))
                scores = layer.map { Self.emission($0) }
                continue
            }
            let lastStart = lattice.lastStart
            let straight = Self.planarMeters(fixes[lastFix], fixes[index])
            next.removeAll(keepingCapacity: true)
            next.append(contentsOf: repeatElement(-.infinity, count: layer.count))
            back.removeAll(keepingCapacity: true)
            back.append(contentsOf: repeatElement(-1, count: layer.count))
            backCentimeters.removeAll(keepingCapacity: true)
            backCentimeters.append(contentsOf: repeatElement(0, count: layer.count))
            behind.removeAll(keepingCapacity: true)
            behind.append(contentsOf: repeatElement([], count: layer.count))
            if straight <= Self.maximumGapMeters {
                let wholeBound = Int64(((2 * straight + 200) * 100).rounded())
                var bestNext = -Double.infinity
                func relax(_ from: Int, boundCentimeters: Int64) {
                    let source = lattice.candidates[lastStart + from], sourceBehind = lattice.behind[lastStart + from]
                    search.distances(from: source, behind: sourceBehind, to: layer, boundCentimeters: boundCentimeters, into: &reached)
                    for (to, centimeters) in reached.enumerated() where centimeters >= 0 {
                        let score = scores[from] - abs(Double(centimeters) / 100 - straight) / Self.betaMeters
                        if score > next[to] {
                            next[to] = score
                            back[to] = from
                            backCentimeters[to] = centimeters
                            behind[to] = search.junctions(before: layer[to], from: source, sourceBehind: sourceBehind)
                            bestNext = max(bestNext, score)
                        }
                    }
                }
                // The beam: the most likely candidates first, each searched only as far as a route could still
                // end within `beamMargin` of the best score found (a source's best is its own score, at a road
                // distance equal to the straight one); a source that cannot is not searched at all.
                order.removeAll(keepingCapacity: true)
                for from in scores.indices where scores[from] > -.infinity { order.append(from) }
                order.sort { scores[$0] > scores[$1] }
                let top = order.first.map { scores[$0] } ?? -.infinity
                for from in order {
                    let slack = scores[from] - ((bestNext > -.infinity ? bestNext : top) - Self.beamMargin)
                    guard slack > 0 else { break }
                    let bound = Int64(((straight + Self.betaMeters * slack) * 100).rounded())
                    relax(from, boundCentimeters: min(wholeBound, bound))
                }
                // Nothing within the beam: a detour longer than the straight line by more than the beam allows
                // (a hairpin, a one-way loop): every candidate again, as far as the whole bound.
                if bestNext == -.infinity, top > -.infinity {
                    for from in order { relax(from, boundCentimeters: wholeBound) }
                }
            }
            guard let best = next.max(), best > -.infinity else {
                skipped.append(index)
                if skipped.count > Self.maximumSkips {
                    // No road joins them: the chain is cut, and the skipped fixes start the next piece.
                    finishPiece()
                    position -= skipped.count
                    skipped = []
                }
                continue
            }
            for fix in skipped { drops[fix] = .unreachable }
            skipped = []
            scores.removeAll(keepingCapacity: true)
            for (score, candidate) in zip(next, layer) { scores.append(score - best + Self.emission(candidate)) }
            lattice.append(fix: index, candidates: layer, back: back, backCentimeters: backCentimeters, behind: behind)
        }
        for fix in skipped { drops[fix] = .unreachable }
        finishPiece()
        return assemble(fixes, pieces: pieces, fixIndices: pieceFixes, centimeters: pieceCentimeters, behind: pieceBehind, drops: drops,
                        representative: representative)
    }

    private static func emission(_ candidate: MapMatchCandidate) -> Double {
        let z = candidate.distanceMeters / sigmaMeters
        return -0.5 * z * z
    }

    /// The distance of a point from the straight line between two others (planar), metres.
    static func deviationMeters(_ point: Coordinate, _ a: Coordinate, _ b: Coordinate) -> Double {
        let cosine = cos(point.latitude * .pi / 180)
        let ax = (a.longitude - point.longitude) * cosine, ay = a.latitude - point.latitude
        let bx = (b.longitude - point.longitude) * cosine, by = b.latitude - point.latitude
        let dx = bx - ax, dy = by - ay
        let lengthSquared = dx * dx + dy * dy
        let t = lengthSquared > 0 ? min(1, max(0, -(ax * dx + ay * dy) / lengthSquared)) : 0
        let px = ax + t * dx, py = ay + t * dy
        return (px * px + py * py).squareRoot() * metersPerDegree
    }
}
