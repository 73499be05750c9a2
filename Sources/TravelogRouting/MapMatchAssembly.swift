import Foundation
import TravelogCore

extension MapMatcher {
    /// One stretch of a matched route: part or all of a segment, in travel order; negative metres go back
    /// to a node the route passed.
    private struct Stretch {
        let segment: Int32
        let meters: Double
        let end: Coordinate
    }

    /// The line, length, roads and fixes of the chosen candidates: consecutive candidates of a
    /// piece joined by their road routes.
    /// - Parameters:
    ///   - centimeters: per piece and candidate, the road distance Viterbi found from the one before: the route is
    ///     searched again only that far.
    ///   - behind: per piece and candidate, the nodes its route passed shortly before it (``MapMatchSearch/distances(from:behind:to:boundCentimeters:)``).
    mutating func assemble(_ fixes: [Coordinate], pieces: [[MapMatchCandidate]], fixIndices: [[Int]], centimeters: [[Int64]],
                           behind: [[[MapMatchJunction]]], drops: [MapMatchDrop?], representative: [Int]) -> MapMatch {
        var lines: [[Coordinate]] = []
        var meters = 0.0
        var runs: [(name: String?, meters: Double)] = []
        // The name index of the last run's stretch: a stretch of the same road joins it without decoding its name
        // again (a string for every stretch was a twentieth of matching's time); -2 after a way back changed the runs.
        var lastName: Int32 = -2
        var matched: [Int: (Coordinate, Int)] = [:]
        for (pieceIndex, (piece, indices)) in zip(pieces, fixIndices).enumerated() {
            let distances = centimeters[pieceIndex]
            guard let first = piece.first else { continue }
            var line = [first.coordinate]
            matched[indices[0]] = (first.coordinate, pieceIndex)
            for step in 1..<piece.count {
                let source = piece[step - 1], target = piece[step]
                matched[indices[step]] = (target.coordinate, pieceIndex)
                for stretch in stretches(from: source, behind: behind[pieceIndex][step - 1], to: target, boundCentimeters: distances[step]) {
                    meters += stretch.meters
                    if stretch.meters < 0 {
                        // Back to a node the route passed (the fix lay past it): the line is cut back to it.
                        if let at = line.suffix(8).lastIndex(of: stretch.end) { line.removeSubrange((at + 1)...) } else { line.append(stretch.end) }
                        Self.goBack(-stretch.meters, in: &runs)
                        lastName = -2
                        continue
                    }
                    if line.last != stretch.end { line.append(stretch.end) }
                    let nameIndex = graph.graph.nameIndex(ofSegment: Int(stretch.segment))
                    if nameIndex == lastName, !runs.isEmpty {
                        runs[runs.count - 1].meters += stretch.meters
                        continue
                    }
                    lastName = nameIndex
                    let name = graph.graph.name(atIndex: nameIndex)
                    if let last = runs.last, last.name == name {
                        runs[runs.count - 1].meters += stretch.meters
                    } else {
                        runs.append((name, stretch.meters))
                    }
                }
            }
            lines.append(line)
        }
        let results = fixes.indices.map { index -> MapMatchedFix in
            if let drop = drops[index] { return MapMatchedFix(matched: nil, piece: nil, dropped: drop) }
            let owner = representative[index]
            if let (point, piece) = matched[owner] { return MapMatchedFix(matched: point, piece: piece, dropped: nil) }
            return MapMatchedFix(matched: nil, piece: nil, dropped: drops[owner] ?? .unreachable)
        }
        return MapMatch(mode: graph.mode, pieces: lines, distanceMeters: meters, rawDistanceMeters: Self.rawMeters(fixes),
                        roads: Self.roads(runs), fixes: results)
    }

