import Foundation

/// The graph file (`NAME.tlroute`, beside the places file `NAME.tlosm`): a header, a table of
/// sections, and each section's array of little-endian fixed-width numbers, aligned to 8 bytes so
/// that the file is used where it lies, memory-mapped, without being read or copied.
///
/// Layout: magic `TLROUTE2`, section count (UInt32), a reserved UInt32, then per section its byte
/// offset and element count (UInt64 each), then the sections in ``Section`` order.
enum RoadGraphFile {
    static let fileExtension = "tlroute"
    static let magic = Array("TLROUTE2".utf8)

    /// The sections, in file order: the base graph, then eight per mode.
    enum Section: Int, CaseIterable {
        case nodeLatitudeE7, nodeLongitudeE7, nodeBarrier
        case segmentFrom, segmentTo, segmentLengthCentimeters, segmentWay, segmentFlags, segmentSpeed, segmentConnected
        case wayID, wayName, nameOffsets, nameBytes, restrictions, boundingBox
        case hierarchies  // then 3 × 8 sections of the modes' hierarchies

        static let perMode = 8
        static var count: Int { hierarchies.rawValue + 3 * perMode }
    }

    /// The file's bytes for a graph and its three hierarchies (in ``DirectionsMode`` index order).
    static func encode(_ data: RoadGraphData, hierarchies: [ContractionHierarchy]) -> [UInt8] {
        var nameOffsets: [UInt32] = [0]
        var nameBytes: [UInt8] = []
        for name in data.names {
            nameBytes.append(contentsOf: Array(name.utf8))
            nameOffsets.append(UInt32(nameBytes.count))
        }
        let restrictions = data.restrictions.flatMap { [$0.fromWay, $0.viaNode, $0.toWay, Int32($0.only ? 1 : 0) | Int32($0.modes) << 1] }
        var sections: [[UInt8]] = [
            bytes(data.nodeLatitudeE7), bytes(data.nodeLongitudeE7), bytes(data.nodeBarrier),
            bytes(data.segmentFrom), bytes(data.segmentTo), bytes(data.segmentLengthCentimeters), bytes(data.segmentWay),
            bytes(data.segmentFlags), bytes(data.segmentSpeed), bytes(data.segmentConnected),
            bytes(data.wayID), bytes(data.wayName), bytes(nameOffsets), nameBytes, bytes(restrictions), bytes(data.boundingBox),
        ]
        var counts = [data.nodeCount, data.nodeCount, data.nodeCount, data.segmentCount, data.segmentCount, data.segmentCount,
                      data.segmentCount, data.segmentCount, data.segmentSpeed.count, data.segmentConnected.count, data.wayID.count, data.wayName.count,
                      nameOffsets.count, nameBytes.count, restrictions.count, 4]
        for hierarchy in hierarchies {
            sections += [bytes(hierarchy.upOutOffsets), bytes(hierarchy.upOutTarget), bytes(hierarchy.upOutWeight), bytes(hierarchy.upOutMiddle),
                         bytes(hierarchy.upInOffsets), bytes(hierarchy.upInSource), bytes(hierarchy.upInWeight), bytes(hierarchy.upInMiddle)]
            counts += [hierarchy.upOutOffsets.count, hierarchy.upOutTarget.count, hierarchy.upOutWeight.count, hierarchy.upOutMiddle.count,
                       hierarchy.upInOffsets.count, hierarchy.upInSource.count, hierarchy.upInWeight.count, hierarchy.upInMiddle.count]
        }
        var output = magic
        output += bytes([UInt32(sections.count), 0])
        var offset = output.count + 16 * sections.count
        var table: [UInt64] = []
        for section in sections {
            offset = (offset + 7) & ~7
            table += [UInt64(offset), 0]
            offset += section.count
        }
        for index in sections.indices { table[2 * index + 1] = UInt64(counts[index]) }
        output += bytes(table)
        for section in sections {
            output += [UInt8](repeating: 0, count: ((output.count + 7) & ~7) - output.count)
            output += section
        }
        return output
    }

    private static func bytes<T: FixedWidthInteger>(_ values: [T]) -> [UInt8] {
        values.withUnsafeBufferPointer { buffer in Array(UnsafeRawBufferPointer(buffer)) }  // little-endian machines only (checked on load)
    }

    private static func bytes(_ values: [Double]) -> [UInt8] {
        values.withUnsafeBufferPointer { buffer in Array(UnsafeRawBufferPointer(buffer)) }
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
