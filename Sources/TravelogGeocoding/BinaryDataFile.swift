#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A data file that `make` builds into `.build-data/` (the gazetteer, the time-zone boundaries),
/// read whole into memory, and a little-endian reader over its bytes.
enum BinaryDataFile {
    /// Why the bytes could not be read; each file's error type names the file.
    enum ReadFailure: Error, Equatable {
        /// There is no file at the path.
        case notFound
        /// `open`, `fstat` or `read` failed with this `errno`.
        case unreadable(errno: Int32)
    }

    /// Opens a file to read, with its size; the caller closes the descriptor.
    static func openForReading(_ path: String) throws(ReadFailure) -> (descriptor: Int32, size: Int) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw errno == ENOENT ? .notFound : .unreadable(errno: errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let failure = errno
            close(descriptor)
            throw .unreadable(errno: failure)
        }
        return (descriptor, Int(status.st_size))
    }

    /// The whole file, read with one `read` loop.
    /// - Complexity: O(file size).
    static func contents(ofFile path: String) throws(ReadFailure) -> [UInt8] {
        let (descriptor, size) = try openForReading(path)
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        var failure: Int32 = 0
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }  // an empty file
            while filled < size {
                let count = read(descriptor, base + filled, size - filled)
                if count < 0, errno == EINTR { continue }
                if count < 0 { failure = errno; return }
                if count == 0 { return }  // the file shrank: the loader's size checks report it
                filled += count
            }
        }
        if failure != 0 { throw .unreadable(errno: failure) }
        return Array(bytes[0..<filled])
    }
}

/// Reads little-endian integers from a file's bytes; the loader checks bounds against the header first.
struct LittleEndianReader {
    let bytes: [UInt8]
    /// Where the bytes come from, only for messages.
    let path: String
    var offset = 0

    mutating func uint32() -> UInt32 {
        let value = bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
        offset += 4
        return value
    }

    mutating func uint32Column(_ count: Int) -> [UInt32] { column(count) { UInt32(littleEndian: $0) } }
    mutating func int32Column(_ count: Int) -> [Int32] { column(count) { Int32(littleEndian: $0) } }
    mutating func uint16Column(_ count: Int) -> [UInt16] { column(count) { UInt16(littleEndian: $0) } }

    private mutating func column<T: FixedWidthInteger>(_ count: Int, _ convert: (T) -> T) -> [T] {
        let start = offset
        offset += count * MemoryLayout<T>.size
        return bytes.withUnsafeBytes { raw in
            [T](unsafeUninitializedCapacity: count) { out, initialized in
                for i in 0..<count {
                    out[i] = convert(raw.loadUnaligned(fromByteOffset: start + i * MemoryLayout<T>.size, as: T.self))
                }
                initialized = count
            }
        }
    }
}
