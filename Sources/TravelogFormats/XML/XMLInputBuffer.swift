#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The parser's window on its input: UTF-8 bytes `bytes[0..<end]` (transcoded when the input is
/// not UTF-8), refilled block by block, with a `<` sentinel at `bytes[end]` so scanning loops need
/// no bounds check (each stops at `<` and then compares its index with `end`).
///
/// Bytes before the `keep` index given to `refill` are discarded. The buffer starts at 4 KB and
/// doubles while the input proves longer, up to the configured capacity (a short document never
/// pays for a 128 KB buffer: fresh memory to fault in, under ASan most of a fuzz input's cost);
/// beyond that it grows only when the bytes to keep fill it, up to the maximum token size. Lines are counted in discarded bytes as
/// they go, so any position from the current token on can be reported in the original bytes.
struct XMLInputBuffer {
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    private(set) var end = 0
    /// Whether the source has reported its end and everything it gave is in the buffer.
    private(set) var isExhausted = false
    let encoding: XMLEncoding
    /// The capacity the buffer grows to as soon as the input is that long (`bufferCapacityBytes`).
    private let preferredCapacity: Int
    private let maximumCapacity: Int
    private var source: any ByteSource
    /// The first bytes read for encoding detection, handed out before the source (UTF-8 only).
    private var pushback: [UInt8]
    private var pushbackOffset = 0
    private var transcoder: XMLTranscoder?
    /// For transcoded input: the original offset of each byte of `bytes`, and of the next byte at `end`.
    var origins: UnsafeMutablePointer<Int>?
    let byteOrderMarkBytes: Int
    /// Offset of `bytes[0]` in the UTF-8 stream.
    private(set) var streamOffset = 0
    /// Total bytes handed to the parser from the original input (for progress).
    private(set) var originalBytesRead = 0

    /// Lines are counted in `[0, linesCountedTo)` of the UTF-8 stream.
    var linesCountedTo = 0
    var line = 1
    var lineStartOriginal = 0
    /// The last byte counted was a CR: an LF right after it ends no other line.
    var lastEndWasCarriageReturn = false

