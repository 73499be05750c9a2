#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a data file mapped read-only into memory (`mmap`): a page is read from the file
/// when it is first touched, and the kernel may drop it again under pressure, so memory is paid
/// for the parts a program uses. Or, for bytes given in memory, a copy of them. Immutable, so it
/// is shared between threads.
final class MappedBytes: @unchecked Sendable {
    /// The first byte (never null, even for no bytes).
    let base: UnsafeRawPointer
    let count: Int
    private let isMapped: Bool

    private init(base: UnsafeRawPointer, count: Int, isMapped: Bool) {
        self.base = base
        self.count = count
        self.isMapped = isMapped
    }

    /// Maps a whole file.
    /// - Throws: `BinaryDataFile.ReadFailure` when the file is missing or cannot be opened or mapped.
    /// - Complexity: O(1); pages are read as they are touched.
    convenience init(contentsOfFile path: String) throws(BinaryDataFile.ReadFailure) {
        let (descriptor, size) = try BinaryDataFile.openForReading(path)
        defer { close(descriptor) }
        guard size > 0 else {
            self.init(copying: [])
            return
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            throw .unreadable(errno: errno)
        }
        self.init(base: UnsafeRawPointer(address), count: size, isMapped: true)
    }

    /// A copy of bytes held in memory (for bytes that come from no file).
    convenience init(copying bytes: [UInt8]) {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        bytes.withUnsafeBytes { source in
            if let from = source.baseAddress { memory.copyMemory(from: from, byteCount: source.count) }
        }
        self.init(base: UnsafeRawPointer(memory), count: bytes.count, isMapped: false)
    }

    deinit {
        if isMapped {
            munmap(UnsafeMutableRawPointer(mutating: base), count)
        } else {
            UnsafeMutableRawPointer(mutating: base).deallocate()
        }
    }

    /// The bytes of a range, copied out (for the small tables a loader keeps as arrays).
    func copy(_ range: Range<Int>) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count))
    }

    /// A little-endian `UInt32` at a byte offset the caller has checked.
    @inline(__always)
    func uint32(at offset: Int) -> UInt32 {
        UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// Tells the kernel the mapped pages before a byte offset (all of them by default) are not
    /// needed now, as a loader moves through the file checking it: they leave the process's
    /// resident memory and are read from the file again when touched.
    func releasePages(before offset: Int? = nil) {
        guard isMapped else { return }
        let pageBytes = Int(sysconf(Int32(_SC_PAGESIZE)))
        let end = min(offset ?? count, count)
        let length = offset == nil ? count : end - end % pageBytes
        guard length > 0 else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base), length, MADV_DONTNEED)
    }
}

/// A column of little-endian `UInt32`s inside ``MappedBytes``, read where it lies.
struct MappedUInt32Column: RandomAccessCollection, Sendable {
    let bytes: MappedBytes
    /// Byte offset of the first value.
    let start: Int
    let count: Int

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    @inline(__always)
    subscript(index: Int) -> UInt32 {
        bytes.uint32(at: start + 4 * index)
    }
}
