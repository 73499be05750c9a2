/// One data block of an extract (osmformat.proto's `PrimitiveBlock`), decoded: its nodes, ways and
/// relations with their tags resolved through the block's string table. Blocks hold up to 8,000
/// objects by the format's convention (a few MB decoded), whatever the file's size.
public struct OSMBlock: Sendable {
    /// The block's number in the file: 0 is the header block, data blocks count from 1.
    public let number: Int
    /// The bytes of the file its frame occupies (for progress and messages).
    public let byteRange: Range<Int>
    public internal(set) var nodes: [OSMNode] = []
    public internal(set) var ways: [OSMWay] = []
    public internal(set) var relations: [OSMRelation] = []

    init(number: Int, byteRange: Range<Int>) {
        self.number = number
        self.byteRange = byteRange
    }
}

extension OSMBlock {
    /// The coordinate encoding of a block: degrees = 1e-9 × (offset + granularity × value).
    private struct Scale {
        var granularity: Int64 = 100
        var latitudeOffset: Int64 = 0
        var longitudeOffset: Int64 = 0

        @inline(__always)
        func degrees(_ value: Int64, offset: Int64) -> Double {
            Double(offset &+ granularity &* value) / 1e9
        }
    }

    /// Decodes an inflated `PrimitiveBlock`.
    ///
    /// The string table, granularity and offsets are read first (writers put the groups before the
    /// last two), then the groups. Specification: wiki.openstreetmap.org/wiki/PBF_Format.
    /// - Complexity: O(bytes).
    static func decode(_ bytes: UnsafeRawBufferPointer, number: Int, byteRange: Range<Int>,
                       elements: OSMPBFReader.Elements = .all) throws(ProtobufFailure) -> OSMBlock {
        var block = OSMBlock(number: number, byteRange: byteRange)
        var reader = ProtobufReader(bytes)
        var strings: [String] = []
        var scale = Scale()
        var groups: [ProtobufReader] = []
        try ProtobufFailure.within(.primitiveBlock) { () throws(ProtobufFailure) in
            while let (field, wireType) = try reader.nextField() {
                switch field {
                case 1:
                    try reader.expect(wireType, .lengthDelimited, field: field)
                    strings = try ProtobufFailure.within(.stringTable) { () throws(ProtobufFailure) in try decodeStrings(reader.lengthDelimited()) }
                case 2:
                    try reader.expect(wireType, .lengthDelimited, field: field)
                    groups.append(try reader.lengthDelimited())
                case 17, 19, 20:
                    try reader.expect(wireType, .varint, field: field)
                    let value = Int64(bitPattern: try reader.varint())
                    switch field {
                    case 17:
                        guard value > 0 else { throw ProtobufFailure(offset: reader.position, problem: .badGranularity(value)) }
                        scale.granularity = value
                    case 19: scale.latitudeOffset = value
                    default: scale.longitudeOffset = value
                    }
                default:
                    try reader.skip(field: field, wireType: wireType)
                }
            }
        }
        let table = StringTable(strings: strings)
        var scratch = Scratch()
        for var group in groups {
            try ProtobufFailure.within(.primitiveGroup) { () throws(ProtobufFailure) in
                while let (field, wireType) = try group.nextField() {
                    let kind: OSMPBFReader.Elements = field <= 2 ? .nodes : field == 3 ? .ways : .relations
                    if (1...4).contains(field), !elements.contains(kind) {
                        try group.skip(field: field, wireType: wireType)
                        continue
                    }
                    switch field {
                    case 1:
                        try group.expect(wireType, .lengthDelimited, field: field)
                        let message = try group.lengthDelimited()
                        block.nodes.append(try ProtobufFailure.within(.node) { () throws(ProtobufFailure) in try decodeNode(message, table, scale, &scratch) })
                    case 2:
                        try group.expect(wireType, .lengthDelimited, field: field)
                        let message = try group.lengthDelimited()
                        try ProtobufFailure.within(.denseNodes) { () throws(ProtobufFailure) in try decodeDense(message, table, scale, &scratch, into: &block.nodes) }
                    case 3:
                        try group.expect(wireType, .lengthDelimited, field: field)
                        let message = try group.lengthDelimited()
                        block.ways.append(try ProtobufFailure.within(.way) { () throws(ProtobufFailure) in try decodeWay(message, table, &scratch) })
                    case 4:
                        try group.expect(wireType, .lengthDelimited, field: field)
                        let message = try group.lengthDelimited()
                        block.relations.append(try ProtobufFailure.within(.relation) { () throws(ProtobufFailure) in try decodeRelation(message, table, &scratch) })
                    default:
                        try group.skip(field: field, wireType: wireType)  // changesets (5) and fields to come
                    }
                }
            }
        }
        return block
    }

