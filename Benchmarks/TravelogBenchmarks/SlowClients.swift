import Foundation
import Glibc

/// Connections that send a request head one byte a second and never finish it (slowloris), all
/// from one thread: each second every socket gets its next byte, without blocking. A connection the
/// server closes is opened again, so that `count` stay open for as long as the run lasts.
final class SlowClients: @unchecked Sendable {
    let port: Int
    let count: Int
    /// The head the connections send, byte by byte; its header line repeats forever.
    static let head = Array("POST /api/v1/owntracks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n".utf8)
    static let filler = Array("X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n".utf8)

    private struct Slot {
        var descriptor: Int32 = -1
        var sentBytes = 0
    }

    private let lock = NSLock()
    private var stopping = false
    private var counts = (opened: 0, closedByServer: 0, connectFailures: 0, bytesSent: 0)

    init(port: Int, count: Int) {
        self.port = port
        self.count = count
    }

    /// Connections opened so far, closed by the server, failed to open, and bytes sent.
    var figures: (opened: Int, closedByServer: Int, connectFailures: Int, bytesSent: Int) {
        lock.lock(); defer { lock.unlock() }
        return counts
    }

    /// Sends until `stop()`, a byte a second per connection; opens the connections in the first second.
    func run() {
        var slots = [Slot](repeating: Slot(), count: count)
        var tick = BlockingThreads.nowNanoseconds()
        while !isStopping {
            for index in slots.indices {
                if slots[index].descriptor < 0 { slots[index] = open() }
                guard slots[index].descriptor >= 0 else { continue }
                if serverClosed(slots[index].descriptor) || !sendNextByte(&slots[index]) {
                    close(slots[index].descriptor)
                    slots[index].descriptor = -1
                    update { $0.closedByServer += 1 }
                }
            }
            tick += 1_000_000_000
            BlockingThreads.sleep(untilNanoseconds: tick)
        }
        for slot in slots where slot.descriptor >= 0 { close(slot.descriptor) }
    }

    func stop() { lock.lock(); stopping = true; lock.unlock() }

    private var isStopping: Bool { lock.lock(); defer { lock.unlock() }; return stopping }

    private func update(_ change: (inout (opened: Int, closedByServer: Int, connectFailures: Int, bytesSent: Int)) -> Void) {
        lock.lock(); change(&counts); lock.unlock()
    }

    private func open() -> Slot {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0,
              HTTPConnection.withAddress("127.0.0.1", port: port, { connect(descriptor, $0, $1) }) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            update { $0.connectFailures += 1 }
            return Slot()
        }
        update { $0.opened += 1 }
        return Slot(descriptor: descriptor)
    }

    /// Whether the server has closed the connection (or answered it, which also ends the attack).
    private func serverClosed(_ descriptor: Int32) -> Bool {
        var byte: UInt8 = 0
        let received = recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT))
        return received == 0 || (received > 0) || (received < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    private func sendNextByte(_ slot: inout Slot) -> Bool {
        let offset = slot.sentBytes
        var byte = offset < Self.head.count ? Self.head[offset]
            : Self.filler[(offset - Self.head.count) % Self.filler.count]
        guard Glibc.send(slot.descriptor, &byte, 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) == 1 else { return false }
        slot.sentBytes += 1
        update { $0.bytesSent += 1 }
        return true
    }
}
