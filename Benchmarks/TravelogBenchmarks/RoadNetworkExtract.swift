import Foundation

/// Writes a made-up country's road network as an `.osm.pbf` extract, for the `directions-scale`
/// benchmark. Its unit is a tick of 25 m (the spacing of a road's nodes, as curves and crossings
/// place them in OSM). Primary roads form a grid of 1.6 km squares (64 ticks); inside each square a
/// neighbourhood of residential streets 200 m apart (7 × 7 of them) joins the primaries only by
/// its two middle streets, four entrances, as real suburbs do. Every 10th primary line has a
/// motorway beside it (100 m off, no junction with what it crosses), joined to the primaries every
/// 3 squares by a link. One residential row in four is one-way (alternating directions), so that
/// driving and cycling differ from walking. Blocks are written uncompressed (`Blob.raw`), which the
/// format allows and the reader takes: the benchmark measures the graph's preprocessing, not zlib.
/// A node's id is its position: `y × (width + 1) + x + 1`.
struct RoadNetworkExtract {
    /// Squares of primaries in each direction.
    let squares: Int
    static let square = 64, street = 8, motorwayEvery = 10, linkEvery = 3
    /// A tick at 60° N: 0.000225° of latitude, 0.00045° of longitude.
    static let latitudeStepE7 = 2_250, longitudeStepE7 = 4_500
    static let originLatitudeE7 = 600_000_000, originLongitudeE7 = 200_000_000
    /// Nodes of one square, a little under (its primaries' share and its neighbourhood): the
    /// network has at least the nodes asked for (5,000,000: 80 × 80 squares, 5,084,161 nodes).
    static let nodesPerSquare = 790

    init(nodes: Int) {
        squares = max(2 * Self.motorwayEvery, Int((Double(nodes) / Double(Self.nodesPerSquare)).squareRoot().rounded(.up)))
    }

    var width: Int { squares * Self.square }

    func id(x: Int, y: Int) -> Int64 { Int64(y * (width + 1) + x + 1) }

    func isPrimary(x: Int, y: Int) -> Bool { x % Self.square == 0 || y % Self.square == 0 }

    /// On a residential street: a row (`horizontal`) or a column of a neighbourhood.
    func isResidential(x: Int, y: Int, horizontal: Bool) -> Bool {
        let (along, across) = horizontal ? (x % Self.square, y % Self.square) : (y % Self.square, x % Self.square)
        guard across % Self.street == 0, across >= Self.street, across <= Self.square - Self.street else { return false }
        return (along >= Self.street && along <= Self.square - Self.street) || across == Self.square / 2
    }

    /// On a motorway: rows' run 4 ticks north of every 10th primary row, nodes at x ≡ 2 (mod 16);
    /// columns' 4 ticks east of every 10th primary column, nodes at y ≡ 2 (mod 16).
    func isMotorway(x: Int, y: Int, horizontal: Bool) -> Bool {
        let (along, across) = horizontal ? (x, y) : (y, x)
        return across % Self.square == 4 && (across / Self.square) % Self.motorwayEvery == 0 && along % 16 == 2
    }

    func isRoad(x: Int, y: Int) -> Bool {
        isPrimary(x: x, y: y) || isResidential(x: x, y: y, horizontal: true) || isResidential(x: x, y: y, horizontal: false)
            || isMotorway(x: x, y: y, horizontal: true) || isMotorway(x: x, y: y, horizontal: false)
    }

