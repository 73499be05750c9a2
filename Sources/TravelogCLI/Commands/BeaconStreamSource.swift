import Foundation
import TravelogFormats
#if canImport(Glibc)
import Glibc
#endif

/// Where `travelog beacons --live` reads a btsnoop stream from, block by block as it arrives:
/// a path (a FIFO another program writes, `-` for standard input), or
/// BlueZ's `btmon -w` started on a FIFO of our own.
enum BeaconStreamSource {
    /// Bytes read per system call.
    static let blockSize = 1 << 16

    /// Why the stream could not be read.
    enum Failure: Error, CustomStringConvertible {
        case cannotOpen(path: String, errno: Int32)
        case readFailed(path: String, errno: Int32)
        case cannotMakeFIFO(path: String, errno: Int32)
        case cannotStart(executable: String, reason: String)
        case btmonExited(executable: String, status: Int32)

        var description: String {
            switch self {
            case let .cannotOpen(path, code): "cannot open \(path): \(String(cString: strerror(code)))"
            case let .readFailed(path, code): "cannot read \(path): \(String(cString: strerror(code)))"
            case let .cannotMakeFIFO(path, code): "cannot make the FIFO \(path): \(String(cString: strerror(code)))"
            case let .cannotStart(executable, reason): "cannot start \(executable): \(reason)"
            case let .btmonExited(executable, status):
                "\(executable) stopped with status \(status)" + (status == 127 ? " (is BlueZ's btmon installed? apt-get install bluez)"
                    : " (it needs Bluetooth in the kernel and the right to open the monitor socket: run as root or with CAP_NET_RAW)")
            }
        }
    }

    /// Reads `path` (`-`: standard input) to its end, handing each block to `body` as it arrives.
    static func read(path: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure.cannotOpen(path: path, errno: errno) }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        try readBlocks(descriptor, path: path, until: { false }, body)
    }

    /// Starts `executable -w FIFO` (BlueZ's btmon, standard output discarded, errors passed on)
    /// and hands each block it writes to `body` until it stops.
    /// - Throws: ``Failure/btmonExited(executable:status:)`` when it stopped with a failure (no
    ///   Bluetooth, no permission, not installed), after what it wrote was read.
    static func readBtmon(executable: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("travelog-btmon-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            throw Failure.cannotMakeFIFO(path: folder.path, errno: EACCES)
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("scan.btsnoop").path
        guard mkfifo(fifo, 0o600) == 0 else { throw Failure.cannotMakeFIFO(path: fifo, errno: errno) }
        // Read and write: opening never waits for btmon, and the FIFO never reads as ended while
        // btmon has yet to open it; its end is btmon's exit (Linux FIFO semantics).
        let descriptor = open(fifo, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure.cannotOpen(path: fifo, errno: errno) }
        defer { close(descriptor) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable, "-w", fifo]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Failure.cannotStart(executable: executable, reason: "\(error.localizedDescription)")
        }
        defer { if process.isRunning { process.terminate() } }
        try readBlocks(descriptor, path: fifo, until: { !process.isRunning }, body)
        process.waitUntilExit()
        // btmon stopped by a signal (Ctrl-C, SIGTERM) ended the scan as asked.
        if process.terminationReason == .exit, process.terminationStatus != 0 {
            throw Failure.btmonExited(executable: executable, status: process.terminationStatus)
        }
    }

    /// Reads blocks until the end of the descriptor, or until `ended()` says the writer is gone
    /// and nothing is left to read (checked twice a second while nothing arrives).
    private static func readBlocks(_ descriptor: Int32, path: String, until ended: () -> Bool,
                                   _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: blockSize)
        defer { buffer.deallocate() }
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&waiting, 1, 500)
            if ready < 0, errno != EINTR { throw Failure.readFailed(path: path, errno: errno) }
            if ready <= 0 {
                if ended() { return }
                continue
            }
            let count = Glibc.read(descriptor, buffer.baseAddress, blockSize)
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw Failure.readFailed(path: path, errno: errno)
            }
            try body(UnsafeBufferPointer(rebasing: buffer[0..<count]))
        }
    }
}
