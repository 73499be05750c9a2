import Foundation
import Testing
import TravelogCore
import TravelogOSM
import TravelogTestSupport
@testable import TravelogRouting

/// The Helsinki extract `make osm-sample` puts in `.build-data/`, its graph built once for the suite.
enum HelsinkiGraph {
    static let fileName = "Helsinki.osm.pbf"
    static var available: Bool { BuildData.exists(fileName) }
    static var absentReason: Comment {
        BuildData.absentReason(fileName, goal: "osm-sample", checks: "routing on a real extract against plain Dijkstra")
    }

    static let graph: Result<RoadGraph, any Error> = Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("travelog-routing-\(ProcessInfo.processInfo.processIdentifier)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return try RoadGraph.build(extractPath: BuildData.path(fileName), outputPath: folder + "/Helsinki.tlroute")
    }
}

@Suite("Routing on the Helsinki extract", .enabled(if: HelsinkiGraph.available, HelsinkiGraph.absentReason))
struct HelsinkiRoutingTests {
    /// Pairs per mode (`TRAVELOG_ROUTING_PAIRS` asks for more): 300 take about 6 s beyond the graph's
    /// build in a debug build.
    static let pairs = Int(ProcessInfo.processInfo.environment["TRAVELOG_ROUTING_PAIRS"] ?? "") ?? 300

