import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes the sections of a saved index (``HistoryIndexFile``) to a file descriptor: integers,
/// floats and whole columns as their little-endian bytes, each column after its count, and keeps
/// a checksum of everything written (``IndexFileChecksum``). Columns go to the file straight from
/// their arrays; small values through a buffer.
struct IndexFileWriter {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private(set) var checksum = IndexFileChecksum()

    /// Writes to an open descriptor, which the caller closes.
    init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(Self.bufferBytes)
    }

    static let bufferBytes = 1 << 16

    mutating func write<T: FixedWidthInteger>(_ value: T) throws(HistoryIndexFileError) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            checksum.add(raw)
            buffer.append(contentsOf: raw)
        }
        if buffer.count >= Self.bufferBytes { try flush() }
    }

    mutating func write(_ value: Double) throws(HistoryIndexFileError) {
        try write(value.bitPattern)
    }

    /// A column: its count, then its values' bytes (the machines Swift runs on are
    /// little-endian; the file's header says so).
    mutating func write<T: BitwiseCopyable>(column: [T]) throws(HistoryIndexFileError) {
        try write(UInt64(column.count))
        try flush()
        let failure = column.withUnsafeBytes { raw in
            checksum.add(raw)
            return Self.writeAll(raw, to: descriptor)
        }
        if failure != 0 { throw .unwritable(errno: failure) }
    }

    /// Writes what the buffer holds.
    mutating func flush() throws(HistoryIndexFileError) {
        let failure = buffer.withUnsafeBytes { Self.writeAll($0, to: descriptor) }
        if failure != 0 { throw .unwritable(errno: failure) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes every byte. - Returns: 0, or the `errno` of the failed `write`.
    private static func writeAll(_ raw: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
        guard let base = raw.baseAddress else { return 0 }
        var written = 0
        while written < raw.count {
            let count = Glibc.write(descriptor, base + written, raw.count - written)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? EIO : errno }
            written += count
        }
        return 0
    }
}

/// Reads what an ``IndexFileWriter`` wrote from a file descriptor (`pread`, so columns go
/// straight into their arrays and are checksummed a megabyte at a time, while in the cache),
/// checking every length against the bytes left, so a truncated or damaged file is an error,
/// never a crash.
struct IndexFileReader {
    private let descriptor: Int32
    /// The file's size, bytes.
    private let size: Int
    private(set) var offset: Int
    private(set) var checksum = IndexFileChecksum()
    /// Bytes read and checksummed at a time.
    static let chunkBytes = 1 << 20

    /// Reads from an open descriptor of a file of `size` bytes, from `offset`; the caller closes it.
    init(descriptor: Int32, size: Int, offset: Int = 0) {
        self.descriptor = descriptor
        self.size = size
        self.offset = offset
    }

    var remainingBytes: Int { size - offset }

    mutating func read<T: FixedWidthInteger>(_ type: T.Type = T.self) throws(HistoryIndexFileError) -> T {
        guard remainingBytes >= MemoryLayout<T>.size else { throw .truncated(offset: offset) }
        var value = T.zero
        let failure = withUnsafeMutableBytes(of: &value) { consume(into: $0) }
        try Self.check(failure, offset: offset)
        return T(littleEndian: value)
    }

    mutating func readDouble() throws(HistoryIndexFileError) -> Double {
        Double(bitPattern: try read(UInt64.self))
    }

    /// A column written by ``IndexFileWriter/write(column:)``.
    mutating func readColumn<T: BitwiseCopyable>(of type: T.Type = T.self) throws(HistoryIndexFileError) -> [T] {
        let start = offset
        let count = try read(UInt64.self)
        let stride = MemoryLayout<T>.stride
        guard count <= UInt64(remainingBytes / stride) else { throw .truncated(offset: start) }
        let values = Int(count)
        var failure: Int32 = 0
        let column = [T](unsafeUninitializedCapacity: values) { buffer, initialized in
            failure = consume(into: UnsafeMutableRawBufferPointer(buffer))
            initialized = values  // BitwiseCopyable: any bytes are a value, and a failure throws below
        }
        try Self.check(failure, offset: offset)
        return column
    }

    private static func check(_ failure: Int32, offset: Int) throws(HistoryIndexFileError) {
        if failure == -1 { throw .truncated(offset: offset) }
        if failure != 0 { throw .unreadable(errno: failure) }
    }

