import Foundation
import TravelogFormats

/// A `ByteSource` over a file descriptor (a socket, a serial device, a file), so that the
/// project's `LineReader` and `NMEAReader` read live streams as they read files. It owns the
/// descriptor and closes it when released; `read` blocks until bytes come or the stream ends.
///
/// `tap` sees every block read (the tracker looks for heading sentences in it).
public final class DescriptorByteSource: ByteSource {
    public let descriptor: Int32
    public let name: String
    private let isDatagram: Bool
    public var tap: ((UnsafeRawBufferPointer) -> Void)?

    public init(descriptor: Int32, name: String, isDatagram: Bool = false) {
        self.descriptor = descriptor
        self.name = name
        self.isDatagram = isDatagram
    }

    deinit { close(descriptor) }

    public var totalByteCount: Int? { nil }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(FormatError) -> Int {
        while true {
            let count = isDatagram ? recv(descriptor, buffer.baseAddress, buffer.count, 0)
                                   : Foundation.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 {
                if count > 0, let tap { tap(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) }
                if isDatagram && count > 0 && count < buffer.count && buffer[count - 1] != 0x0A {
                    // A datagram is whole sentences; make sure the last one ends its line.
                    buffer[count] = 0x0A
                    return count + 1
                }
                return count
            }
            if errno == EINTR { continue }
            throw .cannotRead(path: name, reason: String(cString: strerror(errno)))
        }
    }

    /// Writes all of `bytes` (gpsd's `?WATCH` command).
    public func write(_ bytes: [UInt8]) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 { if errno == EINTR { continue }; return false }
            written += count
        }
        return true
    }
}
