import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP server on 127.0.0.1 that answers each connection as scripted, byte for byte, to test
/// the tracker's HTTP client against answers a real server library would not produce on demand
/// (chunks cut anywhere, a connection kept open, dropped, or never answered). It reads each
/// request (head and Content-Length body) before acting and keeps it for the test to check.
final class ScriptedHTTPServer: @unchecked Sendable {
    /// What to do with one connection once its request has arrived.
    enum Action {
        /// Send these bytes, then close the connection (or keep it open until `stop`).
        case answer(String, keepOpen: Bool = false)
        /// Close without answering.
        case drop
        /// Never answer; keep the connection open until `stop`.
        case silent
    }

    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var actions: [Action]
    private var received: [String] = []
    private var held: [Int32] = []
    private var stopped = false

    /// Listens at once; connections take the actions in order (the last one repeats).
    init(_ actions: [Action]) throws {
        self.actions = actions
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in serve() }
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/overland")! }

    /// The requests received so far (head and body as text).
    var requests: [String] { lock.withLock { received } }

    /// Stops listening and closes every connection kept open. The listener is shut down here
    /// (which wakes the serving thread's `accept`) and closed by that thread, so its descriptor
    /// cannot be reused by another test's socket while the thread still accepts on it.
    func stop() {
        let connections: [Int32] = lock.withLock {
            stopped = true
            defer { held = [] }
            return held
        }
        for connection in connections { close(connection) }
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func serve() {
        defer { close(listener) }
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0, !lock.withLock({ stopped }) else {
                if connection >= 0 { close(connection) }
                return
            }
            let request = Self.readRequest(connection)
            let action: Action? = lock.withLock {
                received.append(request)
                return stopped ? nil : (actions.count > 1 ? actions.removeFirst() : actions.first)
            }
            switch action {
            case .answer(let text, let keepOpen)?:
                _ = Array(text.utf8).withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if keepOpen { lock.withLock { held.append(connection) } } else { close(connection) }
            case .silent?:
                lock.withLock { held.append(connection) }
            case .drop?, nil:
                close(connection)
            }
        }
    }

    /// The request's head and, after it, as many body bytes as its Content-Length says.
    private static func readRequest(_ connection: Int32) -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let text = String(decoding: bytes, as: UTF8.self)
            if let headEnd = text.range(of: "\r\n\r\n") {
                let head = text[..<headEnd.lowerBound].lowercased()
                let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if text.utf8.distance(from: headEnd.upperBound, to: text.endIndex) >= length { return text }
            }
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return text }
            bytes += chunk[0..<count]
        }
    }
}