    /// Reads the next `target.count` bytes (the caller checked the file holds them) and adds them
    /// to the checksum. - Returns: 0, -1 when the file ended early, or the `errno` of `pread`.
    private mutating func consume(into target: UnsafeMutableRawBufferPointer) -> Int32 {
        guard let base = target.baseAddress else { return 0 }
        var done = 0
        while done < target.count {
            let chunk = min(Self.chunkBytes, target.count - done)
            var filled = 0
            while filled < chunk {
                let count = pread(descriptor, base + done + filled, chunk - filled, off_t(offset + done + filled))
                if count < 0, errno == EINTR { continue }
                if count < 0 { return errno }
                if count == 0 { return -1 }
                filled += count
            }
            checksum.add(UnsafeRawBufferPointer(start: base + done, count: chunk))
            done += chunk
        }
        offset += target.count
        return 0
    }
}

/// FNV-1a over 8-byte words in four interleaved lanes (word `i` goes to lane `i mod 4`, the lanes
/// are folded together at the end, then the last bytes): catches a damaged or partly written file
/// at several GB/s (one lane waits on its multiply for every word; four keep the multiplier busy).
/// The result does not depend on how the bytes are split between calls.
///
/// Source: G. Fowler, L. C. Noll, K.-P. Vo, "FNV hash" (IETF draft-eastlake-fnv), applied to words.
struct IndexFileChecksum: Equatable {
    static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01B3

    private var lanes: (UInt64, UInt64, UInt64, UInt64) = (offsetBasis, offsetBasis ^ 1, offsetBasis ^ 2, offsetBasis ^ 3)
    /// Whole words hashed so far.
    private var wordCount = 0
    /// Bytes of a word not yet complete (a section can end in the middle of one).
    private var pending: UInt64 = 0
    private var pendingCount = 0

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.final == rhs.final }

    mutating func add(_ raw: UnsafeRawBufferPointer) {
        guard let base = raw.baseAddress else { return }
        var index = 0
        // Finish a word begun by an earlier call.
        while pendingCount != 0, index < raw.count {
            addByte(raw[index])
            index += 1
        }
        // Single words up to lane 0, then four at a time, then single words again.
        while wordCount & 3 != 0, raw.count - index >= 8 {
            addWord((base + index).loadUnaligned(as: UInt64.self))
            index += 8
        }
        let groups = (raw.count - index) / 32
        if groups > 0 {
            var (a, b, c, d) = lanes
            var at = base + index
            for _ in 0..<groups {
                a = (a ^ at.loadUnaligned(as: UInt64.self)) &* Self.prime
                b = (b ^ (at + 8).loadUnaligned(as: UInt64.self)) &* Self.prime
                c = (c ^ (at + 16).loadUnaligned(as: UInt64.self)) &* Self.prime
                d = (d ^ (at + 24).loadUnaligned(as: UInt64.self)) &* Self.prime
                at += 32
            }
            lanes = (a, b, c, d)
            wordCount += groups * 4
            index += groups * 32
        }
        while raw.count - index >= 8 {
            addWord((base + index).loadUnaligned(as: UInt64.self))
            index += 8
        }
        while index < raw.count {
            addByte(raw[index])
            index += 1
        }
    }

    private mutating func addWord(_ word: UInt64) {
        switch wordCount & 3 {
        case 0: lanes.0 = (lanes.0 ^ word) &* Self.prime
        case 1: lanes.1 = (lanes.1 ^ word) &* Self.prime
        case 2: lanes.2 = (lanes.2 ^ word) &* Self.prime
        default: lanes.3 = (lanes.3 ^ word) &* Self.prime
        }
        wordCount += 1
    }

    private mutating func addByte(_ byte: UInt8) {
        pending |= UInt64(byte) << UInt64(pendingCount * 8)
        pendingCount += 1
        if pendingCount == 8 {
            addWord(pending)
            pending = 0
            pendingCount = 0
        }
    }

    /// The checksum of everything added, its last incomplete word included.
    var final: UInt64 {
        var hash = Self.offsetBasis
        for lane in [lanes.0, lanes.1, lanes.2, lanes.3, pending, UInt64(pendingCount), UInt64(wordCount)] {
            hash = (hash ^ lane) &* Self.prime
        }
        return hash
    }
}
