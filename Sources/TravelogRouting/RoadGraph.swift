import Foundation
import Synchronization
import TravelogCore
import TravelogOSM

/// The road network of one extract with a contraction hierarchy per mode, memory-mapped from its
/// graph file (``RoadGraphFile``; written by ``build(extractPath:outputPath:reader:)``, so by
/// `travelog osm add`). Immutable: queries from any thread.
public final class RoadGraph: @unchecked Sendable {
    public let path: String
    private let file: MappedFile
    let nodeLatitudeE7: UnsafeBufferPointer<Int32>
    let nodeLongitudeE7: UnsafeBufferPointer<Int32>
    let nodeBarrier: UnsafeBufferPointer<UInt8>
    let segmentFrom: UnsafeBufferPointer<Int32>
    let segmentTo: UnsafeBufferPointer<Int32>
    let segmentLengthCentimeters: UnsafeBufferPointer<UInt32>
    let segmentWay: UnsafeBufferPointer<Int32>
    let segmentFlags: UnsafeBufferPointer<UInt8>
    let segmentSpeed: UnsafeBufferPointer<UInt8>
    let segmentConnected: UnsafeBufferPointer<UInt8>
    let wayID: UnsafeBufferPointer<Int64>
    let wayName: UnsafeBufferPointer<Int32>
    let nameOffsets: UnsafeBufferPointer<UInt32>
    let nameBytes: UnsafeBufferPointer<UInt8>
    let restrictionWords: UnsafeBufferPointer<Int32>
    let hierarchies: [HierarchyView]
    /// Labels of searches that ended, kept for the next (a query touches hundreds of states; clearing
    /// or hashing a table of all of them per query cost more than the search).
    let searchSpaces = SearchSpacePool()
    private(set) var grid = SegmentGrid()
    /// The extract's bounding box (its header's, else its roads').
    public let minimumLatitude: Double, minimumLongitude: Double, maximumLatitude: Double, maximumLongitude: Double

    /// One mode's hierarchy, as mapped: rows by position (``ContractionHierarchy``).
    struct HierarchyView {
        /// The state at each position, and each state's position.
        let order: UnsafeBufferPointer<Int32>
        let position: UnsafeBufferPointer<Int32>
        let upOutOffsets: UnsafeBufferPointer<UInt32>
        let upOutTarget: UnsafeBufferPointer<Int32>
        let upOutWeight: UnsafeBufferPointer<UInt32>
        let upOutMiddle: UnsafeBufferPointer<Int32>
        let upInOffsets: UnsafeBufferPointer<UInt32>
        let upInSource: UnsafeBufferPointer<Int32>
        let upInWeight: UnsafeBufferPointer<UInt32>
        let upInMiddle: UnsafeBufferPointer<Int32>
    }

    /// Opens a graph file, checking every index in it so that a damaged file is an error, never a crash.
    /// - Throws: ``RoadGraphFileError``.
    /// - Complexity: O(file size): one pass of checks and the snapping grid.
    public init(contentsOfFile path: String) throws(RoadGraphFileError) {
        self.path = path
        let file = try MappedFile(path: path)
        self.file = file
        guard file.size >= 16, (0..<8).allSatisfy({ file.base.load(fromByteOffset: $0, as: UInt8.self) == RoadGraphFile.magic[$0] }),
              Int(file.base.loadUnaligned(fromByteOffset: 8, as: UInt32.self)) == RoadGraphFile.Section.count,
              UInt32(littleEndian: 1) == 1 else {
            throw .notAGraphFile(path: path)
        }
        typealias S = RoadGraphFile.Section
        func section<T>(_ type: T.Type, _ index: Int) throws(RoadGraphFileError) -> UnsafeBufferPointer<T> {
            try file.array(type, section: index, path: path)
        }
        nodeLatitudeE7 = try section(Int32.self, S.nodeLatitudeE7.rawValue)
        nodeLongitudeE7 = try section(Int32.self, S.nodeLongitudeE7.rawValue)
        nodeBarrier = try section(UInt8.self, S.nodeBarrier.rawValue)
        segmentFrom = try section(Int32.self, S.segmentFrom.rawValue)
        segmentTo = try section(Int32.self, S.segmentTo.rawValue)
        segmentLengthCentimeters = try section(UInt32.self, S.segmentLengthCentimeters.rawValue)
        segmentWay = try section(Int32.self, S.segmentWay.rawValue)
        segmentFlags = try section(UInt8.self, S.segmentFlags.rawValue)
        segmentSpeed = try section(UInt8.self, S.segmentSpeed.rawValue)
        segmentConnected = try section(UInt8.self, S.segmentConnected.rawValue)
        wayID = try section(Int64.self, S.wayID.rawValue)
        wayName = try section(Int32.self, S.wayName.rawValue)
        nameOffsets = try section(UInt32.self, S.nameOffsets.rawValue)
        nameBytes = try section(UInt8.self, S.nameBytes.rawValue)
        restrictionWords = try section(Int32.self, S.restrictions.rawValue)
        let box = try section(Double.self, S.boundingBox.rawValue)
        var views: [HierarchyView] = []
        for mode in 0..<3 {
            let first = S.hierarchies.rawValue + mode * S.perMode
            views.append(HierarchyView(
                order: try section(Int32.self, first + 8), position: try section(Int32.self, first + 9),
                upOutOffsets: try section(UInt32.self, first), upOutTarget: try section(Int32.self, first + 1),
                upOutWeight: try section(UInt32.self, first + 2), upOutMiddle: try section(Int32.self, first + 3),
                upInOffsets: try section(UInt32.self, first + 4), upInSource: try section(Int32.self, first + 5),
                upInWeight: try section(UInt32.self, first + 6), upInMiddle: try section(Int32.self, first + 7)))
        }
        hierarchies = views
        guard box.count == 4 else { throw .damaged(path: path, section: S.boundingBox.rawValue, reason: "not 4 numbers") }
        (minimumLatitude, minimumLongitude, maximumLatitude, maximumLongitude) = (box[0], box[1], box[2], box[3])
        try Self.check(self)
        grid = SegmentGrid(self)
    }

