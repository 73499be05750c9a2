import Foundation
import Testing
import TravelogCore
import TravelogOSM
@testable import TravelogRouting

/// A small made-up network, its objects fed as the builder's passes feed them.
struct TestNetwork {
    var nodes: [OSMNode] = []
    var ways: [OSMWay] = []
    var relations: [OSMRelation] = []

    /// A node on a grid of about 111 m by 55 m steps from (60.0, 25.0).
    mutating func node(_ id: Int64, row: Int, column: Int, tags: [String: String] = [:]) {
        nodes.append(OSMNode(id: id, latitude: 60 + Double(row) * 0.001, longitude: 25 + Double(column) * 0.001,
                             tags: tags.sorted { $0.key < $1.key }.map { OSMTag(key: $0.key, value: $0.value) }))
    }

    mutating func way(_ id: Int64, _ nodeIDs: [Int64], _ tags: [String: String]) {
        ways.append(OSMWay(id: id, nodeIDs: nodeIDs, tags: tags.sorted { $0.key < $1.key }.map { OSMTag(key: $0.key, value: $0.value) }))
    }

    mutating func restriction(_ id: Int64, from: Int64, via: Int64, to: Int64, _ kind: String) {
        relations.append(OSMRelation(id: id, members: [.init(type: .way, id: from, role: "from"), .init(type: .node, id: via, role: "via"),
                                                      .init(type: .way, id: to, role: "to")],
                                     tags: [OSMTag(key: "type", value: "restriction"), OSMTag(key: "restriction", value: kind)]))
    }