    /// Writes the extract. - Returns: its node count.
    @discardableResult
    func write(to path: String) throws -> Int {
        let partial = path + ".partial"
        _ = FileManager.default.createFile(atPath: partial, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: partial))
        var writer = PBFWriter(handle: handle)
        try writer.header(minimumLatitudeE7: Self.originLatitudeE7, minimumLongitudeE7: Self.originLongitudeE7,
                          maximumLatitudeE7: Self.originLatitudeE7 + width * Self.latitudeStepE7,
                          maximumLongitudeE7: Self.originLongitudeE7 + width * Self.longitudeStepE7)
        var nodes = 0
        for y in 0...width {
            for x in 0...width where isRoad(x: x, y: y) {
                try writer.node(id: id(x: x, y: y), latitudeE7: Self.originLatitudeE7 + y * Self.latitudeStepE7,
                                longitudeE7: Self.originLongitudeE7 + x * Self.longitudeStepE7)
                nodes += 1
            }
        }
        try writer.flush()
        var wayID: Int64 = 1
        func way(_ points: [(x: Int, y: Int)], _ tags: [(String, String)]) throws {
            try writer.way(id: wayID, refs: points.map { id(x: $0.x, y: $0.y) }, tags: tags)
            wayID += 1
        }
        for horizontal in [true, false] {
            func point(_ along: Int, _ across: Int) -> (x: Int, y: Int) { horizontal ? (along, across) : (across, along) }
            let name = horizontal ? "Row" : "Column"
            for line in 0...squares {
                // Primaries: a way per square's side.
                for cell in 0..<squares {
                    let start = cell * Self.square
                    try way((start...(start + Self.square)).map { point($0, line * Self.square) },
                            [("highway", "primary"), ("name", "\(name) \(line) road")])
                }
            }
            for cell in 0..<squares {
                for other in 0..<squares {
                    for across in stride(from: Self.street, through: Self.square - Self.street, by: Self.street) {
                        let middle = across == Self.square / 2
                        let range = middle ? 0...Self.square : Self.street...(Self.square - Self.street)
                        var tags = [("highway", "residential"), ("name", "\(name) \(cell).\(other).\(across / Self.street)")]
                        if horizontal, across == 3 * Self.street { tags.append(("oneway", "yes")) }
                        if horizontal, across == 5 * Self.street { tags.append(("oneway", "-1")) }
                        try way(range.map { point(other * Self.square + $0, cell * Self.square + across) }, tags)
                    }
                }
            }
            for line in stride(from: 0, through: squares, by: Self.motorwayEvery) {
                let across = line * Self.square + 4
                guard across <= width else { continue }
                let stops = Array(stride(from: 2, through: width, by: 16))
                for start in stride(from: 0, to: stops.count - 1, by: 40) {
                    try way(stops[start...min(stops.count - 1, start + 40)].map { point($0, across) },
                            [("highway", "motorway"), ("oneway", "no"), ("ref", "E\(horizontal ? 1 : 2)\(line)")])
                }
                for cell in stride(from: 0, to: squares, by: Self.linkEvery) {
                    // From the motorway's node 2 ticks past the crossing primary to that primary's node beside it.
                    let along = cell * Self.square
                    try way([point(along + 2, across), point(along, across)], [("highway", "motorway_link"), ("oneway", "no")])
                }
            }
        }
        try writer.flush()
        try handle.close()
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try FileManager.default.moveItem(atPath: partial, toPath: path)
        return nodes
    }
}

/// A minimal `.osm.pbf` writer (osmformat.proto, fileformat.proto): a header block, then blocks of
/// dense nodes and of ways, 8,000 objects each, uncompressed; granularity 100 nanodegrees.
struct PBFWriter {
    let handle: FileHandle
    private var nodeIDs: [Int64] = [], latitudes: [Int64] = [], longitudes: [Int64] = []
    private var ways: [(id: Int64, refs: [Int64], tags: [(String, String)])] = []
    static let blockObjects = 8_000

    init(handle: FileHandle) { self.handle = handle }

    mutating func header(minimumLatitudeE7: Int, minimumLongitudeE7: Int, maximumLatitudeE7: Int, maximumLongitudeE7: Int) throws {
        var box = Protobuf()
        box.sint(1, Int64(minimumLongitudeE7) * 100)
        box.sint(2, Int64(maximumLongitudeE7) * 100)
        box.sint(3, Int64(maximumLatitudeE7) * 100)
        box.sint(4, Int64(minimumLatitudeE7) * 100)
        var block = Protobuf()
        block.message(1, box)
        block.string(4, "OsmSchema-V0.6")
        block.string(4, "DenseNodes")
        block.string(16, "Travelog benchmarks")
        try frame(type: "OSMHeader", block.bytes)
    }

