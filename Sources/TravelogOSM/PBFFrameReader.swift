import CZlib
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One block of the file as framed (fileformat.proto): its `BlobHeader`'s type and the `Blob`'s
/// bytes, still compressed.
struct PBFFrame: Sendable {
    let number: Int
    let byteRange: Range<Int>
    let type: String
    let blob: [UInt8]
}

/// Reads an extract's frames in order: a 4-byte big-endian length, a `BlobHeader` of that many
/// bytes (type, datasize), then `datasize` bytes of `Blob`. One frame in memory at a time.
struct PBFFrameReader {
    /// The format's limits (wiki.openstreetmap.org/wiki/PBF_Format): a BlobHeader under 64 KiB,
    /// a Blob, compressed or not, under 32 MiB.
    static let maximumBlobHeaderBytes = 64 * 1024
    static let maximumBlobBytes = 32 * 1024 * 1024

    enum Source {
        case descriptor(Int32)
        case memory([UInt8])
    }

    private let source: Source
    private let path: String
    private(set) var offset = 0
    private var nextNumber = 0

    init(source: Source, path: String) {
        self.source = source
        self.path = path
    }

    /// The next frame, or `nil` at the end of the file (which must fall between frames).
    mutating func next() throws(OSMPBFError) -> PBFFrame? {
        let start = offset
        let number = nextNumber
        let lengthBytes = try read(4)
        if lengthBytes.isEmpty { return nil }
        guard lengthBytes.count == 4 else {
            throw .truncated(block: number, byteOffset: start, expected: .blobHeaderLength, expectedBytes: 4, availableBytes: lengthBytes.count)
        }
        let headerLength = lengthBytes.reduce(0) { $0 << 8 | Int($1) }
        guard headerLength <= Self.maximumBlobHeaderBytes else {
            throw .tooLarge(block: number, byteOffset: start, part: .blobHeader, bytes: headerLength, limit: Self.maximumBlobHeaderBytes)
        }
        let header = try read(headerLength)
        guard header.count == headerLength else {
            throw .truncated(block: number, byteOffset: start, expected: .blobHeader, expectedBytes: headerLength, availableBytes: header.count)
        }
        let (type, dataSize) = try Self.decodeBlobHeader(header, number: number, start: start)
        guard dataSize <= Self.maximumBlobBytes else {
            throw .tooLarge(block: number, byteOffset: start, part: .blob, bytes: dataSize, limit: Self.maximumBlobBytes)
        }
        let blob = try read(dataSize)
        guard blob.count == dataSize else {
            throw .truncated(block: number, byteOffset: start, expected: .blob, expectedBytes: dataSize, availableBytes: blob.count)
        }
        nextNumber += 1
        return PBFFrame(number: number, byteRange: start..<offset, type: type, blob: blob)
    }

    /// `BlobHeader`: type (1, string, required), indexdata (2), datasize (3, int32, required).
    private static func decodeBlobHeader(_ bytes: [UInt8], number: Int, start: Int) throws(OSMPBFError) -> (String, Int) {
        let decoded = bytes.withUnsafeBytes { buffer in Result { () throws(ProtobufFailure) in try blobHeaderFields(buffer) } }
        switch decoded {
        case .success(let value): return value
        case .failure(let error):
            throw .malformed(block: number, byteOffset: start, message: .blobHeader, offsetInMessage: error.offset, problem: error.problem)
        }
    }

    private static func blobHeaderFields(_ buffer: UnsafeRawBufferPointer) throws(ProtobufFailure) -> (String, Int) {
        var reader = ProtobufReader(buffer)
        var type: String?
        var size: UInt64?
        while let (field, wireType) = try reader.nextField() {
            switch field {
            case 1:
                try reader.expect(wireType, .lengthDelimited, field: field)
                type = try reader.string(field: field)
            case 3:
                try reader.expect(wireType, .varint, field: field)
                size = try reader.varint()
            default:
                try reader.skip(field: field, wireType: wireType)
            }
        }
        guard let type else { throw ProtobufFailure(offset: 0, problem: .missingField(1)) }
        guard let size else { throw ProtobufFailure(offset: 0, problem: .missingField(3)) }
        return (type, Int(clamping: size))
    }