    private static func check(_ graph: RoadGraph) throws(RoadGraphFileError) {
        typealias S = RoadGraphFile.Section
        let path = graph.path
        let nodes = graph.nodeLatitudeE7.count, segments = graph.segmentFrom.count, ways = graph.wayID.count
        func require(_ condition: Bool, _ section: S, _ reason: String) throws(RoadGraphFileError) {
            if !condition { throw .damaged(path: path, section: section.rawValue, reason: reason) }
        }
        try require(graph.nodeLongitudeE7.count == nodes && graph.nodeBarrier.count == nodes, .nodeLongitudeE7, "node arrays differ in length")
        try require(graph.nodeLatitudeE7.allSatisfy { abs($0) <= 900_000_000 } && graph.nodeLongitudeE7.allSatisfy { abs($0) <= 1_800_000_000 },
                    .nodeLatitudeE7, "a coordinate out of range")
        let segmentArrayCounts: [Int] = [graph.segmentTo.count, graph.segmentLengthCentimeters.count, graph.segmentWay.count, graph.segmentFlags.count]
        let sameCounts = segmentArrayCounts.allSatisfy { $0 == segments } && graph.segmentSpeed.count == 3 * segments
            && graph.segmentConnected.count == segments
        try require(sameCounts, .segmentTo, "segment arrays differ in length")
        try require(graph.segmentFrom.allSatisfy { $0 >= 0 && Int($0) < nodes } && graph.segmentTo.allSatisfy { $0 >= 0 && Int($0) < nodes },
                    .segmentFrom, "a segment's node out of range")
        try require(graph.segmentWay.allSatisfy { $0 >= 0 && Int($0) < ways } && graph.wayName.count == ways, .segmentWay, "a segment's way out of range")
        let names = graph.nameOffsets.count - 1
        try require(names >= 0 && graph.wayName.allSatisfy { $0 >= -1 && Int($0) < names }, .wayName, "a way's name out of range")
        try require(zip(graph.nameOffsets, graph.nameOffsets.dropFirst()).allSatisfy { $0 <= $1 } && Int(graph.nameOffsets.last ?? 0) <= graph.nameBytes.count,
                    .nameOffsets, "name offsets out of order")
        try require(graph.restrictionWords.count % 4 == 0, .restrictions, "a restriction cut short")
        for index in stride(from: 0, to: graph.restrictionWords.count, by: 4) {
            let words = graph.restrictionWords
            try require(words[index] >= 0 && Int(words[index]) < ways && words[index + 1] >= 0 && Int(words[index + 1]) < nodes
                        && words[index + 2] >= 0 && Int(words[index + 2]) < ways, .restrictions, "a restriction's way or node out of range")
        }
        let states = 2 * segments
        for hierarchy in graph.hierarchies {
            for (offsets, others, weights, middles) in [(hierarchy.upOutOffsets, hierarchy.upOutTarget, hierarchy.upOutWeight, hierarchy.upOutMiddle),
                                                       (hierarchy.upInOffsets, hierarchy.upInSource, hierarchy.upInWeight, hierarchy.upInMiddle)] {
                let rowsCounted = offsets.count == states + 1 && offsets.first == 0 && Int(offsets.last ?? 0) == others.count
                let columnsCounted = weights.count == others.count && middles.count == others.count
                let ordered = zip(offsets, offsets.dropFirst()).allSatisfy { $0 <= $1 }
                try require(rowsCounted && columnsCounted && ordered, .hierarchies, "a hierarchy's rows out of order")
                try require(others.allSatisfy { $0 >= 0 && Int($0) < states } && middles.allSatisfy { $0 >= -1 && Int($0) < states },
                            .hierarchies, "a hierarchy's edge out of range")
            }
            try require(hierarchy.order.count == states && hierarchy.position.count == states
                        && hierarchy.order.enumerated().allSatisfy { $1 >= 0 && Int($1) < states && Int(hierarchy.position[Int($1)]) == $0 },
                        .hierarchies, "a hierarchy's order is not a permutation of the states")
            // A route reads only its own search spaces again (at 5 million nodes the check read 1 GB).
            graph.file.evict()
        }
    }

