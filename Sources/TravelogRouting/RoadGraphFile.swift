import Foundation

/// The graph file (`NAME.tlroute`, beside the places file `NAME.tlosm`): a header, a table of
/// sections, and each section's array of little-endian fixed-width numbers, aligned to 8 bytes so
/// that the file is used where it lies, memory-mapped, without being read or copied.
///
/// Layout: magic `TLROUTE3`, section count (UInt32), a reserved UInt32, then per section its byte
/// offset and element count (UInt64 each), then the sections in ``Section`` order.
enum RoadGraphFile {
    static let fileExtension = "tlroute"
    static let magic = Array("TLROUTE3".utf8)

    /// The sections, in file order: the base graph, then ten per mode (a hierarchy's rows by position,
    /// then its `order` and `position`: ``ContractionHierarchy``).
    enum Section: Int, CaseIterable {
        case nodeLatitudeE7, nodeLongitudeE7, nodeBarrier
        case segmentFrom, segmentTo, segmentLengthCentimeters, segmentWay, segmentFlags, segmentSpeed, segmentConnected
        case wayID, wayName, nameOffsets, nameBytes, restrictions, boundingBox
        case hierarchies  // then 3 × 10 sections of the modes' hierarchies

        static let perMode = 10
        static var count: Int { hierarchies.rawValue + 3 * perMode }
    }

    /// Writes the file of a graph and its three hierarchies (in ``DirectionsMode`` index order),
    /// section by section from the arrays where they lie: a country's file is a gigabyte, and its
    /// bytes gathered in memory first were that much more of the build's peak.
    /// - Throws: ``RoadGraphFileError/unreadable(path:errno:)`` when the file cannot be written.
    static func write(_ data: RoadGraphData, hierarchies: [ContractionHierarchy], to path: String) throws(RoadGraphFileError) {
        try write(data, hierarchySections: hierarchies.flatMap(sections), to: path)
    }

    /// Writes the file of a graph whose hierarchies were spilled (``spill(_:to:)``), copying their
    /// sections from the spilled files.
    static func write(_ data: RoadGraphData, spilled: [SpilledHierarchy], to path: String) throws(RoadGraphFileError) {
        try write(data, hierarchySections: spilled.flatMap(\.sections), to: path)
    }

    /// A hierarchy's ten sections in file order.
    private static func sections(_ hierarchy: ContractionHierarchy) -> [SectionBytes] {
        [SectionBytes(hierarchy.upOutOffsets), SectionBytes(hierarchy.upOutTarget), SectionBytes(hierarchy.upOutWeight),
         SectionBytes(hierarchy.upOutMiddle), SectionBytes(hierarchy.upInOffsets), SectionBytes(hierarchy.upInSource),
         SectionBytes(hierarchy.upInWeight), SectionBytes(hierarchy.upInMiddle), SectionBytes(hierarchy.order),
         SectionBytes(hierarchy.position)]
    }

    /// Writes a hierarchy's sections one after another to a file of its own, so that a mode's
    /// hierarchy need not stay in memory while the others are built: a five-million-node country's
    /// are half a gigabyte each.
    static func spill(_ hierarchy: ContractionHierarchy, to path: String) throws(RoadGraphFileError) -> SpilledHierarchy {
        guard let file = fopen(path, "wb") else { throw .unreadable(path: path, errno: errno) }
        var good = true, offset = 0
        var spilled = SpilledHierarchy(path: path)
        for section in sections(hierarchy) where good {
            good = section.write(file)
            spilled.parts.append((section.count, section.byteCount, offset))
            offset += section.byteCount
        }
        let failure = errno
        if fclose(file) != 0 || !good { throw .unreadable(path: path, errno: good ? errno : failure) }
        return spilled
    }

    /// A hierarchy in a file of its own (``spill(_:to:)``); the caller removes the file.
    struct SpilledHierarchy: Sendable {
        let path: String
        fileprivate var parts: [(count: Int, byteCount: Int, offset: Int)] = []

        fileprivate var sections: [SectionBytes] {
            parts.map { SectionBytes(count: $0.count, byteCount: $0.byteCount, from: path, at: $0.offset) }
        }
    }