    /// The block's strings, index 0 the empty string by convention. Invalid UTF-8 is repaired
    /// (U+FFFD), not refused: the API only stores UTF-8, so this is damage, and damage in one tag
    /// value should not lose an extract.
    private static func decodeStrings(_ message: ProtobufReader) throws(ProtobufFailure) -> [String] {
        var reader = message
        var strings: [String] = []
        while let (field, wireType) = try reader.nextField() {
            guard field == 1 else {
                try reader.skip(field: field, wireType: wireType)
                continue
            }
            try reader.expect(wireType, .lengthDelimited, field: field)
            let slice = try reader.lengthDelimited()
            strings.append(String(decoding: UnsafeRawBufferPointer(rebasing: slice.buffer[slice.remainingRange]), as: UTF8.self))
        }
        return strings
    }

    /// The string table with checked lookups.
    private struct StringTable {
        let strings: [String]

        @inline(__always)
        func tag(key: Int64, value: Int64, at offset: Int) throws(ProtobufFailure) -> OSMTag {
            OSMTag(key: try string(key, at: offset), value: try string(value, at: offset))
        }

        @inline(__always)
        func string(_ index: Int64, at offset: Int) throws(ProtobufFailure) -> String {
            guard index >= 0, index < Int64(strings.count) else {
                throw ProtobufFailure(offset: offset, problem: .stringIndexOutOfRange(index: Int(clamping: index), tableCount: strings.count))
            }
            return strings[Int(index)]
        }

        func tags(keys: borrowing VarintRun, values: borrowing VarintRun, at offset: Int) throws(ProtobufFailure) -> [OSMTag] {
            guard keys.count == values.count else {
                throw ProtobufFailure(offset: offset, problem: .lengthMismatch(field: 3, count: values.count, expected: keys.count))
            }
            guard !keys.isEmpty else { return [] }
            var tags: [OSMTag] = []
            tags.reserveCapacity(keys.count)
            for index in keys.indices { tags.append(try tag(key: keys[index], value: values[index], at: offset)) }
            return tags
        }
    }

    /// Integers read from one object into storage reused for the next (see ``VarintRun``).
    private struct Scratch: ~Copyable {
        var ids = VarintRun(capacity: 8192)
        var latitudes = VarintRun(capacity: 8192)
        var longitudes = VarintRun(capacity: 8192)
        var keys = VarintRun()
        var values = VarintRun()
        var roles = VarintRun()
        var types = VarintRun()

        mutating func reset() {
            ids.removeAll()
            latitudes.removeAll()
            longitudes.removeAll()
            keys.removeAll()
            values.removeAll()
            roles.removeAll()
            types.removeAll()
        }
    }

    @inline(__always)
    private static func checkedNode(id: Int64, latitude: Double, longitude: Double, tags: [OSMTag], at offset: Int) throws(ProtobufFailure) -> OSMNode {
        guard abs(latitude) <= 90, abs(longitude) <= 180 else {
            throw ProtobufFailure(offset: offset, problem: .coordinateOutOfRange(id: id))
        }
        return OSMNode(id: id, latitude: latitude, longitude: longitude, tags: tags)
    }