    /// Up to `count` bytes (fewer only at the end of the file).
    private mutating func read(_ count: Int) throws(OSMPBFError) -> [UInt8] {
        switch source {
        case .memory(let bytes):
            let end = min(bytes.count, offset + count)
            let slice = Array(bytes[min(offset, end)..<end])
            offset = end
            return slice
        case .descriptor(let descriptor):
            var bytes = [UInt8](repeating: 0, count: count)
            var filled = 0
            var failure: Int32 = 0
            bytes.withUnsafeMutableBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                while filled < count {
                    let result = systemRead(descriptor, base + filled, count - filled)
                    if result < 0, errno == EINTR { continue }
                    if result < 0 { failure = errno; return }
                    if result == 0 { return }
                    filled += result
                }
            }
            if failure != 0 { throw .unreadable(path: path, errno: failure) }
            offset += filled
            if filled < count { bytes.removeLast(count - filled) }
            return bytes
        }
    }
}

extension PBFFrame {
    /// The `Blob`'s content: raw (field 1) or zlib-inflated (field 3) to the `raw_size` (2) it declares.
    /// - Complexity: O(inflated bytes).
    func inflated() throws(OSMPBFError) -> [UInt8] {
        let start = byteRange.lowerBound
        var raw: Range<Int>?
        var compressed: Range<Int>?
        var rawSize: UInt64?
        var other: Int?
        let scanned = blob.withUnsafeBytes { buffer in
            Result { () throws(ProtobufFailure) in
            var reader = ProtobufReader(buffer)
            while let (field, wireType) = try reader.nextField() {
                switch field {
                case 1, 3:
                    try reader.expect(wireType, .lengthDelimited, field: field)
                    let range = try reader.lengthDelimited().remainingRange
                    if field == 1 { raw = range } else { compressed = range }
                case 2:
                    try reader.expect(wireType, .varint, field: field)
                    rawSize = try reader.varint()
                case 4...7:
                    other = field
                    try reader.skip(field: field, wireType: wireType)
                default:
                    try reader.skip(field: field, wireType: wireType)
                }
            }
            }
        }
        if case .failure(let error) = scanned {
            throw .malformed(block: number, byteOffset: start, message: .blob, offsetInMessage: error.offset, problem: error.problem)
        }
        if let raw { return Array(blob[raw]) }
        guard let compressed else {
            if let other { throw .unsupportedCompression(block: number, byteOffset: start, blobField: other) }
            throw .malformed(block: number, byteOffset: start, message: .blob, offsetInMessage: 0, problem: .missingField(1))
        }
        guard let rawSize else {
            throw .malformed(block: number, byteOffset: start, message: .blob, offsetInMessage: 0, problem: .missingField(2))
        }
        guard rawSize <= UInt64(PBFFrameReader.maximumBlobBytes) else {
            throw .tooLarge(block: number, byteOffset: start, part: .inflatedBlob, bytes: Int(clamping: rawSize), limit: PBFFrameReader.maximumBlobBytes)
        }
        let declared = Int(rawSize)
        var length = uLong(declared)
        var code = Z_OK
        // Not zero-filled first: `uncompress` writes the bytes, and only the `length` it reports are kept.
        let output = [UInt8](unsafeUninitializedCapacity: max(declared, 1)) { out, initialized in
            blob.withUnsafeBufferPointer { input in
                // `uncompress` stops at the declared size: a block that would inflate further is Z_BUF_ERROR.
                code = uncompress(out.baseAddress, &length, input.baseAddress! + compressed.lowerBound, uLong(compressed.count))
            }
            initialized = code == Z_OK ? min(Int(length), declared) : 0
        }
        guard code == Z_OK, Int(length) == declared else {
            throw .inflateFailed(block: number, byteOffset: start, zlibCode: code, declaredBytes: declared, inflatedBytes: Int(length))
        }
        return output
    }
}

@inline(__always)
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(descriptor, buffer, count)
    #else
    Darwin.read(descriptor, buffer, count)
    #endif
}
