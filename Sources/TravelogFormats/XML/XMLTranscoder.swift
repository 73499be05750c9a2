#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns UTF-16 or an 8-bit encoding into UTF-8 block by block, remembering for every UTF-8 byte
/// the offset in the original input of the character it came from (for error positions).
struct XMLTranscoder {
    let encoding: XMLEncoding
    /// Raw input not yet transcoded: `raw[rawStart..<rawEnd]`.
    private let raw: UnsafeMutablePointer<UInt8>
    private let rawCapacity: Int
    private var rawStart = 0
    private var rawEnd = 0
    /// Offset in the original input of `raw[rawStart]`.
    private(set) var rawOffset: Int
    /// Whether `transcode` stopped at a unit that is not valid in the encoding.
    private(set) var isAtMalformedUnit = false

    /// - Parameters:
    ///   - encoding: anything but UTF-8.
    ///   - prefix: the first bytes of the input, after any byte-order mark.
    ///   - prefixOffset: the offset of `prefix` in the original input (the BOM length).
    ///   - capacity: raw block size in bytes.
    init(encoding: XMLEncoding, prefix: [UInt8], prefixOffset: Int, capacity: Int) {
        self.encoding = encoding
        rawCapacity = max(capacity, prefix.count)
        let raw = UnsafeMutablePointer<UInt8>.allocate(capacity: rawCapacity)
        prefix.withUnsafeBufferPointer { bytes in
            if let base = bytes.baseAddress { raw.update(from: base, count: bytes.count) }
        }
        self.raw = raw
        rawEnd = prefix.count
        rawOffset = prefixOffset
    }

    func deallocate() { raw.deallocate() }

    /// Raw bytes waiting (an incomplete unit at the end of the input if nothing else comes).
    var pendingByteCount: Int { rawEnd - rawStart }

    /// Reads more raw input after the bytes still pending; `false` at the end of the input.
    mutating func read(from source: inout any ByteSource) throws -> Bool {
        if rawStart > 0 {
            memmove(raw, raw + rawStart, rawEnd - rawStart)
            rawEnd -= rawStart
            rawStart = 0
        }
        let count = try source.read(into: UnsafeMutableRawBufferPointer(start: raw + rawEnd, count: rawCapacity - rawEnd))
        rawEnd += min(max(count, 0), rawCapacity - rawEnd)
        return count > 0
    }

    /// Transcodes pending input into `out[0..<room]` (room ≥ 4), writing in `origins` the original
    /// offset of each byte. Stops before an incomplete unit or at a malformed one
    /// (`isAtMalformedUnit`). Returns the number of bytes written.
    /// - Complexity: O(bytes written).
    mutating func transcode(into out: UnsafeMutablePointer<UInt8>, origins: UnsafeMutablePointer<Int>, room: Int) -> Int {
        switch encoding {
        case .utf16LittleEndian, .utf16BigEndian: transcodeUTF16(into: out, origins: origins, room: room)
        case .latin1, .windows1252: transcodeSingleByte(into: out, origins: origins, room: room)
        case .utf8: 0
        }
    }

    private mutating func transcodeUTF16(into out: UnsafeMutablePointer<UInt8>, origins: UnsafeMutablePointer<Int>, room: Int) -> Int {
        let littleEndian = encoding == .utf16LittleEndian
        @inline(__always) func unit(_ index: Int) -> UInt32 {
            littleEndian ? UInt32(raw[index]) | UInt32(raw[index + 1]) << 8 : UInt32(raw[index]) << 8 | UInt32(raw[index + 1])
        }
        var written = 0
        while rawEnd - rawStart >= 2, room - written >= 4 {
            var scalar = unit(rawStart)
            var unitBytes = 2
            switch scalar {
            case 0xD800...0xDBFF:
                guard rawEnd - rawStart >= 4 else { return written }
                let low = unit(rawStart + 2)
                guard (0xDC00...0xDFFF).contains(low) else {
                    isAtMalformedUnit = true
                    return written
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                unitBytes = 4
            case 0xDC00...0xDFFF:
                isAtMalformedUnit = true
                return written
            default:
                break
            }
            let length = XMLReferenceDecoder.encode(scalar, into: out + written)
            for index in 0..<length { origins[written + index] = rawOffset }
            written += length
            rawStart += unitBytes
            rawOffset += unitBytes
        }
        return written
    }

    private mutating func transcodeSingleByte(into out: UnsafeMutablePointer<UInt8>, origins: UnsafeMutablePointer<Int>, room: Int) -> Int {
        var written = 0
        while rawStart < rawEnd, room - written >= 4 {
            let byte = raw[rawStart]
            if byte < 0x80 {
                out[written] = byte
                origins[written] = rawOffset
                written += 1
            } else {
                let scalar = encoding == .windows1252 && byte < 0xA0 ? Self.windows1252[Int(byte - 0x80)] : UInt32(byte)
                let length = XMLReferenceDecoder.encode(scalar, into: out + written)
                for index in 0..<length { origins[written + index] = rawOffset }
                written += length
            }
            rawStart += 1
            rawOffset += 1
        }
        return written
    }

    /// Windows-1252 0x80–0x9F (WHATWG Encoding Standard index; the five unassigned bytes map to
    /// the C1 controls of the same value).
    private static let windows1252: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]
}
