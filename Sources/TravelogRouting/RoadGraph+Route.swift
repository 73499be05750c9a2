import TravelogCore

extension RoadGraph {
    /// The search ends for two snapped points: the source's segment in each direction the mode may
    /// travel it (the part from the point to the segment's end already spent), the destination's
    /// likewise (the part beyond the point given back).
    func searchEnds(from source: SnappedPoint, to target: SnappedPoint, mode: DirectionsMode) -> SearchEnds {
        var ends = SearchEnds()
        for direction in 0..<2 {
            let sourceState = Int32(2 * source.segment + direction)
            let sourceCost = cost(ofState: sourceState, mode: mode)
            if sourceCost != TurnGraph.unusable {
                let remaining = direction == 0 ? 1 - source.fraction : source.fraction
                ends.sources.append((sourceState, Int64((Double(sourceCost) * remaining).rounded())))
            }
            let targetState = Int32(2 * target.segment + direction)
            let targetCost = cost(ofState: targetState, mode: mode)
            if targetCost != TurnGraph.unusable {
                let beyond = direction == 0 ? 1 - target.fraction : target.fraction
                ends.targets.append((targetState, -Int64((Double(targetCost) * beyond).rounded())))
            }
        }
        return ends
    }

    /// The direct way along one segment when both points lie on it and the mode may go from one to
    /// the other along it: the state and its cost.
    func directPath(from source: SnappedPoint, to target: SnappedPoint, mode: DirectionsMode) -> StatePath? {
        guard source.segment == target.segment else { return nil }
        let direction = target.fraction >= source.fraction ? 0 : 1
        let state = Int32(2 * source.segment + direction)
        let cost = cost(ofState: state, mode: mode)
        guard cost != TurnGraph.unusable else { return nil }
        return StatePath(states: [state], cost: Int64((Double(cost) * abs(target.fraction - source.fraction)).rounded()))
    }

    /// The cheapest of the direct way and the hierarchy's path.
    func bestPath(from source: SnappedPoint, to target: SnappedPoint, mode: DirectionsMode,
                  searched: inout (forward: Int, backward: Int)) -> StatePath? {
        let direct = directPath(from: source, to: target, mode: mode)
        let searchedPath = hierarchySearch(searchEnds(from: source, to: target, mode: mode), mode: mode, searched: &searched)
        guard let searchedPath else { return direct }
        guard let direct else { return searchedPath }
        return direct.cost <= searchedPath.cost ? direct : searchedPath
    }

    /// One piece of a route: a state's segment between two fractions of it, in travel order.
    struct Piece {
        let state: Int32
        let start: Coordinate
        let end: Coordinate
        let distanceMeters: Double
        let seconds: Double
    }

    /// The pieces of a path between two snapped points.
    func pieces(of path: StatePath, from source: SnappedPoint, to target: SnappedPoint, mode: DirectionsMode) -> [Piece] {
        var pieces: [Piece] = []
        for (index, state) in path.states.enumerated() {
            let segment = Int(state >> 1), forward = state & 1 == 0
            // Fractions measured along the direction of travel.
            var startFraction = 0.0, endFraction = 1.0
            if index == 0 { startFraction = forward ? source.fraction : 1 - source.fraction }
            if index == path.states.count - 1 { endFraction = forward ? target.fraction : 1 - target.fraction }
            let tail = coordinate(ofNode: forward ? segmentFrom[segment] : segmentTo[segment])
            let head = coordinate(ofNode: forward ? segmentTo[segment] : segmentFrom[segment])
            func point(_ fraction: Double) -> Coordinate {
                if fraction <= 0 { return tail }
                if fraction >= 1 { return head }
                return Coordinate(validLatitude: tail.latitude + fraction * (head.latitude - tail.latitude),
                                  longitude: tail.longitude + fraction * (head.longitude - tail.longitude)) ?? tail
            }
            let share = max(0, endFraction - startFraction)
            let meters = Double(segmentLengthCentimeters[segment]) / 100 * share
            let speed = mode == .walking ? Double(RoadProfile.walkingSpeed) : Double(segmentSpeed[3 * segment + mode.index])
            pieces.append(Piece(state: state, start: point(startFraction), end: point(endFraction),
                                distanceMeters: meters, seconds: meters / (max(1, speed) / 3.6)))
        }
        return pieces
    }
}
