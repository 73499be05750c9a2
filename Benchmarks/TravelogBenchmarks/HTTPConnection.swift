import Foundation
import Glibc

/// A blocking HTTP/1.1 keep-alive connection to a loopback port on a POSIX socket, for the server
/// benchmarks: one request at a time, a `Content-Length` or chunked response read to its end.
/// Each benchmark thread owns one connection; the cost per request is two `send`s and a few
/// `recv`s, so the client stays far from being the bottleneck.
final class HTTPConnection {
    struct Response {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    enum Failure: Error, CustomStringConvertible {
        case socket(operation: String, errno: Int32)
        case closedByServer
        case malformedResponse(String)

        var description: String {
            switch self {
            case .socket(let operation, let code) where code == EAGAIN: "\(operation) timed out"
            case .socket(let operation, let code): "\(operation) failed: \(String(cString: strerror(code)))"
            case .closedByServer: "the server closed the connection"
            case .malformedResponse(let reason): "malformed response: \(reason)"
            }
        }
    }

    private let descriptor: Int32
    private let hostHeader: String
    /// Bytes received and not yet consumed, from `readIndex`.
    private var received: [UInt8] = []
    private var readIndex = 0

    /// - Parameters:
    ///   - port: the server's loopback port.
    ///   - sourceAddress: the loopback address (127.x.y.z) to connect from, so that the server sees
    ///     several clients; the kernel's choice when nil.
    init(port: Int, sourceAddress: String? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure.socket(operation: "socket", errno: errno) }
        hostHeader = "127.0.0.1:\(port)"
        // A failed bind or connect throws after every property is set, so `deinit` closes the socket.
        if let sourceAddress {
            guard Self.withAddress(sourceAddress, port: 0, { bind(descriptor, $0, $1) }) == 0 else {
                throw Failure.socket(operation: "bind to \(sourceAddress)", errno: errno)
            }
        }
        guard Self.withAddress("127.0.0.1", port: port, { connect(descriptor, $0, $1) }) == 0 else {
            throw Failure.socket(operation: "connect to \(hostHeader)", errno: errno)
        }
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        received.reserveCapacity(1 << 16)
    }

    deinit { close(descriptor) }

    /// Calls `body` with an IPv4 socket address and its length.
    static func withAddress(_ host: String, port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(host)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// Sends one request and reads its whole response.
    func send(_ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = []) throws -> Response {
        try writeHead(method, path, headers: headers, bodyLength: !body.isEmpty || method == "POST" ? body.count : nil)
        if !body.isEmpty { try writeAll(body) }
        return try readResponse()
    }

    /// Sends one request whose body of `bodyLength` bytes `writeBody` hands over piece by piece
    /// (so that a body of a gigabyte never has to be held), and reads its whole response. A server
    /// that answers before it has read the whole body (a 413) and closes is still heard: a failed
    /// send is followed by an attempt to read that answer.
    func send(_ method: String, _ path: String, headers: [(String, String)] = [], bodyLength: Int,
              writeBody: (_ write: ([UInt8]) throws -> Void) throws -> Void) throws -> Response {
        try writeHead(method, path, headers: headers, bodyLength: bodyLength)
        do {
            try writeBody { try writeAll($0) }
        } catch {
            if let early = try? readResponse() { return early }
            throw error
        }
        return try readResponse()
    }

    /// Gives up on a `send` or a `recv` that waits longer than `seconds` (a `.socket` failure with
    /// `EAGAIN`); the connection is of no further use after that.
    func setTimeout(seconds: Double) {
        let clamped = max(seconds, 0.001)
        var time = timeval(tv_sec: Int(clamped), tv_usec: Int((clamped - clamped.rounded(.down)) * 1e6))
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            setsockopt(descriptor, SOL_SOCKET, option, &time, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    private func writeHead(_ method: String, _ path: String, headers: [(String, String)], bodyLength: Int?) throws {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let bodyLength { head += "Content-Length: \(bodyLength)\r\n" }
        head += "\r\n"
        try writeAll(Array(head.utf8))
    }

    private func writeAll(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Failure.socket(operation: "send", errno: errno)
                }
                offset += written
            }
        }
    }

    /// Receives more bytes into `received`, compacting consumed ones first.
    private func fill() throws {
        if readIndex > 0 {
            received.removeSubrange(0..<readIndex)
            readIndex = 0
        }
        let chunk = 1 << 16
        let oldCount = received.count
        received.append(contentsOf: repeatElement(0, count: chunk))
        let count = received.withUnsafeMutableBytes { buffer in
            recv(descriptor, buffer.baseAddress! + oldCount, chunk, 0)
        }
        received.removeLast(chunk - max(count, 0))
        if count < 0 { throw Failure.socket(operation: "recv", errno: errno) }
        if count == 0 { throw Failure.closedByServer }
    }

    /// The next line ending in CR LF, without it.
    private func readLine() throws -> String {
        while true {
            if let end = received[readIndex...].firstIndex(of: UInt8(ascii: "\n")) {
                var line = received[readIndex..<end]
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                readIndex = end + 1
                return String(decoding: line, as: UTF8.self)
            }
            try fill()
        }
    }

    private func readBytes(_ count: Int) throws -> [UInt8] {
        while received.count - readIndex < count { try fill() }
        let bytes = Array(received[readIndex..<(readIndex + count)])
        readIndex += count
        return bytes
    }

    private func readResponse() throws -> Response {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw Failure.malformedResponse("status line '\(statusLine)'")
        }
        var headers: [(name: String, value: String)] = []
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw Failure.malformedResponse("header '\(line)'") }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var response = Response(status: status, headers: headers, body: [])
        if response.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
            while true {
                let sizeLine = try readLine()
                guard let size = Int(sizeLine.split(separator: ";")[0].trimmingCharacters(in: .whitespaces), radix: 16) else {
                    throw Failure.malformedResponse("chunk size '\(sizeLine)'")
                }
                if size == 0 {
                    while try !readLine().isEmpty {}
                    break
                }
                response.body += try readBytes(size)
                _ = try readLine()
            }
        } else if let length = response.header("Content-Length").flatMap({ Int($0) }) {
            response.body = try readBytes(length)
        } else if status != 204 && status != 304 {
            throw Failure.malformedResponse("neither Content-Length nor chunked")
        }
        return response
    }
}
