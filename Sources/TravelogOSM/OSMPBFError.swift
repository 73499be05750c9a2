#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an `.osm.pbf` extract could not be read. Every case about the file's content names the
/// block (0 is the header block, data blocks count from 1) and the byte offset in the file where
/// that block's frame starts; problems inside a block's inflated message add the offset inside it.
public enum OSMPBFError: Error, Equatable, Sendable, CustomStringConvertible {
    /// There is no file at the path.
    case fileNotFound(path: String)
    /// `open` or `read` failed with this `errno`.
    case unreadable(path: String, errno: Int32)
    /// The file ends inside a block: `expected` is the part being read, `expectedBytes` its length.
    case truncated(block: Int, byteOffset: Int, expected: OSMPBFPart, expectedBytes: Int, availableBytes: Int)
    /// A frame declares a part longer than the format allows (a BlobHeader < 64 KiB, a Blob and its
    /// inflated content < 32 MiB).
    case tooLarge(block: Int, byteOffset: Int, part: OSMPBFPart, bytes: Int, limit: Int)
    /// The first block is not an `OSMHeader` (every extract starts with one).
    case missingHeader(byteOffset: Int, blobType: String)
    /// The extract needs a feature this reader does not implement (`HistoricalInformation`, …).
    case unsupportedFeature(String)
    /// A block is compressed some way other than zlib (or stored raw): lzma, bzip2, lz4, zstd.
    case unsupportedCompression(block: Int, byteOffset: Int, blobField: Int)
    /// zlib refused the compressed bytes (`zlibCode`: `Z_DATA_ERROR`, …) or they inflated to
    /// another size than the blob declares.
    case inflateFailed(block: Int, byteOffset: Int, zlibCode: Int32, declaredBytes: Int, inflatedBytes: Int)
    /// A protobuf message is not well formed or misses a required field.
    case malformed(block: Int, byteOffset: Int, message: OSMPBFMessage, offsetInMessage: Int, problem: OSMPBFWireProblem)

    public var description: String {
        switch self {
        case .fileNotFound(let path):
            "no OpenStreetMap extract at \(path)"
        case .unreadable(let path, let errno):
            "cannot read \(path): \(String(cString: strerror(errno)))"
        case .truncated(let block, let byteOffset, let expected, let expectedBytes, let availableBytes):
            "the extract is truncated in block \(block) (frame at byte \(byteOffset)): expected \(expectedBytes) bytes of \(expected), "
                + "the file has \(availableBytes)"
        case .tooLarge(let block, let byteOffset, let part, let bytes, let limit):
            "block \(block) (frame at byte \(byteOffset)) declares \(part) of \(bytes) bytes; the format allows at most \(limit)"
                + (block == 0 ? " (is the file an .osm.pbf extract?)" : "")
        case .missingHeader(_, let blobType) where blobType.isEmpty:
            "the file is empty: an .osm.pbf extract starts with an OSMHeader block"
        case .missingHeader(let byteOffset, let blobType):
            "the file does not start with an OSMHeader block (found \"\(blobType)\" at byte \(byteOffset)): is it an .osm.pbf extract?"
        case .unsupportedFeature(let feature):
            "the extract requires the feature \"\(feature)\", which Travelog does not read (history files are not supported)"
        case .unsupportedCompression(let block, let byteOffset, let field):
            "block \(block) (frame at byte \(byteOffset)) is compressed with \(Self.compressionName(field)); Travelog reads zlib and raw blocks"
        case .inflateFailed(let block, let byteOffset, let code, let declared, let inflated):
            "block \(block) (frame at byte \(byteOffset)) does not inflate: zlib code \(code), \(inflated) of the \(declared) declared bytes"
        case .malformed(let block, let byteOffset, let message, let offsetInMessage, let problem):
            "block \(block) (frame at byte \(byteOffset)) is malformed: \(message) at byte \(offsetInMessage) of the block: \(problem)"
        }
    }

    private static func compressionName(_ field: Int) -> String {
        switch field {
        case 4: "lzma"
        case 5: "bzip2"
        case 6: "lz4"
        case 7: "zstd"
        default: "an unknown method (Blob field \(field))"
        }
    }
}

/// The framing parts of a block, for ``OSMPBFError``.
public enum OSMPBFPart: String, Equatable, Sendable, CustomStringConvertible {
    case blobHeaderLength = "the BlobHeader length"
    case blobHeader = "the BlobHeader"
    case blob = "the Blob"
    case inflatedBlob = "the inflated Blob"

    public var description: String { rawValue }
}

/// The protobuf messages of the format (osmformat.proto and fileformat.proto).
public enum OSMPBFMessage: String, Equatable, Sendable, CustomStringConvertible {
    case blobHeader = "BlobHeader"
    case blob = "Blob"
    case headerBlock = "HeaderBlock"
    case boundingBox = "HeaderBBox"
    case primitiveBlock = "PrimitiveBlock"
    case stringTable = "StringTable"
    case primitiveGroup = "PrimitiveGroup"
    case node = "Node"
    case denseNodes = "DenseNodes"
    case way = "Way"
    case relation = "Relation"

    public var description: String { rawValue }
}

/// What is wrong with a message's bytes.
public enum OSMPBFWireProblem: Equatable, Sendable, CustomStringConvertible {
    /// A varint runs past ten bytes or past the message's end.
    case badVarint
    /// A length-delimited field or a fixed-width value runs past the message's end.
    case lengthBeyondEnd(declared: Int, remaining: Int)
    /// A wire type the protobuf encoding does not have (groups included: the format never uses them).
    case unknownWireType(field: Int, wireType: Int)
    /// A field whose wire type is not the one its definition has.
    case wrongWireType(field: Int, wireType: Int)
    /// A required field is absent.
    case missingField(Int)
    /// A string-table index past the table's end.
    case stringIndexOutOfRange(index: Int, tableCount: Int)
    /// Parallel arrays of unequal lengths (keys and values, ids and coordinates, members' fields).
    case lengthMismatch(field: Int, count: Int, expected: Int)
    /// A coordinate outside ±90° latitude or ±180° longitude.
    case coordinateOutOfRange(id: Int64)
    /// A granularity that is not positive.
    case badGranularity(Int64)
    /// A relation member type other than node (0), way (1) and relation (2).
    case unknownMemberType(Int64)
    /// A string that is not UTF-8.
    case invalidUTF8(field: Int)

    public var description: String {
        switch self {
        case .badVarint: "a varint longer than 10 bytes or cut off"
        case .lengthBeyondEnd(let declared, let remaining): "a field of \(declared) bytes where \(remaining) remain"
        case .unknownWireType(let field, let wireType): "field \(field) has the unknown wire type \(wireType)"
        case .wrongWireType(let field, let wireType): "field \(field) has the wrong wire type \(wireType)"
        case .missingField(let field): "the required field \(field) is absent"
        case .stringIndexOutOfRange(let index, let count): "string index \(index) in a table of \(count)"
        case .lengthMismatch(let field, let count, let expected): "field \(field) has \(count) values where \(expected) were expected"
        case .coordinateOutOfRange(let id): "node \(id) lies outside ±90° latitude or ±180° longitude"
        case .badGranularity(let value): "granularity \(value) is not positive"
        case .unknownMemberType(let value): "relation member type \(value) is not node, way or relation"
        case .invalidUTF8(let field): "field \(field) is not UTF-8"
        }
    }
}
