import TravelogCore

extension RoadNetwork {
    /// Matches a trace to the roads of the newest extract that covers most of its fixes
    /// (``MapMatcher``: Newson & Krumm 2009).
    /// - Parameter fixes: the trace's positions in the order recorded.
    /// - Throws: ``MapMatchError``.
    /// - Complexity: per fix, a grid lookup and a few Dijkstra searches bounded by the distance to the next fix.
    public func match(_ fixes: [Coordinate], mode: DirectionsMode) throws(MapMatchError) -> MapMatch {
        guard !graphs.isEmpty else { throw .noRoadNetwork }
        guard !fixes.isEmpty else { throw .noFixes }
        var best: (graph: RoadGraph, covered: Int)?
        for graph in graphs {
            let covered = fixes.count(where: graph.covers)
            if covered > 0, covered >= best?.covered ?? 0 { best = (graph, covered) }
        }
        guard let graph = best?.graph else { throw .outsideCoverage }
        var matcher = MapMatcher(graph: graph, mode: mode)
        let match = matcher.match(fixes)
        guard match.matchedFixCount > 0 else { throw .nothingMatched(mode: mode, fixes: fixes.count) }
        return match
    }
}