    /// Reads an extract, builds the road graph and its three hierarchies, and writes the graph file
    /// (beside its final name, then renamed: a reader never sees half of one).
    /// - Throws: ``OSMPBFError`` for the extract, ``RoadGraphFileError`` for the file.
    public static func build(extractPath: String, outputPath: String, reader: OSMPBFReader = OSMPBFReader(),
                             progress: @escaping @Sendable (RoadGraphBuildProgress) -> Void = { _ in }) throws -> RoadGraph {
        try build(try RoadGraphBuilder(reader: reader).graph(fromFile: extractPath, progress: progress), outputPath: outputPath, progress: progress)
    }

    /// Builds the hierarchies of a graph and writes its file.
    static func build(_ graph: RoadGraphData, outputPath: String,
                      progress: @escaping @Sendable (RoadGraphBuildProgress) -> Void = { _ in }) throws -> RoadGraph {
        // The hierarchies are let go before the file is opened and checked: its pages count as the
        // process's memory then, and a country's hierarchies are as large again.
        try write(graph, outputPath: outputPath, progress: progress)
        return try RoadGraph(contentsOfFile: outputPath)
    }

    private static func write(_ graph: RoadGraphData, outputPath: String,
                              progress: @escaping @Sendable (RoadGraphBuildProgress) -> Void) throws {
        var data = graph
        data.segmentConnected = [UInt8](repeating: 0, count: data.segmentCount)
        // The three modes' hierarchies are independent: built at once, one a core. Each is spilled
        // to a file of its own as soon as it is built (a country's peak memory is two modes being
        // built; a finished one held meanwhile was another half gigabyte at five million nodes).
        let modes = DirectionsMode.allCases
        let built = Mutex<[(components: [Bool], spilled: Result<RoadGraphFile.SpilledHierarchy, RoadGraphFileError>)?]>(
            Array(repeating: nil, count: modes.count))
        let source = data
        let states = TurnGraph.States(source)
        let contracted = Mutex([Int](repeating: 0, count: modes.count))
        let stateCount = modes.count * 2 * data.segmentCount
        let partial = outputPath + ".partial"
        let spillPaths = modes.map { "\(partial).\($0.rawValue)" }
        defer { for path in spillPaths { try? FileManager.default.removeItem(atPath: path) } }
        progress(.contracting(statesDone: 0, states: stateCount))
        DispatchQueue.concurrentPerform(iterations: modes.count) { index in
            let turns = TurnGraph(source, mode: modes[index], states: states)
            let successors = TurnAdjacency(turns, reversed: false), predecessors = TurnAdjacency(turns, reversed: true)
            let components = turns.largestComponent(successors: successors, predecessors: predecessors)
            let hierarchy = ContractionHierarchy.build(turns: turns, successors: successors, predecessors: predecessors,
                                                       nodes: (source.nodeLatitudeE7, source.nodeLongitudeE7)) { done in
                let total = contracted.withLock { counts in
                    counts[index] = done
                    return counts.reduce(0, +)
                }
                progress(.contracting(statesDone: total, states: stateCount))
            }
            let spilled = Result { () throws(RoadGraphFileError) in try RoadGraphFile.spill(hierarchy, to: spillPaths[index]) }
            built.withLock { $0[index] = (components, spilled) }
        }
        let results = built.withLock { $0.map { $0! } }
        for (mode, result) in zip(modes, results) {
            for (state, connected) in result.components.enumerated() where connected {
                data.segmentConnected[state >> 1] |= 1 << UInt8(mode.index)
            }
        }
        progress(.writing)
        do {
            try RoadGraphFile.write(data, spilled: try results.map { try $0.spilled.get() }, to: partial)
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw error
        }
        do {
            if FileManager.default.fileExists(atPath: outputPath) { try FileManager.default.removeItem(atPath: outputPath) }
            try FileManager.default.moveItem(atPath: partial, toPath: outputPath)
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw RoadGraphFileError.unreadable(path: outputPath, errno: EIO)
        }
    }