    /// The stretches of the road route from one candidate to the next (the straight way between
    /// them when, against expectation, the search finds none a second time).
    private mutating func stretches(from source: MapMatchCandidate, behind: [MapMatchJunction], to target: MapMatchCandidate,
                                    boundCentimeters: Int64) -> [Stretch] {
        guard let (states, _, backCentimeters) = search.path(from: source, behind: behind, to: target, boundCentimeters: boundCentimeters) else {
            return [Stretch(segment: target.segment, meters: Self.planarMeters(source.coordinate, target.coordinate), end: target.coordinate)]
        }
        // A route that leaves from a node behind the source (``MapMatchSearch/junctionStart``) goes back to it first.
        let fromJunction = backCentimeters != nil
        guard states.count > 1 || fromJunction, let first = states.first, let last = states.last else {
            // Along one segment (turning round on it is in `centimeters` as a penalty, not as distance).
            let meters = Double(graph.lengthCentimeters(target.segment)) / 100 * abs(target.fraction - source.fraction)
            return [Stretch(segment: target.segment, meters: meters, end: target.coordinate)]
        }
        let roads = graph.graph
        var result: [Stretch] = []
        let sourceLength = Double(graph.lengthCentimeters(source.segment)) / 100
        if let backCentimeters {
            // The way back is the fix's noise, not travel: it takes off what the route ran past the node.
            result.append(Stretch(segment: source.segment, meters: -Double(backCentimeters) / 100, end: roads.coordinate(ofNode: graph.tail(ofState: first))))
        } else {
            let leaving = first & 1 == 0 ? 1 - source.fraction : source.fraction
            result.append(Stretch(segment: source.segment, meters: sourceLength * leaving, end: roads.coordinate(ofNode: graph.head(ofState: first))))
        }
        for state in (fromJunction ? states.dropLast() : states.dropFirst().dropLast()) {
            result.append(Stretch(segment: state >> 1, meters: Double(graph.lengthCentimeters(state >> 1)) / 100,
                                  end: roads.coordinate(ofNode: graph.head(ofState: state))))
        }
        let targetLength = Double(graph.lengthCentimeters(target.segment)) / 100
        let entering = last & 1 == 0 ? target.fraction : 1 - target.fraction
        result.append(Stretch(segment: target.segment, meters: targetLength * entering, end: target.coordinate))
        return result
    }

    /// The trace's own length, fix to fix, metres: the geodesic's (Karney's, as the journal measures) for steps of a
    /// kilometre or more, and for shorter ones the distance on the ellipsoid's tangent plane at their middle latitude
    /// (the meridian's and the prime vertical's radii of curvature there), which agrees with it within a millionth
    /// (`rawMetersAgreeWithTheGeodesic`): the geodesic was 5 % of map matching, and with it gone matching measured 5 % faster.
    static func rawMeters(_ fixes: [Coordinate]) -> Double {
        var total = 0.0
        for (a, b) in zip(fixes, fixes.dropFirst()) {
            if let near = tangentPlaneMeters(a, b) { total += near } else { total += a.distanceMeters(to: b) }
        }
        return total
    }

    /// The distance of two points on the ellipsoid's tangent plane at their middle latitude, metres; `nil` when it might
    /// not agree with the geodesic within a millionth: a kilometre or more apart, or turning round a pole (the meridians
    /// converge by the longitude's difference times the latitude's sine: more than 2 mrad bends the line too much).
    static func tangentPlaneMeters(_ a: Coordinate, _ b: Coordinate) -> Double? {
        let middle = (a.latitude + b.latitude) / 2 * .pi / 180
        var longitude = b.longitude - a.longitude
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        let sine = sin(middle)
        guard abs(longitude * .pi / 180 * sine) < 0.002 else { return nil }
        let w = (1 - WGS84.eccentricitySquared * sine * sine).squareRoot()
        let primeVertical = WGS84.semiMajorAxisMeters / w
        let meridian = WGS84.semiMajorAxisMeters * (1 - WGS84.eccentricitySquared) / (w * w * w)
        let north = (b.latitude - a.latitude) * .pi / 180 * meridian
        let east = longitude * .pi / 180 * primeVertical * cos(middle)
        let meters = (north * north + east * east).squareRoot()
        return meters < 1_000 ? meters : nil
    }

    /// Takes a way back to a node the route passed off the runs it overran (the last first): a run left
    /// with nothing (a few metres up the road not taken) goes, so the road after it joins the run before.
    static func goBack(_ meters: Double, in runs: inout [(name: String?, meters: Double)]) {
        var left = meters
        while left > 0, let last = runs.last {
            // A centimetre's rounding is no run.
            if last.meters > left + 0.01 {
                runs[runs.count - 1].meters -= left
                return
            }
            left -= last.meters
            runs.removeLast()
        }
    }

    /// The names of the runs of one road, a short run of another road between two left out, each
    /// name once per stretch.
    static func roads(_ runs: [(name: String?, meters: Double)]) -> [String] {
        let long = runs.count > 1 ? runs.filter { $0.meters >= minimumRoadMeters } : runs
        var names: [String] = []
        for run in (long.isEmpty ? runs : long) {
            guard let name = run.name, names.last != name else { continue }
            names.append(name)
        }
        return names
    }
}
