import Foundation
import TravelogCore

/// The road graphs of the extracts added (`travelog osm add`), newest last: directions between two
/// points on the newest graph that covers both.
public final class RoadNetwork: Sendable {
    public let graphs: [RoadGraph]
    /// How far from a road a point may lie and still be snapped onto it, in metres.
    public static let maximumSnapMeters = 1_000.0

    public init(graphs: [RoadGraph]) {
        self.graphs = graphs
    }

    /// The graph files in a folder of extracts, oldest first (the places files' order).
    /// - Throws: ``RoadGraphFileError`` for a damaged file.
    public static func open(folder: String, names: [String]) throws(RoadGraphFileError) -> RoadNetwork {
        var graphs: [RoadGraph] = []
        for name in names {
            let path = filePath(folder: folder, name: name)
            guard FileManager.default.fileExists(atPath: path) else { continue }
            graphs.append(try RoadGraph(contentsOfFile: path))
        }
        return RoadNetwork(graphs: graphs)
    }

    /// The path of an extract's graph file: `NAME.tlroute` in the folder.
    public static func filePath(folder: String, name: String) -> String { folder + "/" + name + "." + RoadGraphFile.fileExtension }

    /// A route between two points.
    /// - Throws: ``DirectionsError`` naming the end at fault and why.
    /// - Complexity: two snaps and a hierarchy search: micro- to milliseconds.
    public func route(from: Coordinate, to: Coordinate, mode: DirectionsMode) throws(DirectionsError) -> Route {
        guard !graphs.isEmpty else { throw .noRoadNetwork }
        let fromGraphs = graphs.filter { $0.covers(from) }
        guard !fromGraphs.isEmpty else { throw .outsideCoverage(end: .from, latitude: from.latitude, longitude: from.longitude) }
        guard graphs.contains(where: { $0.covers(to) }) else { throw .outsideCoverage(end: .to, latitude: to.latitude, longitude: to.longitude) }
        guard let graph = fromGraphs.last(where: { $0.covers(to) }) else { throw .differentExtracts }
        return try graph.route(from: from, to: to, mode: mode, maximumSnapMeters: Self.maximumSnapMeters)
    }

    /// The extracts' coverage as a GeoJSON MultiPolygon (one rectangle per extract, counter-clockwise).
    public func coverageGeoJSON() -> String {
        let polygons = graphs.map { graph in
            let corners = [(graph.minimumLongitude, graph.minimumLatitude), (graph.maximumLongitude, graph.minimumLatitude),
                           (graph.maximumLongitude, graph.maximumLatitude), (graph.minimumLongitude, graph.maximumLatitude),
                           (graph.minimumLongitude, graph.minimumLatitude)]
            return "[[" + corners.map { "[\(Self.number($0.0)),\(Self.number($0.1))]" }.joined(separator: ",") + "]]"
        }
        return #"{"type":"MultiPolygon","coordinates":["# + polygons.joined(separator: ",") + "]}"
    }

    static func number(_ value: Double) -> String { String(format: "%.7f", value) }
}

extension RoadGraph {
    /// A route on this graph.
    /// - Throws: ``DirectionsError``.
    public func route(from: Coordinate, to: Coordinate, mode: DirectionsMode, maximumSnapMeters: Double) throws(DirectionsError) -> Route {
        guard let source = snap(from, mode: mode, maximumMeters: maximumSnapMeters) else {
            throw .noRoadNearby(end: .from, mode: mode, withinMeters: maximumSnapMeters)
        }
        guard let target = snap(to, mode: mode, maximumMeters: maximumSnapMeters) else {
            throw .noRoadNearby(end: .to, mode: mode, withinMeters: maximumSnapMeters)
        }
        var searched = (forward: 0, backward: 0)
        if let path = bestPath(from: source, to: target, mode: mode, searched: &searched) {
            return route(path, from: source, to: target, requested: (from, to), mode: mode)
        }
        // Not connected: an end on roads cut off from the rest (a one-way street leaving the
        // extract, a private yard, an island) starts from the nearest connected road instead, when
        // one is near; otherwise that end is named.
        let sourceConnected = isConnected(segment: source.segment, mode: mode)
        let targetConnected = isConnected(segment: target.segment, mode: mode)
        let limit = min(maximumSnapMeters, Self.maximumDetourSnapMeters)
        let connectedSource = sourceConnected ? source : snap(from, mode: mode, maximumMeters: limit, connectedOnly: true)
        let connectedTarget = targetConnected ? target : snap(to, mode: mode, maximumMeters: limit, connectedOnly: true)
        guard let connectedSource else { throw .notConnected(mode: mode, unreachable: .from) }
        guard let connectedTarget else { throw .notConnected(mode: mode, unreachable: .to) }
        guard let path = bestPath(from: connectedSource, to: connectedTarget, mode: mode, searched: &searched) else {
            throw .notConnected(mode: mode, unreachable: .to)
        }
        return route(path, from: connectedSource, to: connectedTarget, requested: (from, to), mode: mode)
    }

    /// How far an end on cut-off roads may be moved onto the connected network, in metres.
    static let maximumDetourSnapMeters = 500.0


    func route(_ path: StatePath, from source: SnappedPoint, to target: SnappedPoint,
               requested: (Coordinate, Coordinate), mode: DirectionsMode) -> Route {
        let pieces = pieces(of: path, from: source, to: target, mode: mode)
        var polyline: [Coordinate] = [source.coordinate]
        for piece in pieces where piece.end != polyline[polyline.count - 1] { polyline.append(piece.end) }
        let steps = RouteInstructions.steps(pieces, graph: self, mode: mode)
        var byName: [String: Double] = [:]
        for step in steps { if let name = step.roadName { byName[name, default: 0] += step.distanceMeters } }
        let routeName = byName.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(2).map(\.key).joined(separator: ", ")
        return Route(mode: mode, distanceMeters: pieces.reduce(0) { $0 + $1.distanceMeters },
                     expectedTravelTimeSeconds: pieces.reduce(0) { $0 + $1.seconds }, polyline: polyline, steps: steps,
                     source: RouteEndpoint(requested: requested.0, snapped: source.coordinate, snapDistanceMeters: source.distanceMeters,
                                           roadName: name(ofSegment: source.segment)),
                     destination: RouteEndpoint(requested: requested.1, snapped: target.coordinate, snapDistanceMeters: target.distanceMeters,
                                                roadName: name(ofSegment: target.segment)),
                     name: routeName, cost: path.cost, states: path.states)
    }
}