    func network() throws -> RoadNetwork {
        var assembly = RoadGraphAssembly()
        for relation in relations { assembly.add(relation) }
        for way in ways { assembly.add(way) }
        for node in nodes { assembly.add(node) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("travelog-routing-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let graph = try RoadGraph.build(assembly.finish(boundingBox: nil), outputPath: folder + "/test.tlroute")
        return RoadNetwork(graphs: [graph])
    }

    static func point(row: Double, column: Double) -> Coordinate {
        Coordinate(validLatitude: 60 + row * 0.001, longitude: 25 + column * 0.001)!
    }
}

@Suite("Directions on small networks")
struct RoadNetworkTests {
    /// A square block: A(0,0) – B(0,2) – C(2,2) – D(2,0) – A, residential, named by side.
    static func block(_ adjust: (inout TestNetwork) -> Void = { _ in }) throws -> RoadNetwork {
        var network = TestNetwork()
        network.node(1, row: 0, column: 0)
        network.node(2, row: 0, column: 2)
        network.node(3, row: 2, column: 2)
        network.node(4, row: 2, column: 0)
        network.way(10, [1, 2], ["highway": "residential", "name": "Southgate"])
        network.way(11, [2, 3], ["highway": "residential", "name": "Eastgate"])
        network.way(12, [3, 4], ["highway": "residential", "name": "Northgate"])
        network.way(13, [4, 1], ["highway": "residential", "name": "Westgate"])
        adjust(&network)
        return try network.network()
    }

    @Test("a route along a street turns onto the next one, its steps add up, its ends are snapped onto the segments")
    func turns() throws {
        let network = try Self.block()
        let route = try network.route(from: TestNetwork.point(row: 0.2, column: 1), to: TestNetwork.point(row: 1, column: 1.7), mode: .driving)
        #expect(route.steps.map(\.instruction) == ["Head east on Southgate", "Turn left onto Eastgate", "Arrive at the destination"])
        #expect(abs(route.source.snapped.latitude - 60) < 1e-9 && abs(route.source.snapped.longitude - 25.001) < 1e-9)
        #expect(abs(route.distanceMeters - route.steps.reduce(0) { $0 + $1.distanceMeters }) < 1e-6)
        // 55.8 m along Southgate, 111.3 m up Eastgate (GeographicLib-style geodesic lengths at 60°N).
        #expect(abs(route.distanceMeters - (55.8 + 111.3)) < 1, "\(route.distanceMeters)")
        #expect(route.mode.transportType == "automobile")
    }

    @Test("a one-way street is driven around the block but walked straight; cycling follows oneway:bicycle=no")
    func oneWay() throws {
        let network = try Self.block { network in
            network.ways[0] = OSMWay(id: 10, nodeIDs: [1, 2], tags: [OSMTag(key: "highway", value: "residential"), OSMTag(key: "name", value: "Southgate"),
                                                                      OSMTag(key: "oneway", value: "-1"), OSMTag(key: "oneway:bicycle", value: "no")])
        }
        let from = TestNetwork.point(row: 0, column: 0.5), to = TestNetwork.point(row: 0, column: 1.5)
        let driving = try network.route(from: from, to: to, mode: .driving)
        let walking = try network.route(from: from, to: to, mode: .walking)
        let cycling = try network.route(from: from, to: to, mode: .cycling)
        #expect(abs(walking.distanceMeters - 55.8) < 1)
        #expect(abs(cycling.distanceMeters - 55.8) < 1)
        #expect(driving.distanceMeters > 300, "\(driving.distanceMeters): against oneway=-1")
    }

    @Test("a no_left_turn restriction sends the route the long way; without it the turn is taken")
    func restriction() throws {
        let from = TestNetwork.point(row: 0, column: 1), to = TestNetwork.point(row: 1, column: 2)
        let free = try Self.block().route(from: from, to: to, mode: .driving)
        let restricted = try Self.block { $0.restriction(100, from: 10, via: 2, to: 11, "no_left_turn") }.route(from: from, to: to, mode: .driving)
        #expect(free.distanceMeters < 200)
        #expect(restricted.distanceMeters > 200, "\(restricted.distanceMeters)")
        #expect(restricted.steps.contains { $0.roadName == "Westgate" })
        // The restriction binds vehicles, not walkers.
        let walked = try Self.block { $0.restriction(100, from: 10, via: 2, to: 11, "no_left_turn") }.route(from: from, to: to, mode: .walking)
        #expect(walked.distanceMeters < 200)
    }

    /// A square (`highway=pedestrian`, `area=yes`) of 8 × 4 steps (445 m × 445 m) whose outline runs
    /// A(0,0) – B(0,8) – C(4,8) – `notch` – D(4,0) – A, a street from the west into A and one from the
    /// east into C.
    static func square(notch: [(row: Int, column: Int)], tags: [String: String] = [:]) throws -> RoadNetwork {
        var network = TestNetwork()
        network.node(1, row: 0, column: 0)
        network.node(2, row: 0, column: 8)
        network.node(3, row: 4, column: 8)
        for (index, point) in notch.enumerated() { network.node(10 + Int64(index), row: point.row, column: point.column) }
        network.node(4, row: 4, column: 0)
        network.node(5, row: 0, column: -2)
        network.node(6, row: 4, column: 10)
        network.way(20, [1, 2, 3] + notch.indices.map { 10 + Int64($0) } + [4, 1],
                    ["highway": "pedestrian", "area": "yes", "name": "Market Square"].merging(tags) { $1 })
        let street = tags.isEmpty ? "footway" : "residential"
        network.way(21, [5, 1], ["highway": street, "name": "West Walk"])
        network.way(22, [3, 6], ["highway": street, "name": "East Walk"])
        return try network.network()
    }

    @Test("a square is walked across where the straight line stays inside it, and round its outline where it would leave it")
    func squareCrossed() throws {
        let from = TestNetwork.point(row: 0, column: -2), to = TestNetwork.point(row: 4, column: 10)
        let corner = TestNetwork.point(row: 0, column: 0), opposite = TestNetwork.point(row: 4, column: 8)
        let streets = from.distanceMeters(to: corner) + opposite.distanceMeters(to: to)
        // A plain rectangle: the diagonal A–C, its only crossing (B and D are no entries).
        let plain = try Self.square(notch: [])
        #expect(plain.graphs[0].data().segmentCount == 4 + 2 + 1)
        let across = try plain.route(from: from, to: to, mode: .walking)
        #expect(abs(across.distanceMeters - (streets + corner.distanceMeters(to: opposite))) < 1, "\(across.distanceMeters)")
        #expect(across.steps.dropLast().map(\.roadName) == ["West Walk", "Market Square", "East Walk"])
        #expect(abs(across.distanceMeters - across.steps.reduce(0) { $0 + $1.distanceMeters }) < 1e-6)
        // A notch from the north side down to row 1 cuts the diagonal: round by the south side, as before.
        let notched = try Self.square(notch: [(4, 5), (1, 4), (4, 3)])
        #expect(notched.graphs[0].data().segmentCount == 7 + 2)
        let round = try notched.route(from: from, to: to, mode: .walking)
        let south = corner.distanceMeters(to: TestNetwork.point(row: 0, column: 8)) + TestNetwork.point(row: 0, column: 8).distanceMeters(to: opposite)
        #expect(abs(round.distanceMeters - (streets + south)) < 1, "\(round.distanceMeters)")
        // A notch that stops short of the diagonal leaves it open.
        let shallow = try Self.square(notch: [(4, 5), (3, 4), (4, 3)])
        #expect(abs(try shallow.route(from: from, to: to, mode: .walking).distanceMeters - across.distanceMeters) < 1e-6)
        // Cars may not use the square at all; where they may enter it, they keep to its edge.
        #expect(throws: DirectionsError.self) { try plain.route(from: from, to: to, mode: .driving) }
        let delivered = try Self.square(notch: [], tags: ["motor_vehicle": "destination"])
        #expect(abs(try delivered.route(from: from, to: to, mode: .driving).distanceMeters - (streets + south)) < 1)
        #expect(abs(try delivered.route(from: from, to: to, mode: .walking).distanceMeters - across.distanceMeters) < 1e-6)
    }

    @Test("a square with many entries is crossed by a few segments, not all pairs, and every walk across stays within 10 % of the straight line")
    func squareWithManyEntries() throws {
        // A 10 × 4 square with an entry every 2 columns on its south and north sides, each a footway
        // of one row outwards.
        var network = TestNetwork()
        let columns = Array(stride(from: 0, through: 10, by: 2))
        let south = columns.map { Int64(100 + $0) }, north = columns.map { Int64(200 + $0) }
        for column in columns {
            network.node(Int64(100 + column), row: 0, column: column)
            network.node(Int64(200 + column), row: 4, column: column)
            network.node(Int64(300 + column), row: -1, column: column)
            network.node(Int64(400 + column), row: 5, column: column)
            network.way(Int64(1_000 + column), [Int64(300 + column), Int64(100 + column)], ["highway": "footway"])
            network.way(Int64(2_000 + column), [Int64(200 + column), Int64(400 + column)], ["highway": "footway"])
        }
        network.way(1, south + north.reversed() + [south[0]], ["highway": "pedestrian", "area": "yes", "name": "Long Square"])
        let square = try network.network()
        let entries = south.count + north.count
        // Segments: the outline's (one per entry), the footways, the crossings. Straight lines that stay
        // inside join a south entry to a north one, but for the two corners' sides: 6 × 6 - 2 = 34.
        let crossings = square.graphs[0].data().segmentCount - entries - entries
        #expect(crossings > 0 && crossings < 34, "\(crossings) crossings")
        let stepRow = TestNetwork.point(row: 0, column: 0).distanceMeters(to: TestNetwork.point(row: 1, column: 0))
        for from in columns {
            for to in columns {
                let a = TestNetwork.point(row: 0, column: Double(from)), b = TestNetwork.point(row: 4, column: Double(to))
                let walk = try square.route(from: TestNetwork.point(row: -1, column: Double(from)), to: TestNetwork.point(row: 5, column: Double(to)),
                                            mode: .walking)
                #expect(walk.distanceMeters <= 2 * stepRow + AreaCrossings.stretch * a.distanceMeters(to: b) + 0.5,
                        "\(from) → \(to): \(walk.distanceMeters) m, straight \(a.distanceMeters(to: b))")
            }
        }
    }

    @Test("a bollard stops cars, not bicycles or walkers")
    func barrier() throws {
        let network = try Self.block { network in
            network.nodes[1] = OSMNode(id: 2, latitude: 60, longitude: 25.002, tags: [OSMTag(key: "barrier", value: "bollard")])
        }
        let from = TestNetwork.point(row: 0, column: 1), to = TestNetwork.point(row: 1, column: 2)
        #expect(try network.route(from: from, to: to, mode: .driving).distanceMeters > 200)
        #expect(try network.route(from: from, to: to, mode: .cycling).distanceMeters < 200)
    }

    @Test("errors name the end and why: outside coverage, no road near, not connected, no network")
    func errors() throws {
        var island = TestNetwork()
        island.node(1, row: 0, column: 0)
        island.node(2, row: 0, column: 2)
        island.node(3, row: 5, column: 0)
        island.node(4, row: 5, column: 2)
        island.node(5, row: 0, column: 30)
        island.node(6, row: 1, column: 30)
        island.way(1, [1, 2], ["highway": "residential"])
        island.way(2, [3, 4], ["highway": "residential"])
        island.way(3, [5, 6], ["highway": "footway"])
        let network = try island.network()
        #expect(throws: DirectionsError.outsideCoverage(end: .to, latitude: 50, longitude: 25)) {
            try network.route(from: TestNetwork.point(row: 0, column: 1), to: Coordinate(validLatitude: 50, longitude: 25)!, mode: .driving)
        }
        #expect(throws: DirectionsError.noRoadNearby(end: .from, mode: .driving, withinMeters: RoadNetwork.maximumSnapMeters)) {
            try network.route(from: TestNetwork.point(row: 0.5, column: 30), to: TestNetwork.point(row: 0, column: 1), mode: .driving)
        }
        // Both pieces of road are two-way and as big: snapping cannot pick one, so the pair is not connected.
        do {
            _ = try network.route(from: TestNetwork.point(row: 0, column: 1), to: TestNetwork.point(row: 5, column: 1), mode: .driving)
            Issue.record("a route between two unconnected streets")
        } catch DirectionsError.notConnected(let mode, _) {
            #expect(mode == .driving)
        }
        #expect(throws: DirectionsError.noRoadNetwork) {
            try RoadNetwork(graphs: []).route(from: TestNetwork.point(row: 0, column: 0), to: TestNetwork.point(row: 0, column: 1), mode: .walking)
        }
        #expect(network.coverageGeoJSON().hasPrefix(#"{"type":"MultiPolygon","coordinates":[[[[25.0000000,60.0000000],"#))
    }
}