    /// `Node`: id (`sint64`), keys, vals, info, lat and lon (`sint64`).
    private static func decodeNode(_ message: ProtobufReader, _ table: StringTable, _ scale: Scale,
                                   _ scratch: inout Scratch) throws(ProtobufFailure) -> OSMNode {
        var reader = message
        var id: Int64?, latitude: Int64?, longitude: Int64?
        scratch.reset()
        while let (field, wireType) = try reader.nextField() {
            switch field {
            case 1, 8, 9:
                try reader.expect(wireType, .varint, field: field)
                let value = try reader.signedVarint()
                if field == 1 { id = value } else if field == 8 { latitude = value } else { longitude = value }
            case 2: try reader.appendVarints(to: &scratch.keys, field: field, wireType: wireType)
            case 3: try reader.appendVarints(to: &scratch.values, field: field, wireType: wireType)
            default: try reader.skip(field: field, wireType: wireType)
            }
        }
        guard let id else { throw ProtobufFailure(offset: message.position, problem: .missingField(1)) }
        guard let latitude else { throw ProtobufFailure(offset: message.position, problem: .missingField(8)) }
        guard let longitude else { throw ProtobufFailure(offset: message.position, problem: .missingField(9)) }
        return try checkedNode(id: id, latitude: scale.degrees(latitude, offset: scale.latitudeOffset),
                               longitude: scale.degrees(longitude, offset: scale.longitudeOffset),
                               tags: table.tags(keys: scratch.keys, values: scratch.values, at: message.position), at: message.position)
    }

    /// `DenseNodes`: ids, latitudes and longitudes delta-coded in three parallel arrays, and every
    /// node's tags in one array of string indexes (key, value, …, 0 after each node's tags).
    private static func decodeDense(_ message: ProtobufReader, _ table: StringTable, _ scale: Scale, _ scratch: inout Scratch,
                                    into nodes: inout [OSMNode]) throws(ProtobufFailure) {
        var reader = message
        scratch.reset()
        while let (field, wireType) = try reader.nextField() {
            switch field {
            case 1: try reader.appendDeltas(to: &scratch.ids, field: field, wireType: wireType)
            case 8: try reader.appendDeltas(to: &scratch.latitudes, field: field, wireType: wireType)
            case 9: try reader.appendDeltas(to: &scratch.longitudes, field: field, wireType: wireType)
            case 10: try reader.appendVarints(to: &scratch.keys, field: field, wireType: wireType)
            default: try reader.skip(field: field, wireType: wireType)  // denseinfo (5)
            }
        }
        let count = scratch.ids.count
        guard scratch.latitudes.count == count else {
            throw ProtobufFailure(offset: message.position, problem: .lengthMismatch(field: 8, count: scratch.latitudes.count, expected: count))
        }
        guard scratch.longitudes.count == count else {
            throw ProtobufFailure(offset: message.position, problem: .lengthMismatch(field: 9, count: scratch.longitudes.count, expected: count))
        }
        nodes.reserveCapacity(nodes.count + count)
        let keysValues = scratch.keys.count
        var cursor = 0
        for index in 0..<count {
            var tags: [OSMTag] = []
            // keys_vals is absent when no node of the group has tags; otherwise each node's run ends with 0.
            if cursor < keysValues, scratch.keys[cursor] != 0 {
                var runEnd = cursor
                while runEnd < keysValues, scratch.keys[runEnd] != 0 { runEnd += 1 }
                tags.reserveCapacity((runEnd - cursor + 1) / 2)
            }
            while cursor < keysValues {
                let key = scratch.keys[cursor]
                cursor += 1
                if key == 0 { break }
                guard cursor < keysValues else {
                    throw ProtobufFailure(offset: message.position, problem: .lengthMismatch(field: 10, count: keysValues, expected: cursor + 1))
                }
                tags.append(try table.tag(key: key, value: scratch.keys[cursor], at: message.position))
                cursor += 1
            }
            nodes.append(try checkedNode(id: scratch.ids[index], latitude: scale.degrees(scratch.latitudes[index], offset: scale.latitudeOffset),
                                         longitude: scale.degrees(scratch.longitudes[index], offset: scale.longitudeOffset),
                                         tags: tags, at: message.position))
        }
    }

