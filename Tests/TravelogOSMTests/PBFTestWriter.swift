import CZlib
import TravelogOSM

/// Protobuf's wire format written, for the extracts the tests build.
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    static func zigZag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    mutating func key(_ field: Int, _ wireType: Int) { varint(UInt64(field << 3 | wireType)) }
    mutating func field(_ field: Int, varint value: UInt64) { key(field, 0); varint(value) }
    mutating func field(_ field: Int, signed value: Int64) { key(field, 0); varint(Self.zigZag(value)) }
    mutating func field(_ field: Int, bytes value: [UInt8]) { key(field, 2); varint(UInt64(value.count)); bytes += value }
    mutating func field(_ field: Int, string value: String) { self.field(field, bytes: Array(value.utf8)) }
    mutating func field(_ field: Int, packed values: [UInt64]) {
        var packed = ProtobufWriter()
        for value in values { packed.varint(value) }
        self.field(field, bytes: packed.bytes)
    }
    mutating func field(_ field: Int, deltas values: [Int64]) {
        var last: Int64 = 0
        self.field(field, packed: values.map { value in defer { last = value }; return Self.zigZag(value &- last) })
    }
}

/// Builds small `.osm.pbf` files: a header, then data blocks of nodes (dense or not), ways and relations.
struct PBFTestWriter {
    struct Block {
        var denseNodes: [OSMNode] = []
        var plainNodes: [OSMNode] = []
        var ways: [OSMWay] = []
        var relations: [OSMRelation] = []
        var granularity: Int64 = 100
        var latitudeOffset: Int64 = 0
        var longitudeOffset: Int64 = 0
    }

    var requiredFeatures = ["OsmSchema-V0.6", "DenseNodes"]
    var boundingBox: OSMHeader.BoundingBox?
    var compressed = true
    private(set) var bytes: [UInt8] = []

    init(requiredFeatures: [String] = ["OsmSchema-V0.6", "DenseNodes"], boundingBox: OSMHeader.BoundingBox? = nil, compressed: Bool = true) {
        self.requiredFeatures = requiredFeatures
        self.boundingBox = boundingBox
        self.compressed = compressed
        var header = ProtobufWriter()
        if let box = boundingBox {
            var message = ProtobufWriter()
            message.field(1, signed: Int64((box.minimumLongitude * 1e9).rounded()))
            message.field(2, signed: Int64((box.maximumLongitude * 1e9).rounded()))
            message.field(3, signed: Int64((box.maximumLatitude * 1e9).rounded()))
            message.field(4, signed: Int64((box.minimumLatitude * 1e9).rounded()))
            header.field(1, bytes: message.bytes)
        }
        for feature in requiredFeatures { header.field(4, string: feature) }
        header.field(16, string: "TravelogTests")
        bytes += Self.frame(type: "OSMHeader", payload: header.bytes, compressed: compressed)
    }

    mutating func append(_ block: Block) {
        bytes += Self.frame(type: "OSMData", payload: Self.primitiveBlock(block), compressed: compressed)
    }

    /// A frame: length, BlobHeader, Blob (zlib or raw).
    static func frame(type: String, payload: [UInt8], compressed: Bool) -> [UInt8] {
        var blob = ProtobufWriter()
        if compressed {
            blob.field(2, varint: UInt64(payload.count))
            blob.field(3, bytes: deflate(payload))
        } else {
            blob.field(1, bytes: payload)
        }
        return frame(type: type, blob: blob.bytes)
    }

    static func frame(type: String, blob: [UInt8], declaredSize: Int? = nil) -> [UInt8] {
        var header = ProtobufWriter()
        header.field(1, string: type)
        header.field(3, varint: UInt64(declaredSize ?? blob.count))
        let length = UInt32(header.bytes.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + header.bytes + blob
    }

    static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let code = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { compress2(out.baseAddress, &length, $0.baseAddress, uLong($0.count), 6) }
        }
        precondition(code == Z_OK)
        return Array(output[0..<Int(length)])
    }

    private static func primitiveBlock(_ block: Block) -> [UInt8] {
        var strings = [""]
        var index: [String: Int] = ["": 0]
        func id(_ string: String) -> UInt64 {
            if let known = index[string] { return UInt64(known) }
            index[string] = strings.count
            strings.append(string)
            return UInt64(strings.count - 1)
        }
        func raw(_ degrees: Double, _ offset: Int64) -> Int64 { (Int64((degrees * 1e9).rounded()) - offset) / block.granularity }
        var group = ProtobufWriter()
        if !block.denseNodes.isEmpty {
            var dense = ProtobufWriter()
            dense.field(1, deltas: block.denseNodes.map(\.id))
            dense.field(8, deltas: block.denseNodes.map { raw($0.latitude, block.latitudeOffset) })
            dense.field(9, deltas: block.denseNodes.map { raw($0.longitude, block.longitudeOffset) })
            if block.denseNodes.contains(where: { !$0.tags.isEmpty }) {
                dense.field(10, packed: block.denseNodes.flatMap { node in node.tags.flatMap { [id($0.key), id($0.value)] } + [0] })
            }
            group.field(2, bytes: dense.bytes)
        }
        for node in block.plainNodes {
            var message = ProtobufWriter()
            message.field(1, signed: node.id)
            message.field(2, packed: node.tags.map { id($0.key) })
            message.field(3, packed: node.tags.map { id($0.value) })
            message.field(8, signed: raw(node.latitude, block.latitudeOffset))
            message.field(9, signed: raw(node.longitude, block.longitudeOffset))
            group.field(1, bytes: message.bytes)
        }
        for way in block.ways {
            var message = ProtobufWriter()
            message.field(1, varint: UInt64(bitPattern: way.id))
            message.field(2, packed: way.tags.map { id($0.key) })
            message.field(3, packed: way.tags.map { id($0.value) })
            message.field(8, deltas: way.nodeIDs)
            group.field(3, bytes: message.bytes)
        }
        for relation in block.relations {
            var message = ProtobufWriter()
            message.field(1, varint: UInt64(bitPattern: relation.id))
            message.field(2, packed: relation.tags.map { id($0.key) })
            message.field(3, packed: relation.tags.map { id($0.value) })
            message.field(8, packed: relation.members.map { id($0.role) })
            message.field(9, deltas: relation.members.map(\.id))
            message.field(10, packed: relation.members.map { UInt64($0.type.rawValue) })
            group.field(4, bytes: message.bytes)
        }
        var table = ProtobufWriter()
        for string in strings { table.field(1, string: string) }
        var message = ProtobufWriter()
        message.field(1, bytes: table.bytes)
        message.field(2, bytes: group.bytes)
        if block.granularity != 100 { message.field(17, varint: UInt64(block.granularity)) }
        if block.latitudeOffset != 0 { message.field(19, varint: UInt64(bitPattern: block.latitudeOffset)) }
        if block.longitudeOffset != 0 { message.field(20, varint: UInt64(bitPattern: block.longitudeOffset)) }
        return message.bytes
    }
}