@Suite("Contraction hierarchy against Dijkstra")
struct ContractionExactnessTests {
    /// A 3 × 3 grid of crossings 4 rows or columns apart, every street drawn with shape points at each
    /// step (most states have one turn in and one out), a one-way street, a dead end with a bend (its
    /// only way back a U-turn), and a ring road with no way off it.
    static func network() throws -> RoadGraph {
        var network = TestNetwork()
        var id: Int64 = 1
        var grid: [[Int64]] = Array(repeating: Array(repeating: 0, count: 9), count: 9)
        for row in 0..<9 {
            for column in 0..<9 where row % 4 == 0 || column % 4 == 0 {
                network.node(id, row: row, column: column)
                grid[row][column] = id
                id += 1
            }
        }
        var way: Int64 = 100
        for line in stride(from: 0, through: 8, by: 4) {
            network.way(way, (0..<9).map { grid[line][$0] }, ["highway": "residential", "oneway": line == 4 ? "yes" : "no"])
            network.way(way + 1, (0..<9).map { grid[$0][line] }, ["highway": "residential"])
            way += 2
        }
        // A dead end off the middle of the bottom street: up two rows, then right one column.
        network.node(500, row: 1, column: 2)
        network.node(501, row: 2, column: 2)
        network.node(502, row: 2, column: 3)
        network.way(way, [grid[0][2], 500, 501, 502], ["highway": "service"])
        // A ring of eight nodes beyond the grid, joined to nothing.
        let ring: [(Int, Int)] = [(10, 10), (10, 11), (10, 12), (11, 12), (12, 12), (12, 11), (12, 10), (11, 10)]
        for (index, point) in ring.enumerated() { network.node(600 + Int64(index), row: point.0, column: point.1) }
        network.way(way + 1, (0..<9).map { 600 + Int64($0 % 8) }, ["highway": "residential"])
        return try network.network().graphs[0]
    }

