#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The parts of a ZIP archive's central directory that bound what reading it costs, read before
/// libzip opens the archive (libzip holds every entry of the central directory in memory, a few
/// hundred bytes each): the entry count from the end record, then each entry's sizes and where its
/// local header is (APPNOTE.TXT 6.3.x: 4.3.12 central header, 4.3.14–4.3.16 end records, 4.5.3
/// ZIP64 extra field).
///
/// - Complexity: O(entries) time; memory is one read block and, per entry, its name and three
///   integers.
struct ZipCentralDirectory {
    struct Entry {
        let name: String
        let localHeaderOffset: Int
        let compressedSizeBytes: Int
        let uncompressedSizeBytes: Int
        /// Where the entry's data ends at the earliest: its local header (30 bytes), the name and
        /// the compressed bytes. The next entry's header may not start before it.
        var minimumEnd: Int { localHeaderOffset + 30 + name.utf8.count + compressedSizeBytes }
    }

    static let endRecordBytes = 22
    static let maximumCommentBytes = 65_535

    /// Reads the central directory of the archive at `path` (within `byteRange`, when the archive
    /// is a part of a larger file) and checks it against `limits`.
    /// - Throws: `FormatError.cannotRead`, or `FormatError.zip` with `.notAZipArchive`,
    ///   `.inconsistent`, `.tooManyEntries`, `.overlappingEntries`, `.compressionRatioTooHigh`,
    ///   `.inflatedSizeTooLarge`.
    static func check(path: String, byteRange: Range<Int>?, limits: ZipArchiveLimits) throws(FormatError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .cannotRead(path: path, reason: errno == ENOENT ? "no such file" : String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .cannotRead(path: path, reason: String(cString: strerror(errno))) }
        let fileBytes = Int(status.st_size)
        let range = byteRange.map { $0.clamped(to: 0..<fileBytes) } ?? 0..<fileBytes
        var reader = BlockReader(descriptor: descriptor, base: range.lowerBound, count: range.count, path: path)
        let entries = try readEntries(&reader, limits: limits)
        try checkOverlaps(entries, path: path)
        var totalBytes = 0
        for entry in entries {
            let (sum, overflowed) = totalBytes.addingReportingOverflow(entry.uncompressedSizeBytes)
            totalBytes = overflowed ? .max : sum
            let (allowed, overflow) = entry.compressedSizeBytes.multipliedReportingOverflow(by: limits.maximumCompressionRatio)
            if entry.uncompressedSizeBytes > limits.ratioExemptBytes, !overflow, entry.uncompressedSizeBytes > allowed {
                let ratio = entry.uncompressedSizeBytes / max(1, entry.compressedSizeBytes)
                throw .zip(ZipArchiveError(.compressionRatioTooHigh(ratio: ratio, limit: limits.maximumCompressionRatio),
                                           archivePath: path, entryName: entry.name))
            }
        }
        guard totalBytes <= limits.maximumInflatedBytes else {
            throw .zip(ZipArchiveError(.inflatedSizeTooLarge(totalBytes: totalBytes, limitBytes: limits.maximumInflatedBytes),
                                       archivePath: path))
        }
    }

