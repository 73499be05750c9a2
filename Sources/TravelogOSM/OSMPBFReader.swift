import Foundation

/// Reads an OpenStreetMap extract in the `.osm.pbf` format (wiki.openstreetmap.org/wiki/PBF_Format):
/// its header, then its data blocks in file order, each decoded into nodes, ways and relations.
///
/// Streaming: one thread reads frames, `threads` workers inflate (zlib) and decode them, and the
/// caller's closure receives the blocks in order on the calling thread. At most `blocksInFlight`
/// blocks exist at once (each under 32 MiB inflated, a few MB decoded), so memory does not grow
/// with the file. A damaged or truncated file stops the read with an ``OSMPBFError`` naming the
/// block and the byte offset, after every block before it was delivered.
public struct OSMPBFReader: Sendable {
    /// Decoding threads; 1 decodes on the calling thread.
    public var threads: Int
    /// The most blocks read ahead of the one the caller is handed.
    public var blocksInFlight: Int
    /// The kinds of objects decoded; the others are skipped unread (a pass over relations only
    /// does not decode millions of nodes). Blocks keep their numbers and byte ranges either way.
    public var elements: Elements = .all

    /// Kinds of OSM objects.
    public struct Elements: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let nodes = Elements(rawValue: 1)
        public static let ways = Elements(rawValue: 2)
        public static let relations = Elements(rawValue: 4)
        public static let all: Elements = [.nodes, .ways, .relations]
    }

    /// - Parameters:
    ///   - threads: decoding threads (default: the processors available).
    ///   - blocksInFlight: read-ahead (default: twice the threads).
    ///   - elements: the kinds of objects decoded (default: all).
    public init(threads: Int = ProcessInfo.processInfo.activeProcessorCount, blocksInFlight: Int? = nil, elements: Elements = .all) {
        self.threads = max(1, threads)
        self.blocksInFlight = max(1, blocksInFlight ?? 2 * self.threads)
        self.elements = elements
    }

    /// Reads the extract at `path`.
    /// - Parameters:
    ///   - header: called once with the header block, before any data block.
    ///   - block: called with each data block, in file order.
    /// - Throws: ``OSMPBFError``, or what a closure throws (the read stops there).
    /// - Complexity: O(file size) time; O(`blocksInFlight`) memory.
    public func read(path: String, header: (OSMHeader) throws -> Void = { _ in }, block: (OSMBlock) throws -> Void) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw errno == ENOENT ? OSMPBFError.fileNotFound(path: path) : OSMPBFError.unreadable(path: path, errno: errno)
        }
        defer { close(descriptor) }
        var frames = PBFFrameReader(source: .descriptor(descriptor), path: path)
        try run(&frames, header: header, block: block)
    }

    /// Reads an extract held in memory (tests, the fuzzer).
    public func read(bytes: [UInt8], header: (OSMHeader) throws -> Void = { _ in }, block: (OSMBlock) throws -> Void) throws {
        var frames = PBFFrameReader(source: .memory(bytes), path: "(memory)")
        try run(&frames, header: header, block: block)
    }

    private func run(_ frames: inout PBFFrameReader, header: (OSMHeader) throws -> Void, block: (OSMBlock) throws -> Void) throws {
        guard let first = try frames.next() else { throw OSMPBFError.missingHeader(byteOffset: 0, blobType: "") }
        guard first.type == "OSMHeader" else { throw OSMPBFError.missingHeader(byteOffset: 0, blobType: first.type) }
        try header(try Self.decodeHeader(first))
        if threads == 1 {
            while let frame = try frames.next() {
                guard frame.type == "OSMData" else { continue }  // other types are to be skipped, says the format
                try block(try Self.decodeData(frame, elements: elements))
            }
            return
        }
        let pipeline = BlockPipeline(threads: threads, elements: elements)
        defer { pipeline.close() }
        var submitted = 0
        var delivered = 0
        var readFailure: OSMPBFError?
        var atEnd = false
        while true {
            while !atEnd && readFailure == nil && submitted - delivered < blocksInFlight {
                do {
                    guard let frame = try frames.next() else {
                        atEnd = true
                        break
                    }
                    guard frame.type == "OSMData" else { continue }
                    pipeline.submit(frame, sequence: submitted)
                    submitted += 1
                } catch {
                    readFailure = error  // delivered after the blocks before it
                }
            }
            guard delivered < submitted else { break }
            let result = pipeline.take(delivered)
            delivered += 1
            try block(try result.get())
        }
        if let readFailure { throw readFailure }
    }

    /// The header block, checked for features this reader lacks.
    static func decodeHeader(_ frame: PBFFrame) throws(OSMPBFError) -> OSMHeader {
        let bytes = try frame.inflated()
        let decoded = bytes.withUnsafeBytes { buffer in Result { () throws(ProtobufFailure) in try OSMHeader.decode(buffer) } }
        let header: OSMHeader
        switch decoded {
        case .success(let value): header = value
        case .failure(let error):
            throw .malformed(block: frame.number, byteOffset: frame.byteRange.lowerBound, message: error.message ?? .headerBlock,
                             offsetInMessage: error.offset, problem: error.problem)
        }
        if let feature = header.requiredFeatures.first(where: { !OSMHeader.supportedRequiredFeatures.contains($0) }) {
            throw .unsupportedFeature(feature)
        }
        return header
    }

    /// A data block, inflated and decoded (on a worker thread).
    static func decodeData(_ frame: PBFFrame, elements: Elements) throws(OSMPBFError) -> OSMBlock {
        let bytes = try frame.inflated()
        let decoded = bytes.withUnsafeBytes { buffer in
            Result { () throws(ProtobufFailure) in try OSMBlock.decode(buffer, number: frame.number, byteRange: frame.byteRange, elements: elements) }
        }
        switch decoded {
        case .success(let block): return block
        case .failure(let error):
            throw .malformed(block: frame.number, byteOffset: frame.byteRange.lowerBound, message: error.message ?? .primitiveBlock,
                             offsetInMessage: error.offset, problem: error.problem)
        }
    }
}