    init(source: any ByteSource, options: XMLParserOptions) throws {
        var source = source
        var prefix: [UInt8] = []
        var block = [UInt8](repeating: 0, count: XMLEncodingDetector.preferredPrefixBytes)
        while !XMLEncodingDetector.isSufficient(prefix) {
            let wanted = XMLEncodingDetector.preferredPrefixBytes - prefix.count
            let count = try block.withUnsafeMutableBytes { try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<wanted])) }
            guard count > 0 else { break }
            prefix += block[..<min(count, wanted)]
        }
        let detection: XMLEncodingDetector.Detection
        do {
            detection = try XMLEncodingDetector.detect(prefix)
        } catch {
            let line = 1 + prefix[..<error.offset].count { $0 == 0x0A }
            let lineStart = (prefix[..<error.offset].lastIndex(of: 0x0A) ?? -1) + 1
            throw XMLSyntaxError(
                .unsupportedEncoding(name: error.name),
                at: SourcePosition(byteOffset: error.offset, line: line, column: error.offset - lineStart + 1)
            )
        }
        self.source = source
        encoding = detection.encoding
        byteOrderMarkBytes = detection.byteOrderMarkBytes
        preferredCapacity = options.bufferCapacityBytes
        capacity = min(options.bufferCapacityBytes, Self.firstCapacityBytes)
        maximumCapacity = options.maximumTokenBytes
        bytes = .allocate(capacity: capacity + Self.padding)
        bytes[0] = UInt8(ascii: "<")
        let content = Array(prefix.dropFirst(detection.byteOrderMarkBytes))
        if encoding == .utf8 {
            pushback = content
        } else {
            pushback = []
            transcoder = XMLTranscoder(encoding: encoding, prefix: content, prefixOffset: byteOrderMarkBytes,
                                       capacity: preferredCapacity)
            origins = .allocate(capacity: capacity + 1)
            origins?[0] = byteOrderMarkBytes
        }
        originalBytesRead = byteOrderMarkBytes
    }

    /// Bytes allocated after `capacity`: the sentinel and room for one unaligned 8-byte load
    /// starting at the sentinel.
    static let padding = 8
    /// The buffer's capacity until the input has filled it.
    static let firstCapacityBytes = 4096

    /// Whether no more bytes fit without growing past the configured capacity (room for one
    /// transcoded character is needed). Below it the next refill grows the buffer, so a text run
    /// is cut into parts only where it was before the buffer started small.
    var isFull: Bool { capacity >= preferredCapacity && capacity - end < (transcoder == nil ? 1 : 4) }

    func deallocate() {
        bytes.deallocate()
        origins?.deallocate()
        transcoder?.deallocate()
    }

    /// Discards `bytes[..<keep]`, moves the rest to the front and reads more (growing the buffer
    /// when it is still full). Returns how far indices moved (`keep`); check `isExhausted` for the
    /// end of input.
    /// - Throws: source errors; `XMLSyntaxError` for malformed encoded input or a token too long.
    mutating func refill(keeping keep: Int) throws -> Int {
        countLines(upTo: keep)
        if keep > 0 {
            memmove(bytes, bytes + keep, end - keep)
            if let origins { memmove(origins, origins + keep, (end - keep + 1) * MemoryLayout<Int>.stride) }
            end -= keep
            streamOffset += keep
        }
        let minimumRoom = transcoder == nil ? 1 : 4
        if capacity < preferredCapacity, streamOffset + end >= capacity {
            // The input has filled the buffer once: read it in the configured blocks.
            resize(to: min(capacity * 2, preferredCapacity))
        }
        if capacity - end < minimumRoom { try grow(minimumRoom: minimumRoom) }
        if transcoder == nil {
            try readUTF8()
        } else {
            try readTranscoded()
        }
        bytes[end] = UInt8(ascii: "<")
        return keep
    }

    private mutating func readUTF8() throws {
        let room = capacity - end
        if pushbackOffset < pushback.count {
            let count = min(room, pushback.count - pushbackOffset)
            pushback.withUnsafeBufferPointer { all in
                if let base = all.baseAddress { (bytes + end).update(from: base + pushbackOffset, count: count) }
            }
            pushbackOffset += count
            if pushbackOffset == pushback.count { pushback = [] ; pushbackOffset = 0 }
            end += count
            originalBytesRead += count
            return
        }
        let count = try source.read(into: UnsafeMutableRawBufferPointer(start: bytes + end, count: room))
        if count <= 0 {
            isExhausted = true
        } else {
            end += min(count, room)
            originalBytesRead += min(count, room)
        }
    }

    private mutating func readTranscoded() throws {
        guard var transcoder, let origins else { return }
        defer { self.transcoder = transcoder }
        while true {
            let written = transcoder.transcode(into: bytes + end, origins: origins + end, room: capacity - end)
            if written > 0 {
                end += written
                origins[end] = transcoder.rawOffset
                originalBytesRead = transcoder.rawOffset
                return
            }
            if transcoder.isAtMalformedUnit {
                throw XMLSyntaxError(.malformedEncoding(encoding), at: position(ofIndex: end))
            }
            if try !transcoder.read(from: &source) {
                if transcoder.pendingByteCount > 0 {
                    throw XMLSyntaxError(.malformedEncoding(encoding), at: position(ofIndex: end))
                }
                isExhausted = true
                return
            }
        }
    }

    private mutating func grow(minimumRoom: Int) throws {
        let newCapacity = min(capacity * 2, maximumCapacity)
        guard newCapacity - end >= minimumRoom else {
            throw XMLSyntaxError(.tokenTooLong(limitBytes: maximumCapacity), at: position(ofIndex: 0))
        }
        resize(to: newCapacity)
    }

    /// Moves the kept bytes (and their origins) into buffers of `newCapacity`.
    private mutating func resize(to newCapacity: Int) {
        let newBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity + Self.padding)
        newBytes.update(from: bytes, count: end)
        bytes.deallocate()
        bytes = newBytes
        if let origins {
            let newOrigins = UnsafeMutablePointer<Int>.allocate(capacity: newCapacity + 1)
            newOrigins.update(from: origins, count: end + 1)
            origins.deallocate()
            self.origins = newOrigins
        }
        capacity = newCapacity
    }
}