    /// The entries, after the end record's count is checked against the limit.
    private static func readEntries(_ reader: inout BlockReader, limits: ZipArchiveLimits) throws(FormatError) -> [Entry] {
        let path = reader.path
        func inconsistent(_ detail: String) -> FormatError {
            .zip(ZipArchiveError(.inconsistent(detail: detail), archivePath: path))
        }
        // The end of central directory record: the last signature within the comment's reach.
        let tailStart = max(0, reader.count - endRecordBytes - maximumCommentBytes)
        let tail = try reader.bytes(at: tailStart, count: reader.count - tailStart)
        guard tail.count >= endRecordBytes,
              let endIndex = stride(from: tail.count - endRecordBytes, through: 0, by: -1).first(where: {
                  tail.littleEndian(at: $0, bytes: 4) == 0x0605_4B50
              }) else {
            throw .zip(ZipArchiveError(.notAZipArchive, archivePath: path))
        }
        let endOffset = tailStart + endIndex
        var entryCount = tail.littleEndian(at: endIndex + 10, bytes: 2)
        var directoryBytes = tail.littleEndian(at: endIndex + 12, bytes: 4)
        var directoryOffset = tail.littleEndian(at: endIndex + 16, bytes: 4)
        if entryCount == 0xFFFF || directoryBytes == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            // ZIP64: the locator (20 bytes) just before the end record points at the ZIP64 end record.
            guard endOffset >= 20 else { throw inconsistent("no ZIP64 end of central directory locator") }
            let locator = try reader.bytes(at: endOffset - 20, count: 20)
            if locator.littleEndian(at: 0, bytes: 4) == 0x0706_4B50 {
                let recordOffset = locator.littleEndian(at: 8, bytes: 8)
                let record = try reader.bytes(at: recordOffset, count: 56)
                guard record.count == 56, record.littleEndian(at: 0, bytes: 4) == 0x0606_4B50 else {
                    throw inconsistent("no ZIP64 end of central directory record")
                }
                entryCount = record.littleEndian(at: 32, bytes: 8)
                directoryBytes = record.littleEndian(at: 40, bytes: 8)
                directoryOffset = record.littleEndian(at: 48, bytes: 8)
            }
        }
        guard entryCount <= limits.maximumEntries else {
            throw .zip(ZipArchiveError(.tooManyEntries(count: entryCount, limit: limits.maximumEntries), archivePath: path))
        }
        guard directoryOffset >= 0, directoryBytes >= 0, directoryOffset <= endOffset, directoryBytes <= endOffset - directoryOffset else {
            throw inconsistent("the central directory lies outside the archive")
        }
        var entries: [Entry] = []
        entries.reserveCapacity(entryCount)
        var offset = directoryOffset
        let directoryEnd = directoryOffset + directoryBytes
        while entries.count < entryCount {
            guard offset + 46 <= directoryEnd else { throw inconsistent("the central directory ends after \(entries.count) of \(entryCount) entries") }
            let header = try reader.bytes(at: offset, count: 46)
            guard header.count == 46, header.littleEndian(at: 0, bytes: 4) == 0x0201_4B50 else {
                throw inconsistent("entry \(entries.count + 1) of the central directory has no header signature")
            }
            let nameBytes = header.littleEndian(at: 28, bytes: 2)
            let extraBytes = header.littleEndian(at: 30, bytes: 2)
            let commentBytes = header.littleEndian(at: 32, bytes: 2)
            guard offset + 46 + nameBytes + extraBytes + commentBytes <= directoryEnd else {
                throw inconsistent("entry \(entries.count + 1) of the central directory runs past its end")
            }
            let variable = try reader.bytes(at: offset + 46, count: nameBytes + extraBytes)
            var compressed = header.littleEndian(at: 20, bytes: 4)
            var uncompressed = header.littleEndian(at: 24, bytes: 4)
            var localOffset = header.littleEndian(at: 42, bytes: 4)
            // ZIP64 extended information (4.5.3): the fields that are 0xFFFFFFFF above, in this order.
            var field = nameBytes
            while field + 4 <= variable.count {
                let id = variable.littleEndian(at: field, bytes: 2)
                let size = variable.littleEndian(at: field + 2, bytes: 2)
                var cursor = field + 4
                let fieldEnd = min(variable.count, cursor + size)
                if id == 0x0001 {
                    if uncompressed == 0xFFFF_FFFF, cursor + 8 <= fieldEnd { uncompressed = variable.littleEndian(at: cursor, bytes: 8); cursor += 8 }
                    if compressed == 0xFFFF_FFFF, cursor + 8 <= fieldEnd { compressed = variable.littleEndian(at: cursor, bytes: 8); cursor += 8 }
                    if localOffset == 0xFFFF_FFFF, cursor + 8 <= fieldEnd { localOffset = variable.littleEndian(at: cursor, bytes: 8) }
                    break
                }
                field = fieldEnd
            }
            guard compressed >= 0, uncompressed >= 0, localOffset >= 0 else {
                throw inconsistent("entry \(entries.count + 1) has a size or offset beyond 2^63")
            }
            let name = String(decoding: variable.prefix(nameBytes), as: UTF8.self)
            entries.append(Entry(name: name, localHeaderOffset: localOffset, compressedSizeBytes: compressed,
                                 uncompressedSizeBytes: uncompressed))
            offset += 46 + nameBytes + extraBytes + commentBytes
        }
        return entries
    }

    /// Refuses entries whose data overlap (several entries on one local header, or one entry's
    /// header inside another's data: the overlapping zip bomb), or that run into the central
    /// directory.
    private static func checkOverlaps(_ entries: [Entry], path: String) throws(FormatError) {
        // In offset order, ties in the directory's order (so the message names the first two).
        let ordered = entries.indices.sorted {
            (entries[$0].localHeaderOffset, $0) < (entries[$1].localHeaderOffset, $1)
        }.map { entries[$0] }
        for (earlier, later) in zip(ordered, ordered.dropFirst()) where later.localHeaderOffset < earlier.minimumEnd {
            throw .zip(ZipArchiveError(.overlappingEntries(other: later.name), archivePath: path, entryName: earlier.name))
        }
    }
}

/// Reads a file (or a byte range of one) by offset, a block at a time.
private struct BlockReader {
    let descriptor: Int32
    /// The file offset of the archive's first byte.
    let base: Int
    /// The archive's length.
    let count: Int
    let path: String
    private var block: [UInt8] = []
    private var blockStart = 0
    static let blockBytes = 1 << 16

    init(descriptor: Int32, base: Int, count: Int, path: String) {
        self.descriptor = descriptor
        self.base = base
        self.count = count
        self.path = path
    }

    /// Up to `length` bytes at `offset` in the archive (fewer at its end).
    mutating func bytes(at offset: Int, count length: Int) throws(FormatError) -> ArraySlice<UInt8> {
        guard offset >= 0, offset < count, length > 0 else { return [] }
        let wanted = min(length, count - offset)
        if offset >= blockStart, offset + wanted <= blockStart + block.count {
            return block[(offset - blockStart)..<(offset - blockStart + wanted)]
        }
        let reading = min(count - offset, max(wanted, Self.blockBytes))
        var fresh = [UInt8](repeating: 0, count: reading)
        var done = 0
        while done < reading {
            let read = fresh.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, reading - done, off_t(base + offset + done)) }
            if read < 0, errno == EINTR { continue }
            guard read >= 0 else { throw .cannotRead(path: path, reason: String(cString: strerror(errno))) }
            if read == 0 { break }
            done += read
        }
        block = Array(fresh[0..<done])
        blockStart = offset
        return block[0..<min(wanted, done)]
    }
}

extension ArraySlice<UInt8> {
    /// The little-endian unsigned integer of `bytes` bytes at `index` (relative to the slice's
    /// start); values over `Int.max` come out negative.
    fileprivate func littleEndian(at index: Int, bytes: Int) -> Int {
        var value: UInt64 = 0
        for byte in (0..<bytes).reversed() {
            let position = startIndex + index + byte
            value = value << 8 | UInt64(position < endIndex ? self[position] : 0)
        }
        return Int(truncatingIfNeeded: value)
    }
}