    // MARK: Reading

    public var nodeCount: Int { nodeLatitudeE7.count }
    public var segmentCount: Int { segmentFrom.count }

    public func coordinate(ofNode node: Int32) -> Coordinate {
        Coordinate(validLatitude: Double(nodeLatitudeE7[Int(node)]) / 1e7, longitude: Double(nodeLongitudeE7[Int(node)]) / 1e7)!
    }

    /// The name (else `ref`) of a segment's way.
    func name(ofSegment segment: Int) -> String? { name(atIndex: nameIndex(ofSegment: segment)) }

    /// The index of a segment's road name among the graph's names (-1: none): equal indices, equal names.
    func nameIndex(ofSegment segment: Int) -> Int32 { wayName[Int(segmentWay[segment])] }

    /// The name at an index of ``nameIndex(ofSegment:)`` (nil for -1).
    func name(atIndex index: Int32) -> String? {
        guard index >= 0 else { return nil }
        let start = Int(nameOffsets[Int(index)]), end = Int(nameOffsets[Int(index) + 1])
        return String(decoding: UnsafeBufferPointer(rebasing: nameBytes[start..<end]), as: UTF8.self)
    }

    func usable(segment: Int, direction: Int, mode: DirectionsMode) -> Bool {
        segmentFlags[segment] & (1 << UInt8(2 * mode.index + direction)) != 0
    }

    /// Entering a state's segment whole: its cost for the mode (``TurnGraph/cost(lengthCentimeters:speedKilometersPerHour:mode:)``).
    func cost(ofState state: Int32, mode: DirectionsMode) -> UInt32 {
        let segment = Int(state >> 1)
        guard usable(segment: segment, direction: Int(state & 1), mode: mode) else { return TurnGraph.unusable }
        return TurnGraph.cost(lengthCentimeters: segmentLengthCentimeters[segment], speedKilometersPerHour: segmentSpeed[3 * segment + mode.index], mode: mode)
    }

    /// Whether a point lies in the extract's bounding box.
    public func covers(_ coordinate: Coordinate) -> Bool {
        (minimumLatitude...maximumLatitude).contains(coordinate.latitude) && (minimumLongitude...maximumLongitude).contains(coordinate.longitude)
    }

    /// The graph as plain arrays again (for the turn graph of the reference search in tests).
    func data() -> RoadGraphData {
        var data = RoadGraphData()
        data.nodeLatitudeE7 = Array(nodeLatitudeE7)
        data.nodeLongitudeE7 = Array(nodeLongitudeE7)
        data.nodeBarrier = Array(nodeBarrier)
        data.segmentFrom = Array(segmentFrom)
        data.segmentTo = Array(segmentTo)
        data.segmentLengthCentimeters = Array(segmentLengthCentimeters)
        data.segmentWay = Array(segmentWay)
        data.segmentFlags = Array(segmentFlags)
        data.segmentSpeed = Array(segmentSpeed)
        data.segmentConnected = Array(segmentConnected)
        data.wayID = Array(wayID)
        data.wayName = Array(wayName)
        for index in stride(from: 0, to: restrictionWords.count, by: 4) {
            let flags: Int32 = restrictionWords[index + 3]
            data.restrictions.append(TurnRestriction(fromWay: restrictionWords[index], viaNode: restrictionWords[index + 1],
                                                     toWay: restrictionWords[index + 2], only: flags & 1 != 0,
                                                     modes: UInt8(truncatingIfNeeded: flags >> 1)))
        }
        return data
    }
}

/// How far ``RoadGraph/build(extractPath:outputPath:reader:progress:)`` has gone.
public enum RoadGraphBuildProgress: Sendable, Equatable {
    /// Reading the extract, `pass` of `passes` (relations, ways, nodes).
    case reading(pass: Int, passes: Int, bytesDone: Int, totalBytes: Int)
    /// Contracting the three modes' turn graphs at once: states contracted of all modes' states.
    case contracting(statesDone: Int, states: Int)
    /// Writing the graph file.
    case writing
}
