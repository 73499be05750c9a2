import Foundation
import Testing
import TravelogOSM
import TravelogTestSupport

/// Everything a read hands out, for comparisons.
struct ReadResult: Equatable {
    var header: OSMHeader?
    var blockNumbers: [Int] = []
    var nodes: [OSMNode] = []
    var ways: [OSMWay] = []
    var relations: [OSMRelation] = []

    static func of(_ bytes: [UInt8], threads: Int, blocksInFlight: Int? = nil) throws -> ReadResult {
        var result = ReadResult()
        try OSMPBFReader(threads: threads, blocksInFlight: blocksInFlight).read(bytes: bytes, header: { result.header = $0 }) { block in
            result.blockNumbers.append(block.number)
            result.nodes += block.nodes
            result.ways += block.ways
            result.relations += block.relations
        }
        return result
    }
}

@Suite("OSM PBF reader")
struct OSMPBFReaderTests {
    static let cafe = OSMNode(id: 151_006_533, latitude: 60.1647366, longitude: 24.9377736,
                              tags: [OSMTag(key: "amenity", value: "cafe"), OSMTag(key: "name", value: "Cafe Ekberg")])
    static let box = OSMHeader.BoundingBox(minimumLatitude: 60.16, minimumLongitude: 24.93, maximumLatitude: 60.18, maximumLongitude: 24.96)

    /// Two data blocks: dense nodes (some tagged, a negative id, a non-Latin name), a plain node,
    /// a way and a relation; the second block with another granularity and offsets.
    static func sample(compressed: Bool = true) -> (bytes: [UInt8], blocks: [PBFTestWriter.Block]) {
        var writer = PBFTestWriter(boundingBox: box, compressed: compressed)
        var first = PBFTestWriter.Block()
        first.denseNodes = [
            OSMNode(id: 1, latitude: 60.17, longitude: 24.94),
            cafe,
            OSMNode(id: -5, latitude: -33.8568, longitude: 151.2153, tags: [OSMTag(key: "name", value: "シドニー")]),
            OSMNode(id: 151_006_534, latitude: 60.1648, longitude: 24.9378),
        ]
        first.plainNodes = [OSMNode(id: 7, latitude: 89.9999999, longitude: -179.9999999, tags: [OSMTag(key: "natural", value: "peak")])]
        first.ways = [OSMWay(id: 22_906_934, nodeIDs: [1, 151_006_533, 151_006_534, 1],
                             tags: [OSMTag(key: "name", value: "Mannerheimintie"), OSMTag(key: "name:sv", value: "Mannerheimvägen")])]
        var second = PBFTestWriter.Block()
        second.granularity = 1000
        second.latitudeOffset = 60_000_000_000
        second.longitudeOffset = 24_000_000_000
        second.denseNodes = [OSMNode(id: 9, latitude: 60.123456, longitude: 24.654321)]
        second.relations = [OSMRelation(id: 4055, members: [
            OSMRelation.Member(type: .way, id: 22_906_934, role: "outer"),
            OSMRelation.Member(type: .way, id: 17_430_894, role: "inner"),
            OSMRelation.Member(type: .node, id: 9, role: ""),
        ], tags: [OSMTag(key: "type", value: "multipolygon")])]
        writer.append(first)
        writer.append(second)
        return (writer.bytes, [first, second])
    }

    @Test("dense and plain nodes, ways and relations read back as written, tags and coordinates included", arguments: [true, false])
    func roundTrip(compressed: Bool) throws {
        let (bytes, blocks) = Self.sample(compressed: compressed)
        let read = try ReadResult.of(bytes, threads: 1)
        #expect(read.header?.boundingBox == Self.box)
        #expect(read.header?.requiredFeatures == ["OsmSchema-V0.6", "DenseNodes"])
        #expect(read.header?.writingProgram == "TravelogTests")
        #expect(read.blockNumbers == [1, 2])
        let written = blocks.flatMap { $0.denseNodes + $0.plainNodes }
        #expect(read.nodes.map(\.id) == written.map(\.id))
        #expect(read.nodes.map(\.tags) == written.map(\.tags))
        for (got, expected) in zip(read.nodes, written) {
            // 1e-9 degree: the 100-nanodegree granularity rounds nothing here, the 1000 of the second block neither.
            #expect(abs(got.latitude - expected.latitude) < 1e-9 && abs(got.longitude - expected.longitude) < 1e-9, "node \(got.id)")
        }
        #expect(read.ways == blocks[0].ways)
        #expect(read.relations == blocks[1].relations)
        #expect(read.ways.first?.isClosed == true)
        #expect(read.ways.first?.tags[osmKey: "name:sv"] == "Mannerheimvägen")
    }

