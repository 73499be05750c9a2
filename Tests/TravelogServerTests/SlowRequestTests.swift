import Foundation
import HummingbirdTesting
import Testing
import TravelogServer
import TravelogStore
#if canImport(Glibc)
import Glibc
#endif

/// Slowloris: connections that send a request a byte at a time hold the server's resources.
@Suite("Slow requests", .timeLimit(.minutes(5)))
struct SlowRequestTests {
    /// Connects to 127.0.0.1:`port`, sends `bytes`, then waits until the server closes the
    /// connection. - Returns: whatever the server sent before closing.
    static func sendAndWaitForClose(port: Int, _ bytes: String) -> String {
        guard let descriptor = loopbackConnection(port: port) else { return "not connected" }
        defer { close(descriptor) }
        _ = bytes.withCString { send(descriptor, $0, strlen($0), 0) }
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    static func app() -> TravelogServerApp {
        TravelogServerApp(store: InMemoryLocationStore(),
                          configuration: ServerConfiguration(port: 0, bcryptCost: 4, requestHeadTimeoutSeconds: 1,
                                                             requestBodyIdleTimeoutSeconds: 1))
    }

    @Test("a request head that never ends is cut off, and so is a body that stops coming")
    func slowHeadAndBody() async throws {
        try await Self.app().makeApplication().test(.live) { client in
            let port = try #require(client.port)
            let head = await Task.detached { Self.sendAndWaitForClose(port: port, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ") }.value
            #expect(head.isEmpty)
            let body = await Task.detached {
                Self.sendAndWaitForClose(port: port, "POST /api/v1/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                         + "Content-Length: 1000\r\n\r\n{\"user\":")
            }.value
            #expect(!body.contains("200 OK"))
            // A whole request is answered as before.
            let whole = await Task.detached { Self.sendAndWaitForClose(port: port, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") }.value
            #expect(whole.hasPrefix("HTTP/1.1 200"))
        }
    }
}
