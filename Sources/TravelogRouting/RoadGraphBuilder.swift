import Foundation
import TravelogCore
import TravelogOSM

/// Reads an `.osm.pbf` extract into a ``RoadGraphData`` in three passes, keeping only the road
/// network: relations (turn restrictions), ways (routable ones, and the nodes they need), nodes
/// (the coordinates of those nodes and their barriers). The passes feed a ``RoadGraphAssembly``.
struct RoadGraphBuilder: Sendable {
    var reader: OSMPBFReader

    /// - Throws: ``OSMPBFError``.
    /// - Complexity: O(file size) time; memory O(road nodes + road ways).
    func graph(fromFile path: String, progress: (RoadGraphBuildProgress) -> Void = { _ in }) throws -> RoadGraphData {
        var assembly = RoadGraphAssembly()
        var header: OSMHeader?
        let totalBytes = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
        var relationReader = reader
        relationReader.elements = .relations
        try relationReader.read(path: path, header: { header = $0 }) { block in
            for relation in block.relations { assembly.add(relation) }
            progress(.reading(pass: 1, passes: 3, bytesDone: block.byteRange.upperBound, totalBytes: totalBytes))
        }
        var wayReader = reader
        wayReader.elements = .ways
        try wayReader.read(path: path) { block in
            for way in block.ways { assembly.add(way) }
            progress(.reading(pass: 2, passes: 3, bytesDone: block.byteRange.upperBound, totalBytes: totalBytes))
        }
        var nodeReader = reader
        nodeReader.elements = .nodes
        try nodeReader.read(path: path) { block in
            for node in block.nodes { assembly.add(node) }
            progress(.reading(pass: 3, passes: 3, bytesDone: block.byteRange.upperBound, totalBytes: totalBytes))
        }
        return assembly.finish(boundingBox: header?.boundingBox)
    }

    /// A via-node restriction's ways, node, kind and modes; `nil` for via-way ones and unknown kinds.
    static func restriction(_ relation: OSMRelation) -> (from: Int64, via: Int64, to: Int64, only: Bool, modes: UInt8)? {
        let vehicles: UInt8 = 1 << UInt8(DirectionsMode.driving.index) | 1 << UInt8(DirectionsMode.cycling.index)
        var modes: UInt8
        let value: String
        if let general = relation.tags[osmKey: "restriction"] {
            value = general
            modes = vehicles
        } else if let car = relation.tags[osmKey: "restriction:motorcar"] ?? relation.tags[osmKey: "restriction:motor_vehicle"] {
            value = car
            modes = 1 << UInt8(DirectionsMode.driving.index)
        } else if let bicycle = relation.tags[osmKey: "restriction:bicycle"] {
            value = bicycle
            modes = 1 << UInt8(DirectionsMode.cycling.index)
        } else {
            return nil
        }
        if let except = relation.tags[osmKey: "except"] {
            for exempt in except.split(separator: ";") {
                if exempt == "bicycle" { modes &= ~(1 << UInt8(DirectionsMode.cycling.index)) }
                if exempt == "motorcar" || exempt == "motor_vehicle" { modes &= ~(1 << UInt8(DirectionsMode.driving.index)) }
            }
        }
        let only: Bool
        if value.hasPrefix("only_") { only = true } else if value.hasPrefix("no_") { only = false } else { return nil }
        let from = relation.members.filter { $0.type == .way && $0.role == "from" }
        let via = relation.members.filter { $0.role == "via" }
        let to = relation.members.filter { $0.type == .way && $0.role == "to" }
        guard modes != 0, from.count == 1, to.count == 1, via.count == 1, via[0].type == .node else { return nil }
        return (from[0].id, via[0].id, to[0].id, only, modes)
    }
}

/// The road graph put together from an extract's objects, fed relations first, then ways, then
/// nodes (the order of the builder's passes; tests feed small networks the same way).
struct RoadGraphAssembly {
    private var pendingRestrictions: [(from: Int64, via: Int64, to: Int64, only: Bool, modes: UInt8)] = []
    private var ways: [OSMWay] = []
    private var neededNodes = Set<Int64>()
    private var data = RoadGraphData()
    private var nodeIndex: [Int64: Int32] = [:]

    mutating func add(_ relation: OSMRelation) {
        guard relation.tags[osmKey: "type"] == "restriction", let restriction = RoadGraphBuilder.restriction(relation) else { return }
        pendingRestrictions.append(restriction)
    }

    mutating func add(_ way: OSMWay) {
        guard way.nodeIDs.count >= 2, RoadProfile.isRoad(way.tags) else { return }
        ways.append(way)
        neededNodes.formUnion(way.nodeIDs)
    }

    mutating func add(_ node: OSMNode) {
        guard neededNodes.contains(node.id), nodeIndex[node.id] == nil else { return }
        nodeIndex[node.id] = Int32(data.nodeLatitudeE7.count)
        data.nodeLatitudeE7.append(Int32((node.latitude * 1e7).rounded()))
        data.nodeLongitudeE7.append(Int32((node.longitude * 1e7).rounded()))
        var barrier: UInt8 = 0
        if !node.tags.isEmpty {
            for mode in DirectionsMode.allCases where RoadProfile.barrierBlocks(node.tags, mode: mode) { barrier |= 1 << UInt8(mode.index) }
        }
        data.nodeBarrier.append(barrier)
    }