    private static func write(_ data: RoadGraphData, hierarchySections: [SectionBytes], to path: String) throws(RoadGraphFileError) {
        var nameOffsets: [UInt32] = [0]
        var nameBytes: [UInt8] = []
        for name in data.names {
            nameBytes.append(contentsOf: Array(name.utf8))
            nameOffsets.append(UInt32(nameBytes.count))
        }
        let restrictions = data.restrictions.flatMap { [$0.fromWay, $0.viaNode, $0.toWay, Int32($0.only ? 1 : 0) | Int32($0.modes) << 1] }
        var sections: [SectionBytes] = [
            SectionBytes(data.nodeLatitudeE7), SectionBytes(data.nodeLongitudeE7), SectionBytes(data.nodeBarrier),
            SectionBytes(data.segmentFrom), SectionBytes(data.segmentTo), SectionBytes(data.segmentLengthCentimeters), SectionBytes(data.segmentWay),
            SectionBytes(data.segmentFlags), SectionBytes(data.segmentSpeed), SectionBytes(data.segmentConnected),
            SectionBytes(data.wayID), SectionBytes(data.wayName), SectionBytes(nameOffsets), SectionBytes(nameBytes), SectionBytes(restrictions),
            SectionBytes(data.boundingBox),
        ]
        sections += hierarchySections
        var header = magic
        [UInt32(sections.count), 0].withUnsafeBytes { header += $0 }
        var offset = header.count + 16 * sections.count
        var table: [UInt64] = []
        for section in sections {
            offset = (offset + 7) & ~7
            table += [UInt64(offset), UInt64(section.count)]
            offset += section.byteCount
        }
        table.withUnsafeBytes { header += $0 }  // little-endian machines only (checked on load)
        guard let file = fopen(path, "wb") else { throw .unreadable(path: path, errno: errno) }
        var written = header.count
        var good = fwrite(header, 1, header.count, file) == header.count
        let zeros = [UInt8](repeating: 0, count: 8)
        for section in sections where good {
            let padding = ((written + 7) & ~7) - written
            good = fwrite(zeros, 1, padding, file) == padding && section.write(file)
            written += padding + section.byteCount
        }
        let failure = errno
        if fclose(file) != 0 || !good { throw .unreadable(path: path, errno: good ? errno : failure) }
    }

    /// One section: its element count, its size in bytes, and how to write it.
    fileprivate struct SectionBytes {
        let count: Int
        let byteCount: Int
        let write: (UnsafeMutablePointer<FILE>) -> Bool

        init<T>(_ values: [T]) {
            count = values.count
            byteCount = values.count * MemoryLayout<T>.stride
            write = { file in values.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) == $0.count } }
        }

        /// A section copied from `byteCount` bytes at `offset` of the file at `path`, a megabyte at a time.
        init(count: Int, byteCount: Int, from path: String, at offset: Int) {
            self.count = count
            self.byteCount = byteCount
            write = { file in
                guard let source = fopen(path, "rb") else { return false }
                defer { fclose(source) }
                guard fseeko(source, off_t(offset), SEEK_SET) == 0 else { return false }
                var buffer = [UInt8](repeating: 0, count: 1 << 20)
                var left = byteCount
                while left > 0 {
                    let chunk = min(left, buffer.count)
                    guard fread(&buffer, 1, chunk, source) == chunk, fwrite(buffer, 1, chunk, file) == chunk else { return false }
                    left -= chunk
                }
                return true
            }
        }
    }
}

/// Why a graph file could not be used.
public enum RoadGraphFileError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadable(path: String, errno: Int32)
    case notAGraphFile(path: String)
    case damaged(path: String, section: Int, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let errno): "cannot read \(path): \(String(cString: strerror(errno)))"
        case .notAGraphFile(let path): "\(path) is not a Travelog road graph file (rebuild it with `travelog osm add`)"
        case .damaged(let path, let section, let reason): "\(path) is damaged (section \(section)): \(reason)"
        }
    }
}

/// A file mapped into memory read-only, unmapped when the last reference goes.
final class MappedFile: @unchecked Sendable {
    let base: UnsafeRawPointer
    let size: Int

    init(path: String) throws(RoadGraphFileError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw .unreadable(path: path, errno: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(path: path, errno: errno) }
        size = Int(status.st_size)
        guard size > 0 else { throw .notAGraphFile(path: path) }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            throw .unreadable(path: path, errno: errno)
        }
        base = UnsafeRawPointer(address)
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), size) }

    /// Lets the pages read so far go (they are read from the file again when used): checking a
    /// country's file reads a gigabyte of it, which would otherwise stay resident.
    func evict() {
        madvise(UnsafeMutableRawPointer(mutating: base), size, MADV_DONTNEED)
    }

    /// A section's elements, checked to lie within the file and be aligned.
    func array<T>(_ type: T.Type, section: Int, path: String) throws(RoadGraphFileError) -> UnsafeBufferPointer<T> {
        let tableEntry = 16 + 16 * section
        guard tableEntry + 16 <= size else { throw .damaged(path: path, section: section, reason: "the table is cut short") }
        let offset = base.loadUnaligned(fromByteOffset: tableEntry, as: UInt64.self)
        let count = base.loadUnaligned(fromByteOffset: tableEntry + 8, as: UInt64.self)
        let stride = UInt64(MemoryLayout<T>.stride)
        guard offset % 8 == 0, count <= UInt64(size) / stride, offset <= UInt64(size), offset + count * stride <= UInt64(size) else {
            throw .damaged(path: path, section: section, reason: "it lies beyond the file's end")
        }
        return UnsafeBufferPointer(start: (base + Int(offset)).assumingMemoryBound(to: T.self), count: Int(count))
    }
}