    @Test("every pair of states costs through the hierarchy what plain Dijkstra says, in every mode, rings and dead ends included, in either order")
    func everyPairAgreesWithDijkstra() throws {
        let graph = try Self.network()
        for mode in DirectionsMode.allCases {
            let turns = TurnGraph(graph.data(), mode: mode)
            let successors = TurnAdjacency(turns, reversed: false), predecessors = TurnAdjacency(turns, reversed: true)
            // The rows are the turn graph's turns, each way round.
            for state in 0..<Int32(turns.stateCount) {
                var expected: [Int32] = []
                if turns.cost[Int(state)] != TurnGraph.unusable { turns.successors(of: state) { next, _ in expected.append(next) } }
                var rows: [Int32] = []
                successors.forEach(state) { rows.append($0) }
                #expect(rows == expected, "\(mode): state \(state)")
                predecessors.forEach(state) { previous in #expect(turns.allows(from: previous, to: state), "\(mode): \(previous) → \(state)") }
            }
            #expect(successors.targets.count == predecessors.targets.count)
            // Witnesses searched for, and (as at the dense top of a large network) looked for among
            // direct edges only; in the greedy order alone, and with a nested dissection down to cells of 4 states.
            let data = graph.data()
            let variants: [(oneHopAfterScanned: Int, leafSize: Int?)] = [
                (ContractionHierarchyBuilder.defaultOneHopAfterScanned, nil), (0, nil),
                (ContractionHierarchyBuilder.defaultOneHopAfterScanned, 4), (0, 4)]
            for (oneHopAfterScanned, leafSize) in variants {
                let hierarchy = ContractionHierarchy.build(turns: turns, successors: successors, predecessors: predecessors,
                                                           nodes: leafSize.map { _ in (data.nodeLatitudeE7, data.nodeLongitudeE7) },
                                                           leafSize: leafSize ?? ContractionHierarchy.defaultLeafSize,
                                                           oneHopAfterScanned: oneHopAfterScanned)
                var compared = 0
                let states = (0..<Int32(turns.stateCount)).filter { turns.cost[Int($0)] != TurnGraph.unusable }
                // The rows are by position: a permutation of the states.
                #expect(hierarchy.order.count == turns.stateCount && Set(hierarchy.order).count == turns.stateCount)
                #expect(hierarchy.order.indices.allSatisfy { Int(hierarchy.position[Int(hierarchy.order[$0])]) == $0 })
                let downwards = states.map {
                    Self.upwardSearch(hierarchy.upInOffsets, hierarchy.upInSource, hierarchy.upInWeight, from: hierarchy.position[Int($0)])
                }
                for source in states {
                    let reference = Self.dijkstra(turns, successors: successors, from: source)
                    let upward = Self.upwardSearch(hierarchy.upOutOffsets, hierarchy.upOutTarget, hierarchy.upOutWeight,
                                                   from: hierarchy.position[Int(source)])
                    for (target, downward) in zip(states, downwards) {
                        var best = Int64.max
                        for (state, cost) in upward { if let back = downward[state] { best = min(best, cost + back) } }
                        #expect(best == (reference[target] ?? .max), "\(mode): \(source) → \(target): hierarchy \(best), Dijkstra \(reference[target] ?? -1)")
                        compared += 1
                    }
                }
                #expect(compared > 1000)
            }
        }
    }

    /// Costs from the end of `source` to the end of every state (entering a state costs that state).
    static func dijkstra(_ turns: TurnGraph, successors: TurnAdjacency, from source: Int32) -> [Int32: Int64] {
        var distance: [Int32: Int64] = [source: 0]
        var queue = MinHeap()
        queue.push(0, source)
        while let (reached, state) = queue.pop() {
            guard reached == distance[state] else { continue }
            successors.forEach(state) { next in
                let cost = reached + Int64(turns.cost[Int(next)])
                if cost < distance[next] ?? .max {
                    distance[next] = cost
                    queue.push(cost, next)
                }
            }
        }
        return distance
    }

    /// Every state reachable upward from `source` through one side of the hierarchy, with its cost.
    static func upwardSearch(_ offsets: [UInt32], _ others: [Int32], _ weights: [UInt32], from source: Int32) -> [Int32: Int64] {
        var distance: [Int32: Int64] = [source: 0]
        var queue = MinHeap()
        queue.push(0, source)
        while let (reached, state) = queue.pop() {
            guard reached == distance[state] else { continue }
            for edge in Int(offsets[Int(state)])..<Int(offsets[Int(state) + 1]) {
                let cost = reached + Int64(weights[edge])
                if cost < distance[others[edge]] ?? .max {
                    distance[others[edge]] = cost
                    queue.push(cost, others[edge])
                }
            }
        }
        return distance
    }
}