    @Test("several threads hand out the same blocks in the same order as one", arguments: [(2, 1), (3, 2), (4, 8)])
    func threadsAgree(threads: Int, inFlight: Int) throws {
        var writer = PBFTestWriter()
        for blockIndex in 0..<40 {
            var block = PBFTestWriter.Block()
            block.denseNodes = (0..<50).map { OSMNode(id: Int64(blockIndex * 50 + $0), latitude: Double($0) / 10, longitude: Double(blockIndex)) }
            writer.append(block)
        }
        let one = try ReadResult.of(writer.bytes, threads: 1)
        let many = try ReadResult.of(writer.bytes, threads: threads, blocksInFlight: inFlight)
        #expect(one.nodes.count == 2000)
        #expect(many == one)
        #expect(many.blockNumbers == Array(1...40))
    }

    @Test("an error thrown by the caller's closure stops the read and reaches the caller", arguments: [1, 3])
    func callerErrorStops(threads: Int) throws {
        struct Stop: Error {}
        var writer = PBFTestWriter()
        for _ in 0..<10 { writer.append(PBFTestWriter.Block(denseNodes: [OSMNode(id: 1, latitude: 0, longitude: 0)])) }
        var seen = 0
        #expect(throws: Stop.self) {
            try OSMPBFReader(threads: threads).read(bytes: writer.bytes) { _ in
                seen += 1
                if seen == 3 { throw Stop() }
            }
        }
        #expect(seen == 3)
    }

    @Test("a file that is not an extract, or an empty one, is refused as having no header")
    func noHeader() {
        #expect(throws: OSMPBFError.missingHeader(byteOffset: 0, blobType: "")) { try ReadResult.of([], threads: 1) }
        let dataFirst = PBFTestWriter.frame(type: "OSMData", payload: [], compressed: false)
        #expect(throws: OSMPBFError.missingHeader(byteOffset: 0, blobType: "OSMData")) { try ReadResult.of(dataFirst, threads: 1) }
    }

    @Test("an extract requiring history or another unknown feature is refused by name")
    func unsupportedFeature() {
        let writer = PBFTestWriter(requiredFeatures: ["OsmSchema-V0.6", "HistoricalInformation"])
        #expect(throws: OSMPBFError.unsupportedFeature("HistoricalInformation")) { try ReadResult.of(writer.bytes, threads: 1) }
    }

    @Test("a block compressed with lzma or zstd is refused by name")
    func otherCompression() {
        var blob = ProtobufWriter()
        blob.field(2, varint: 10)
        blob.field(7, bytes: [1, 2, 3])
        let header = PBFTestWriter().bytes
        let bytes = header + PBFTestWriter.frame(type: "OSMData", blob: blob.bytes)
        #expect(throws: OSMPBFError.unsupportedCompression(block: 1, byteOffset: header.count, blobField: 7)) { try ReadResult.of(bytes, threads: 2) }
    }

    @Test("a frame declaring a Blob of 32 MiB or more, or a BlobHeader of 64 KiB or more, is refused before it is read")
    func tooLarge() {
        let header = PBFTestWriter().bytes
        let hugeBlob = header + PBFTestWriter.frame(type: "OSMData", blob: [], declaredSize: 33 * 1024 * 1024)
        #expect(throws: OSMPBFError.tooLarge(block: 1, byteOffset: header.count, part: .blob, bytes: 33 * 1024 * 1024, limit: 32 * 1024 * 1024)) {
            try ReadResult.of(hugeBlob, threads: 1)
        }
        let hugeHeader = header + [0, 1, 0, 1]
        #expect(throws: OSMPBFError.tooLarge(block: 1, byteOffset: header.count, part: .blobHeader, bytes: 65537, limit: 65536)) {
            try ReadResult.of(hugeHeader, threads: 1)
        }
        var blob = ProtobufWriter()
        blob.field(2, varint: 1 << 40)
        blob.field(3, bytes: PBFTestWriter.deflate([0]))
        let inflatesTooFar = header + PBFTestWriter.frame(type: "OSMData", blob: blob.bytes)
        #expect(throws: OSMPBFError.tooLarge(block: 1, byteOffset: header.count, part: .inflatedBlob, bytes: 1 << 40, limit: 32 * 1024 * 1024)) {
            try ReadResult.of(inflatesTooFar, threads: 1)
        }
    }

    @Test("a block that inflates to less than it declares is an inflate error naming the sizes")
    func wrongRawSize() {
        let header = PBFTestWriter().bytes
        var blob = ProtobufWriter()
        blob.field(2, varint: 100)
        blob.field(3, bytes: PBFTestWriter.deflate([UInt8](repeating: 7, count: 50)))
        let bytes = header + PBFTestWriter.frame(type: "OSMData", blob: blob.bytes)
        #expect(throws: OSMPBFError.inflateFailed(block: 1, byteOffset: header.count, zlibCode: 0, declaredBytes: 100, inflatedBytes: 50)) {
            try ReadResult.of(bytes, threads: 1)
        }
        // And one that inflates to more: zlib stops at the declared size (Z_BUF_ERROR, -5).
        var longer = ProtobufWriter()
        longer.field(2, varint: 10)
        longer.field(3, bytes: PBFTestWriter.deflate([UInt8](repeating: 7, count: 50)))
        let longerBytes = header + PBFTestWriter.frame(type: "OSMData", blob: longer.bytes)
        #expect(throws: OSMPBFError.inflateFailed(block: 1, byteOffset: header.count, zlibCode: -5, declaredBytes: 10, inflatedBytes: 10)) {
            try ReadResult.of(longerBytes, threads: 1)
        }
    }

    @Test("a file truncated anywhere gives the blocks before the cut, then an error naming the block and its offset", arguments: [1, 3])
    func truncatedEverywhere(threads: Int) throws {
        let (bytes, _) = Self.sample()
        let complete = try ReadResult.of(bytes, threads: 1)
        let headerEnd = PBFTestWriter(boundingBox: Self.box).bytes.count
        var blockEnds: Set<Int> = [headerEnd]
        try OSMPBFReader(threads: 1).read(bytes: bytes) { blockEnds.insert($0.byteRange.upperBound) }
        #expect(blockEnds.count == 3)
        for cut in 1..<bytes.count {
            var delivered: [Int] = []
            do {
                try OSMPBFReader(threads: threads).read(bytes: Array(bytes[0..<cut])) { delivered.append($0.number) }
                // Cut between two frames, the file is a shorter extract.
                #expect(blockEnds.contains(cut), "a file cut at \(cut) of \(bytes.count) bytes was read without error")
            } catch let error as OSMPBFError {
                guard case .truncated(let block, let offset, _, let expected, let available) = error else {
                    Issue.record("cut at \(cut): \(error)")
                    continue
                }
                #expect(available < expected)
                #expect(offset <= cut)
                #expect(block == (cut < headerEnd ? 0 : delivered.count + 1), "cut at \(cut): \(error)")
                #expect(delivered == Array(complete.blockNumbers.prefix(delivered.count)))
            }
        }
    }

    @Test("every single-byte change of an extract is read or refused with an OSMPBFError, never a crash", arguments: [true, false])
    func mutatedEverywhere(compressed: Bool) {
        let (bytes, _) = Self.sample(compressed: compressed)
        var refused = 0
        for position in bytes.indices {
            for change: UInt8 in [0x01, 0x80, 0xFF] {
                var mutated = bytes
                mutated[position] ^= change
                do {
                    _ = try ReadResult.of(mutated, threads: position % 2 == 0 ? 1 : 2)
                } catch is OSMPBFError {
                    refused += 1
                } catch {
                    Issue.record("byte \(position) ^ \(change): \(error) is not an OSMPBFError")
                }
            }
        }
        #expect(refused > 0)
    }

    @Test("malformed messages inside a block name the message and the problem")
    func malformedMessage() {
        let header = PBFTestWriter().bytes
        // A DenseNodes with two ids and one latitude.
        var dense = ProtobufWriter()
        dense.field(1, deltas: [1, 2])
        dense.field(8, deltas: [5])
        dense.field(9, deltas: [5, 6])
        var group = ProtobufWriter()
        group.field(2, bytes: dense.bytes)
        var block = ProtobufWriter()
        block.field(2, bytes: group.bytes)
        let bytes = header + PBFTestWriter.frame(type: "OSMData", payload: block.bytes, compressed: true)
        #expect {
            try ReadResult.of(bytes, threads: 1)
        } throws: { error in
            guard case .malformed(1, header.count, .denseNodes, _, .lengthMismatch(field: 8, count: 1, expected: 2)) = error as? OSMPBFError else { return false }
            return true
        }
        // A way tagged with a string index past the table.
        var way = ProtobufWriter()
        way.field(1, varint: 3)
        way.field(2, packed: [5])
        way.field(3, packed: [6])
        var wayGroup = ProtobufWriter()
        wayGroup.field(3, bytes: way.bytes)
        var wayBlock = ProtobufWriter()
        wayBlock.field(2, bytes: wayGroup.bytes)
        let wayBytes = header + PBFTestWriter.frame(type: "OSMData", payload: wayBlock.bytes, compressed: false)
        #expect {
            try ReadResult.of(wayBytes, threads: 2)
        } throws: { error in
            guard case .malformed(1, header.count, .way, _, .stringIndexOutOfRange(index: 5, tableCount: 0)) = error as? OSMPBFError else { return false }
            return true
        }
    }

    /// A block of one way whose field 8 (refs) is written by `refs`, uncompressed.
    static func wayBlock(_ refs: (inout ProtobufWriter) -> Void) -> (bytes: [UInt8], headerCount: Int) {
        let header = PBFTestWriter().bytes
        var way = ProtobufWriter()
        way.field(1, varint: 3)
        refs(&way)
        var group = ProtobufWriter()
        group.field(3, bytes: way.bytes)
        var block = ProtobufWriter()
        block.field(2, bytes: group.bytes)
        return (header + PBFTestWriter.frame(type: "OSMData", payload: block.bytes, compressed: false), header.count)
    }

    @Test("a repeated field split into packed runs and single values continues its deltas")
    func splitRepeatedField() throws {
        let (bytes, _) = Self.wayBlock { way in
            way.field(8, deltas: [10, 12])
            way.field(8, varint: ProtobufWriter.zigZag(3))  // one value, not packed: 15
            way.field(8, packed: [ProtobufWriter.zigZag(1), ProtobufWriter.zigZag(-16)])  // 16, then 0
        }
        #expect(try ReadResult.of(bytes, threads: 1).ways == [OSMWay(id: 3, nodeIDs: [10, 12, 15, 16, 0])])
    }

    @Test("a packed varint cut by the end of its run, or longer than ten bytes, is refused at its first byte",
          arguments: [[0x02, 0x81, 0x80], [0x02] + [UInt8](repeating: 0xFF, count: 10) + [0x01]] as [[UInt8]])
    func badPackedVarint(run: [UInt8]) {
        let (bytes, headerCount) = Self.wayBlock { way in way.field(8, bytes: run) }
        // The block: group key and length (2), way key and length (2), id (2), refs key and length (2), then the run.
        #expect {
            try ReadResult.of(bytes, threads: 1)
        } throws: { error in
            guard case .malformed(1, headerCount, .way, 9, .badVarint) = error as? OSMPBFError else { return false }
            return true
        }
    }

    @Test("a read of some kinds of objects skips the others and keeps the blocks' numbers", arguments: [1, 2])
    func someElements(threads: Int) throws {
        let (bytes, blocks) = Self.sample()
        var ways: [OSMWay] = [], nodes = 0, relations = 0, numbers: [Int] = []
        try OSMPBFReader(threads: threads, elements: [.ways, .relations]).read(bytes: bytes) { block in
            numbers.append(block.number)
            nodes += block.nodes.count
            ways += block.ways
            relations += block.relations.count
        }
        #expect(numbers == [1, 2])
        #expect(nodes == 0 && relations == 1)
        #expect(ways == blocks[0].ways)
    }

    @Test("unknown blob types are skipped, as the format asks")
    func unknownBlobSkipped() throws {
        var writer = PBFTestWriter()
        writer.append(PBFTestWriter.Block(denseNodes: [OSMNode(id: 1, latitude: 1, longitude: 2)]))
        let bytes = writer.bytes + PBFTestWriter.frame(type: "TravelogIndex", payload: [1, 2, 3], compressed: false)
        let read = try ReadResult.of(bytes, threads: 2)
        #expect(read.nodes.map(\.id) == [1])
    }

    @Test("a missing file is reported by path")
    func missingFile() {
        #expect(throws: OSMPBFError.fileNotFound(path: "/nonexistent/x.osm.pbf")) {
            try OSMPBFReader().read(path: "/nonexistent/x.osm.pbf") { _ in }
        }
    }
}