    /// The graph (call once, after every object was added).
    mutating func finish(boundingBox box: OSMHeader.BoundingBox?) -> RoadGraphData {
        var nameIndex: [String: Int32] = [:]
        var wayIndex: [Int64: Int32] = [:]
        var waysAtNode = [UInt8](repeating: 0, count: data.nodeLatitudeE7.count)
        var squares: [(way: Int32, outline: [Int32], flags: UInt8, speeds: [UInt8])] = []
        // Squares are crossed on foot, and by bicycle where they allow it; a car that may enter one
        // (`motor_vehicle=destination`) keeps to its edge.
        let drivingBits: UInt8 = 3 << UInt8(2 * DirectionsMode.driving.index)
        for way in ways {
            let accesses = DirectionsMode.allCases.map { RoadProfile.access(way.tags, mode: $0) }
            var flags: UInt8 = 0
            for (mode, access) in zip(DirectionsMode.allCases, accesses) {
                if access.forward { flags |= 1 << UInt8(2 * mode.index) }
                if access.backward { flags |= 1 << UInt8(2 * mode.index + 1) }
            }
            guard flags != 0 else { continue }
            let junction = way.tags[osmKey: "junction"]
            if junction == "roundabout" || junction == "circular" { flags |= RoadGraphData.roundaboutBit }
            if way.tags[osmKey: "route"] == "ferry" { flags |= RoadGraphData.ferryBit }
            let index = Int32(data.wayID.count)
            wayIndex[way.id] = index
            data.wayID.append(way.id)
            if let name = way.tags[osmKey: "name"] ?? way.tags[osmKey: "ref"] {
                if let known = nameIndex[name] {
                    data.wayName.append(known)
                } else {
                    nameIndex[name] = Int32(data.names.count)
                    data.wayName.append(Int32(data.names.count))
                    data.names.append(name)
                }
            } else {
                data.wayName.append(-1)
            }
            let speeds = accesses.map { UInt8(min(255, $0.speedKilometersPerHour)) }
            for (first, second) in zip(way.nodeIDs, way.nodeIDs.dropFirst()) {
                guard let from = nodeIndex[first], let to = nodeIndex[second], from != to else { continue }
                data.appendSegment(from: from, to: to, way: index, flags: flags, speeds: speeds)
            }
            for node in Set(way.nodeIDs.compactMap { nodeIndex[$0] }) { waysAtNode[Int(node)] = min(2, waysAtNode[Int(node)] + 1) }
            if way.tags[osmKey: "area"] == "yes", way.nodeIDs.count >= 4, way.nodeIDs.first == way.nodeIDs.last, flags & ~drivingBits != 0 {
                let outline = way.nodeIDs.compactMap { nodeIndex[$0] }
                if outline.count == way.nodeIDs.count { squares.append((index, outline, flags & ~drivingBits, speeds)) }
            }
        }
        // A square (a pedestrian area, mapped by its outline) is crossed, not only walked round: a few
        // straight segments inside it join the outline's nodes where other ways meet it (`AreaCrossings`).
        for square in squares {
            let entries = Array(Set(square.outline.filter { waysAtNode[Int($0)] > 1 })).sorted()
            for (from, to) in AreaCrossings.chords(outline: square.outline, entries: entries, data: data) {
                data.appendSegment(from: from, to: to, way: square.way, flags: square.flags, speeds: square.speeds)
            }
        }
        for pending in pendingRestrictions {
            guard let from = wayIndex[pending.from], let via = nodeIndex[pending.via], let to = wayIndex[pending.to] else { continue }
            data.restrictions.append(TurnRestriction(fromWay: from, viaNode: via, toWay: to, only: pending.only, modes: pending.modes))
        }
        if let box {
            data.boundingBox = [box.minimumLatitude, box.minimumLongitude, box.maximumLatitude, box.maximumLongitude]
        } else if !data.nodeLatitudeE7.isEmpty {
            data.boundingBox = [Double(data.nodeLatitudeE7.min()!) / 1e7, Double(data.nodeLongitudeE7.min()!) / 1e7,
                                Double(data.nodeLatitudeE7.max()!) / 1e7, Double(data.nodeLongitudeE7.max()!) / 1e7]
        }
        return data
    }
}

extension RoadGraphData {
    mutating func appendSegment(from: Int32, to: Int32, way: Int32, flags: UInt8, speeds: [UInt8]) {
        segmentFrom.append(from)
        segmentTo.append(to)
        let length = coordinate(of: from).distanceMeters(to: coordinate(of: to))
        segmentLengthCentimeters.append(UInt32(max(1, (length * 100).rounded())))
        segmentWay.append(way)
        segmentFlags.append(flags)
        segmentSpeed.append(contentsOf: speeds)
    }

    func coordinate(of node: Int32) -> Coordinate {
        Coordinate(validLatitude: Double(nodeLatitudeE7[Int(node)]) / 1e7, longitude: Double(nodeLongitudeE7[Int(node)]) / 1e7)!
    }
}
