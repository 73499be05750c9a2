import Crypto
import TravelogFormats

/// A byte source that computes the SHA-256 of everything read through it, so a file is hashed in
/// the same pass that imports it.
public final class HashingByteSource: ByteSource {
    private var base: any ByteSource
    private var hasher = SHA256()

    public init(_ base: any ByteSource) {
        self.base = base
    }

    public var totalByteCount: Int? { base.totalByteCount }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(FormatError) -> Int {
        let count = try base.read(into: buffer)
        if count > 0 { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[..<count])) }
        return count
    }

    /// Lower-case hex SHA-256 of the bytes read so far (the whole file once the reader is done).
    public var hexDigest: String {
        hasher.finalize().map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