    /// Random points near the roads: a random node of the graph moved up to ~150 m.
    static func randomPoints(_ graph: RoadGraph, count: Int, seed: UInt64) -> [Coordinate] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let node = Int32.random(in: 0..<Int32(graph.nodeCount), using: &random)
            let base = graph.coordinate(ofNode: node)
            return Coordinate(validLatitude: base.latitude + Double.random(in: -0.0013...0.0013, using: &random),
                              longitude: base.longitude + Double.random(in: -0.0025...0.0025, using: &random)) ?? base
        }
    }

    @Test("routes between 300 random pairs (TRAVELOG_ROUTING_PAIRS) start and end at the snapped points, follow allowed edges and turns, add up their steps, and cost what plain Dijkstra's do (within 0.1 %)",
          arguments: DirectionsMode.allCases)
    func routesAgreeWithDijkstra(mode: DirectionsMode) throws {
        let graph = try HelsinkiGraph.graph.get()
        let turns = TurnGraph(graph.data(), mode: mode)
        let points = Self.randomPoints(graph, count: 2 * Self.pairs, seed: 29 + UInt64(mode.index))
        var routed = 0, unconnected = 0
        for pair in 0..<Self.pairs {
            let from = points[2 * pair], to = points[2 * pair + 1]
            // Ends on the mode's connected network: every pair has a route.
            guard let source = graph.snap(from, mode: mode, maximumMeters: RoadNetwork.maximumSnapMeters, connectedOnly: true),
                  let target = graph.snap(to, mode: mode, maximumMeters: RoadNetwork.maximumSnapMeters, connectedOnly: true) else {
                Issue.record("a point next to a road (\(from) or \(to)) did not snap for \(mode)")
                continue
            }
            var searched = (forward: 0, backward: 0)
            let fast = graph.bestPath(from: source, to: target, mode: mode, searched: &searched)
            let ends = graph.searchEnds(from: source, to: target, mode: mode)
            var reference = turns.dijkstra(ends)
            if let direct = graph.directPath(from: source, to: target, mode: mode), direct.cost <= reference?.cost ?? .max { reference = direct }
            guard let fast, let reference else {
                #expect(fast == nil && reference == nil, "pair \(pair): hierarchy \(fast?.cost ?? -1), Dijkstra \(reference?.cost ?? -1)")
                unconnected += 1
                continue
            }
            routed += 1
            let difference = Double(abs(fast.cost - reference.cost))
            #expect(difference <= 0.001 * Double(reference.cost), "pair \(pair): \(fast.cost) vs Dijkstra \(reference.cost)")
            // Every state may be travelled by the mode, and every turn between two is one the turn graph offers.
            for state in fast.states { #expect(turns.cost[Int(state)] != TurnGraph.unusable, "pair \(pair): state \(state) not open to \(mode)") }
            for (a, b) in zip(fast.states, fast.states.dropFirst()) {
                #expect(turns.stateHead[Int(a)] == turns.stateTail[Int(b)], "pair \(pair): states \(a), \(b) do not join")
                #expect(turns.allows(from: a, to: b), "pair \(pair): turn \(a) → \(b) not allowed for \(mode)")
                #expect(!turns.isRestricted(from: a, to: b), "pair \(pair): a restricted turn \(a) → \(b)")
            }
            let route = graph.route(fast, from: source, to: target, requested: (from, to), mode: mode)
            #expect(route.polyline.first == source.coordinate && route.polyline.last == target.coordinate || route.polyline.count == 1)
            #expect(route.source.snapped == source.coordinate && route.destination.snapped == target.coordinate)
            let stepMeters = route.steps.reduce(0) { $0 + $1.distanceMeters }
            let stepSeconds = route.steps.reduce(0) { $0 + $1.expectedTravelTimeSeconds }
            #expect(abs(stepMeters - route.distanceMeters) <= 1e-6 * max(1, route.distanceMeters), "pair \(pair): steps \(stepMeters) m, route \(route.distanceMeters) m")
            #expect(abs(stepSeconds - route.expectedTravelTimeSeconds) <= 1e-6 * max(1, route.expectedTravelTimeSeconds))
            #expect(route.steps.first?.maneuver == "depart" || route.steps.first?.maneuver == "ferry")
            #expect(route.steps.last?.maneuver == "arrive")
            // The length follows from the cost: walking's cost is centimetres.
            if mode == .walking {
                let centimeters = route.distanceMeters * 100, cost = Double(fast.cost)
                #expect(abs(centimeters - cost) <= 2 + 0.001 * cost)
            }
        }
        #expect(routed == Self.pairs, "\(routed) routed, \(unconnected) not connected")
        // Through the public entry, ends snap onto the nearest road whatever its component, and move
        // onto the connected network only when theirs leads nowhere: nearly every pair is routed.
        let network = RoadNetwork(graphs: [graph])
        var failures: [String] = [], outside = 0
        for pair in 0..<Self.pairs {
            do {
                _ = try network.route(from: points[2 * pair], to: points[2 * pair + 1], mode: mode)
            } catch .outsideCoverage {
                outside += 1  // a point moved off a node at the extract's edge
            } catch {
                failures.append("\(error)")
            }
        }
        #expect(failures.count <= max(2, Self.pairs / 50), "\(failures.count) of \(Self.pairs - outside) pairs inside the extract without a route by \(mode): \(failures.prefix(3))")
    }

    @Test("points are snapped onto the nearest segment the mode may use, not its nearest node", arguments: DirectionsMode.allCases)
    func snapsOntoSegments(mode: DirectionsMode) throws {
        let graph = try HelsinkiGraph.graph.get()
        var closerThanNodes = 0, intoComponent = 0
        for point in Self.randomPoints(graph, count: 40, seed: 7 + UInt64(mode.index)) {
            let snapped = try #require(graph.snap(point, mode: mode, maximumMeters: RoadNetwork.maximumSnapMeters, connectedOnly: true))
            // Brute force over every segment open to the mode, by the same projection.
            var nearest = Double.infinity
            var nearestNode = Double.infinity
            var nearestUsable = Double.infinity
            // Segments in order of a cheap planar distance; the geodesic reference only for those that
            // may be nearest (the plane is within 1 % of it here), so the reference stays exact but quick.
            let candidates = (0..<graph.segmentCount).filter {
                graph.usable(segment: $0, direction: 0, mode: mode) || graph.usable(segment: $0, direction: 1, mode: mode)
            }.map { segment in
                (segment, Self.planarDistance(point, graph.coordinate(ofNode: graph.segmentFrom[segment]), graph.coordinate(ofNode: graph.segmentTo[segment])))
            }.sorted { $0.1 < $1.1 }
            for (segment, planar) in candidates {
                let a = graph.coordinate(ofNode: graph.segmentFrom[segment]), b = graph.coordinate(ofNode: graph.segmentTo[segment])
                if graph.segmentConnected[segment] & (1 << UInt8(mode.index)) != 0 {
                    nearestNode = min(nearestNode, a.distanceMeters(to: point), b.distanceMeters(to: point))
                }
                guard planar <= 1.02 * nearest + 1 else { continue }
                nearestUsable = min(nearestUsable, Self.distanceToSegment(point, a, b))
                guard graph.segmentConnected[segment] & (1 << UInt8(mode.index)) != 0 else { continue }
                nearest = min(nearest, Self.distanceToSegment(point, a, b))
            }
            // The snapping projection against geodesic distances: within 0.5 % + 1 cm (equirectangular over < 1 km).
            #expect(abs(snapped.distanceMeters - nearest) <= 0.005 * nearest + 0.01, "\(point): snapped \(snapped.distanceMeters) m, nearest \(nearest) m")
            #expect(snapped.distanceMeters <= nearestNode + 0.05)
            #expect(nearestUsable <= nearest)
            if snapped.distanceMeters < nearestNode - 1 { closerThanNodes += 1 }
            if nearestUsable < nearest - 1 { intoComponent += 1 }
        }
        // Points were scattered up to ~150 m around nodes: many fall beside a segment, between its nodes.
        #expect(closerThanNodes >= 10, "only \(closerThanNodes) of 40 points snapped between nodes")
        #expect(intoComponent <= 20, "\(intoComponent) of 40 points passed over a road outside the main component")
    }

    @Test("the snapping grid's lookup by box gives every segment whose bounding box meets the box, and few others")
    func gridBoxesMissNothing() throws {
        let graph = try HelsinkiGraph.graph.get()
        var random = SplitMix64(seed: 36)
        var given = 0, meeting = 0
        for round in 0..<300 {
            // Boxes from a centimetre to 600 m across, some on a node (a cell's edge, a segment's end), across the extract.
            let node = Int32.random(in: 0..<Int32(graph.nodeCount), using: &random)
            let centre = round % 5 == 0 ? (Int64(graph.nodeLatitudeE7[Int(node)]), Int64(graph.nodeLongitudeE7[Int(node)]))
                : (Int64(((graph.minimumLatitude + random.nextUnit() * (graph.maximumLatitude - graph.minimumLatitude)) * 1e7).rounded()),
                   Int64(((graph.minimumLongitude + random.nextUnit() * (graph.maximumLongitude - graph.minimumLongitude)) * 1e7).rounded()))
            let half = Int64(1 + random.nextUnit() * random.nextUnit() * 27_000)
            let (south, north, west, east) = (centre.0 - half, centre.0 + half, centre.1 - 2 * half, centre.1 + 2 * half)
            var found = Set<Int32>()
            graph.grid.segments(southE7: south, westE7: west, northE7: north, eastE7: east) { found.insert($0) }
            for segment in 0..<graph.segmentCount {
                let a = Int(graph.segmentFrom[segment]), b = Int(graph.segmentTo[segment])
                let latitudes = [Int64(graph.nodeLatitudeE7[a]), Int64(graph.nodeLatitudeE7[b])]
                let longitudes = [Int64(graph.nodeLongitudeE7[a]), Int64(graph.nodeLongitudeE7[b])]
                guard latitudes.max()! >= south, latitudes.min()! <= north, longitudes.max()! >= west, longitudes.min()! <= east else { continue }
                meeting += 1
                #expect(found.contains(Int32(segment)), "segment \(segment) meets the box \(south)...\(north), \(west)...\(east) but was not given")
            }
            given += found.count
        }
        // Its boxes within the cells keep out most of the cells' other segments.
        #expect(meeting > 1_000 && given <= 2 * meeting, "\(given) given for \(meeting) meeting")
    }

    /// Metres from a point to a segment in an equirectangular plane around the point.
    static func planarDistance(_ point: Coordinate, _ a: Coordinate, _ b: Coordinate) -> Double {
        let metres = 6_378_137 * Double.pi / 180, scale = cos(point.latitude * .pi / 180)
        let ax = (a.longitude - point.longitude) * scale * metres, ay = (a.latitude - point.latitude) * metres
        let bx = (b.longitude - point.longitude) * scale * metres, by = (b.latitude - point.latitude) * metres
        let dx = bx - ax, dy = by - ay, length = dx * dx + dy * dy
        let t = length > 0 ? max(0, min(1, -(ax * dx + ay * dy) / length)) : 0
        let x = ax + t * dx, y = ay + t * dy
        return (x * x + y * y).squareRoot()
    }

    /// The geodesic distance from a point to a segment (straight in degrees), by ternary search
    /// over the position along it (the distance is unimodal there): a reference, not fast.
    static func distanceToSegment(_ point: Coordinate, _ a: Coordinate, _ b: Coordinate) -> Double {
        func distance(_ t: Double) -> Double {
            let on = Coordinate(validLatitude: a.latitude + t * (b.latitude - a.latitude), longitude: a.longitude + t * (b.longitude - a.longitude)) ?? a
            return on.distanceMeters(to: point)
        }
        var low = 0.0, high = 1.0
        for _ in 0..<60 {
            let m1 = low + (high - low) / 3, m2 = high - (high - low) / 3
            if distance(m1) < distance(m2) { high = m2 } else { low = m1 }
        }
        return min(distance((low + high) / 2), distance(0), distance(1))
    }

    @Test("the graph file reopens to the same graph, and a damaged one is an error, not a crash")
    func fileRoundTrip() throws {
        let graph = try HelsinkiGraph.graph.get()
        let reopened = try RoadGraph(contentsOfFile: graph.path)
        #expect(reopened.segmentCount == graph.segmentCount && reopened.nodeCount == graph.nodeCount)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: graph.path)))
        let damaged = graph.path + ".damaged"
        defer { try? FileManager.default.removeItem(atPath: damaged) }
        for cut in [8, 100, bytes.count / 2] {
            try Data(bytes.prefix(cut)).write(to: URL(fileURLWithPath: damaged))
            #expect(throws: RoadGraphFileError.self) { try RoadGraph(contentsOfFile: damaged) }
        }
        // An edge pointing past the states.
        let table = 16 + 16 * (RoadGraphFile.Section.hierarchies.rawValue + 1)
        let offset = Int(bytes[table..<table + 8].withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
        let original = bytes
        bytes.replaceSubrange(offset..<offset + 4, with: [0xFF, 0xFF, 0xFF, 0x7F])
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        #expect(throws: RoadGraphFileError.self) { try RoadGraph(contentsOfFile: damaged) }
        // An order that is no longer a permutation: its first position names the second's state too.
        bytes = original
        let orderTable = 16 + 16 * (RoadGraphFile.Section.hierarchies.rawValue + 8)
        let orderOffset = Int(bytes[orderTable..<orderTable + 8].withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
        bytes.replaceSubrange(orderOffset..<orderOffset + 4, with: Array(bytes[orderOffset + 4..<orderOffset + 8]))
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        #expect(throws: RoadGraphFileError.damaged(path: damaged, section: RoadGraphFile.Section.hierarchies.rawValue,
                                                   reason: "a hierarchy's order is not a permutation of the states")) {
            try RoadGraph(contentsOfFile: damaged)
        }
    }
}