    /// `Way`: id (`int64`), keys, vals, info, refs (delta-coded `sint64`).
    private static func decodeWay(_ message: ProtobufReader, _ table: StringTable, _ scratch: inout Scratch) throws(ProtobufFailure) -> OSMWay {
        var reader = message
        var id: Int64?
        scratch.reset()
        while let (field, wireType) = try reader.nextField() {
            switch field {
            case 1:
                try reader.expect(wireType, .varint, field: field)
                id = Int64(bitPattern: try reader.varint())
            case 2: try reader.appendVarints(to: &scratch.keys, field: field, wireType: wireType)
            case 3: try reader.appendVarints(to: &scratch.values, field: field, wireType: wireType)
            case 8: try reader.appendDeltas(to: &scratch.ids, field: field, wireType: wireType)
            default: try reader.skip(field: field, wireType: wireType)  // info (4), lat and lon of LocationsOnWays (9, 10)
            }
        }
        guard let id else { throw ProtobufFailure(offset: message.position, problem: .missingField(1)) }
        return OSMWay(id: id, nodeIDs: scratch.ids.array(), tags: try table.tags(keys: scratch.keys, values: scratch.values, at: message.position))
    }

    /// `Relation`: id (`int64`), keys, vals, info, and members in three parallel arrays: roles
    /// (string indexes), ids (delta-coded `sint64`) and types.
    private static func decodeRelation(_ message: ProtobufReader, _ table: StringTable, _ scratch: inout Scratch) throws(ProtobufFailure) -> OSMRelation {
        var reader = message
        var id: Int64?
        scratch.reset()
        while let (field, wireType) = try reader.nextField() {
            switch field {
            case 1:
                try reader.expect(wireType, .varint, field: field)
                id = Int64(bitPattern: try reader.varint())
            case 2: try reader.appendVarints(to: &scratch.keys, field: field, wireType: wireType)
            case 3: try reader.appendVarints(to: &scratch.values, field: field, wireType: wireType)
            case 8: try reader.appendVarints(to: &scratch.roles, field: field, wireType: wireType)
            case 9: try reader.appendDeltas(to: &scratch.ids, field: field, wireType: wireType)
            case 10: try reader.appendVarints(to: &scratch.types, field: field, wireType: wireType)
            default: try reader.skip(field: field, wireType: wireType)
            }
        }
        guard let id else { throw ProtobufFailure(offset: message.position, problem: .missingField(1)) }
        let count = scratch.ids.count
        guard scratch.roles.count == count else {
            throw ProtobufFailure(offset: message.position, problem: .lengthMismatch(field: 8, count: scratch.roles.count, expected: count))
        }
        guard scratch.types.count == count else {
            throw ProtobufFailure(offset: message.position, problem: .lengthMismatch(field: 10, count: scratch.types.count, expected: count))
        }
        var members: [OSMRelation.Member] = []
        members.reserveCapacity(count)
        for index in 0..<count {
            let rawType = scratch.types[index]
            guard let type = rawType >= 0 && rawType <= 2 ? OSMRelation.MemberType(rawValue: UInt8(rawType)) : nil else {
                throw ProtobufFailure(offset: message.position, problem: .unknownMemberType(rawType))
            }
            members.append(OSMRelation.Member(type: type, id: scratch.ids[index], role: try table.string(scratch.roles[index], at: message.position)))
        }
        return OSMRelation(id: id, members: members, tags: try table.tags(keys: scratch.keys, values: scratch.values, at: message.position))
    }
}