    mutating func node(id: Int64, latitudeE7: Int, longitudeE7: Int) throws {
        nodeIDs.append(id)
        latitudes.append(Int64(latitudeE7))
        longitudes.append(Int64(longitudeE7))
        if nodeIDs.count == Self.blockObjects { try flush() }
    }

    mutating func way(id: Int64, refs: [Int64], tags: [(String, String)]) throws {
        ways.append((id, refs, tags))
        if ways.count == Self.blockObjects { try flush() }
    }

    mutating func flush() throws {
        if !nodeIDs.isEmpty {
            var dense = Protobuf()
            dense.packedDeltas(1, nodeIDs)
            dense.packedDeltas(8, latitudes)
            dense.packedDeltas(9, longitudes)
            var group = Protobuf()
            group.message(2, dense)
            var block = Protobuf()
            block.message(1, Protobuf.stringTable([]))
            block.message(2, group)
            try frame(type: "OSMData", block.bytes)
            nodeIDs.removeAll(keepingCapacity: true)
            latitudes.removeAll(keepingCapacity: true)
            longitudes.removeAll(keepingCapacity: true)
        }
        if !ways.isEmpty {
            var strings: [String] = [], index: [String: UInt64] = [:]
            func code(_ string: String) -> UInt64 {
                if let known = index[string] { return known }
                strings.append(string)
                index[string] = UInt64(strings.count)
                return UInt64(strings.count)
            }
            var group = Protobuf()
            for way in ways {
                var message = Protobuf()
                message.varint(1, UInt64(way.id))
                message.packed(2, way.tags.map { code($0.0) })
                message.packed(3, way.tags.map { code($0.1) })
                message.packedDeltas(8, way.refs)
                group.message(3, message)
            }
            var block = Protobuf()
            block.message(1, Protobuf.stringTable(strings))
            block.message(2, group)
            try frame(type: "OSMData", block.bytes)
            ways.removeAll(keepingCapacity: true)
        }
    }

    private func frame(type: String, _ content: [UInt8]) throws {
        var blob = Protobuf()
        blob.bytes(1, content)
        blob.varint(2, UInt64(content.count))
        var header = Protobuf()
        header.string(1, type)
        header.varint(3, UInt64(blob.bytes.count))
        let length = UInt32(header.bytes.count)
        try handle.write(contentsOf: [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)])
        try handle.write(contentsOf: header.bytes)
        try handle.write(contentsOf: blob.bytes)
    }
}

/// Protocol buffers' wire format, the few shapes the writer needs.
struct Protobuf {
    var bytes: [UInt8] = []

    static func stringTable(_ strings: [String]) -> Protobuf {
        var table = Protobuf()
        table.bytes(1, [])                 // entry 0 is the empty string by convention
        for string in strings { table.string(1, string) }
        return table
    }

    mutating func raw(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func key(_ field: Int, _ wireType: UInt64) { raw(UInt64(field) << 3 | wireType) }
    mutating func varint(_ field: Int, _ value: UInt64) { key(field, 0); raw(value) }
    mutating func sint(_ field: Int, _ value: Int64) { varint(field, Self.zigzag(value)) }
    mutating func bytes(_ field: Int, _ value: [UInt8]) { key(field, 2); raw(UInt64(value.count)); bytes += value }
    mutating func string(_ field: Int, _ value: String) { bytes(field, Array(value.utf8)) }
    mutating func message(_ field: Int, _ value: Protobuf) { bytes(field, value.bytes) }

    mutating func packed(_ field: Int, _ values: [UInt64]) {
        var body = Protobuf()
        for value in values { body.raw(value) }
        bytes(field, body.bytes)
    }

    /// Signed values delta-coded, each difference zigzagged (`sint64`).
    mutating func packedDeltas(_ field: Int, _ values: [Int64]) {
        var body = Protobuf(), previous: Int64 = 0
        for value in values {
            body.raw(Self.zigzag(value - previous))
            previous = value
        }
        bytes(field, body.bytes)
    }

    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }
}