@Suite("OSM PBF reader on files osmium wrote")
struct OsmiumWrittenTests {
    /// The fuzzer's seeds, written by `osmium cat` (osmium-tool 1.15) from the same seven objects:
    /// dense nodes with zlib, and plain nodes in raw blobs.
    @Test("both encodings read as the objects osmium was given", arguments: ["small-dense", "raw-plain-nodes"])
    func seeds(name: String) throws {
        let path = SharedFixtures.repositoryRoot.appendingPathComponent("Fuzz/Seeds/osm-pbf/\(name).osm.pbf").path
        var nodes: [OSMNode] = [], ways: [OSMWay] = [], relations: [OSMRelation] = []
        try OSMPBFReader(threads: 2).read(path: path) { block in
            nodes += block.nodes
            ways += block.ways
            relations += block.relations
        }
        #expect(nodes.map(\.id) == [1, 2, 3, 4])
        #expect(nodes[0].tags[osmKey: "name"] == "Café Regatta")
        #expect(nodes[0].tags[osmKey: "opening_hours"] == "Mo-Su 09:00-21:00")
        #expect(nodes[2].tags == [OSMTag(key: "name", value: "東京"), OSMTag(key: "name:en", value: "Tokyo")])
        #expect(abs(nodes[0].latitude - 60.1647366) < 1e-9 && abs(nodes[0].longitude - 24.9377736) < 1e-9)
        #expect(ways == [
            OSMWay(id: 10, nodeIDs: [1, 2, 4], tags: [OSMTag(key: "highway", value: "residential"), OSMTag(key: "name", value: "Mannerheimintie"),
                                                       OSMTag(key: "name:sv", value: "Mannerheimvägen")]),
            OSMWay(id: 11, nodeIDs: [1, 2, 3, 1], tags: [OSMTag(key: "building", value: "yes"), OSMTag(key: "addr:street", value: "Bulevardi"),
                                                          OSMTag(key: "addr:housenumber", value: "9")]),
        ])
        #expect(relations == [OSMRelation(id: 20, members: [OSMRelation.Member(type: .way, id: 11, role: "outer"),
                                                             OSMRelation.Member(type: .node, id: 3, role: "")],
                                          tags: [OSMTag(key: "type", value: "multipolygon"), OSMTag(key: "building", value: "yes")])])
    }
}
