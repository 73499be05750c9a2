import Foundation
import Testing
import TravelogTestSupport
@testable import TravelogTracker

/// The tracker's own HTTP client against a scripted server: what leaves the queue, what stays.
@Suite("Overland uploads over the tracker's HTTP client")
struct OverlandUploaderTests {
    static let ok = "{\"result\":\"ok\"}"

    static func answer(_ status: String, _ body: String, headers: String = "") -> String {
        "HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\(headers)\r\n\(body)"
    }

    /// A queue holding `count` fixes, and one upload round of the tracker's schedule against `server`.
    static func uploadRound(to server: URL, fixes count: Int, timeoutSeconds: Double = 10) async throws -> (TrackerQueue, [String]) {
        let queue = try TrackerQueue(path: TestDirectory.makeFolder("upload").appendingPathComponent("q.sqlite").path)
        try queue.enqueue((0..<count).map { (Date(timeIntervalSince1970: 1_750_000_000 + Double($0)), "{\"n\":\($0)}") })
        let uploader = OverlandUploader(server: server, token: "secret-token", timeoutSeconds: timeoutSeconds)
        let messages = Messages()
        var schedule = UploadSchedule()
        await schedule.uploadIfDue(queue: queue, uploader: uploader, batchSize: 2, intervalSeconds: 10, draining: false,
                                   log: { messages.append($0) })
        return (queue, messages.all)
    }

    @Test("acknowledged batches leave the queue; each request carries Host, the token, Content-Length and the batch")
    func acknowledged() async throws {
        let server = try ScriptedHTTPServer([.answer(Self.answer("200 OK", Self.ok))])
        defer { server.stop() }
        let (queue, _) = try await Self.uploadRound(to: server.url, fixes: 3)
        #expect(try queue.status().queuedCount == 0)
        let requests = server.requests
        #expect(requests.count == 2)
        let first = try #require(requests.first)
        #expect(first.hasPrefix("POST /overland HTTP/1.1\r\n"))
        #expect(first.contains("\r\nHost: 127.0.0.1:\(server.port)\r\n"))
        #expect(first.contains("\r\nAuthorization: Bearer secret-token\r\n"))
        let body = "{\"locations\":[{\"n\":0},{\"n\":1}]}"
        #expect(first.contains("\r\nContent-Length: \(body.utf8.count)\r\n") && first.hasSuffix("\r\n\r\n" + body))
        #expect(requests.last?.hasSuffix("{\"locations\":[{\"n\":2}]}") == true)
    }

    @Test("a 5xx keeps every fix queued and the reason is recorded", arguments: ["500 Internal Server Error", "503 Service Unavailable"])
    func serverError(status: String) async throws {
        let server = try ScriptedHTTPServer([.answer(Self.answer(status, "{\"error\":\"down\"}"))])
        defer { server.stop() }
        let (queue, messages) = try await Self.uploadRound(to: server.url, fixes: 3)
        let state = try queue.status()
        #expect(state.queuedCount == 3)
        #expect(state.lastUploadError?.hasPrefix("HTTP \(status.prefix(3))") == true)
        #expect(messages.contains { $0.contains("3 fixes stay queued") })
    }

    @Test("a dropped connection, or one closed in the middle of the answer's body, keeps the fixes")
    func dropped() async throws {
        for action in [ScriptedHTTPServer.Action.drop,
                       .answer("HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\n{\"result\":\"ok\"}")] {
            let server = try ScriptedHTTPServer([action])
            defer { server.stop() }
            let (queue, _) = try await Self.uploadRound(to: server.url, fixes: 2)
            #expect(try queue.status().queuedCount == 2)
            #expect(try queue.status().lastUploadError?.hasPrefix("server unreachable: ") == true)
        }
    }

    @Test("a chunked answer is put together across chunks (extensions and trailers too) and acknowledges")
    func chunked() async throws {
        let chunks = "4\r\n{\"re\r\n7;name=value\r\nsult\":\"\r\n4\r\nok\"}\r\n0\r\nX-Trailer: 1\r\n\r\n"
        let server = try ScriptedHTTPServer([.answer("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks, keepOpen: true)])
        defer { server.stop() }
        let (queue, _) = try await Self.uploadRound(to: server.url, fixes: 1)
        #expect(try queue.status().queuedCount == 0)
    }

    @Test("a keep-alive answer ends at its Content-Length: the upload does not wait for the connection to close")
    func keepAlive() async throws {
        // The server never closes; an upload that waited for the end of the connection would time out.
        let server = try ScriptedHTTPServer([.answer(Self.answer("200 OK", Self.ok, headers: "Connection: keep-alive\r\n"), keepOpen: true)])
        defer { server.stop() }
        let (queue, _) = try await Self.uploadRound(to: server.url, fixes: 1, timeoutSeconds: 60)
        #expect(try queue.status().queuedCount == 0)
    }

    @Test("an interim 100 Continue is skipped; an answer without length ends with the connection")
    func interimAndCloseDelimited() async throws {
        let server = try ScriptedHTTPServer([
            .answer("HTTP/1.1 100 Continue\r\n\r\n" + Self.answer("200 OK", Self.ok)),
            .answer("HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n" + Self.ok),
        ])
        defer { server.stop() }
        let (queue, _) = try await Self.uploadRound(to: server.url, fixes: 4)
        #expect(try queue.status().queuedCount == 0)
        #expect(server.requests.count == 2)
    }

    @Test("a 2xx that is not {\"result\":\"ok\"}, and a redirect, are not acknowledgements")
    func notAcknowledged() async throws {
        for answer in [Self.answer("200 OK", "<html>proxy</html>"), Self.answer("200 OK", "{\"result\":\"okay\"}"),
                       Self.answer("302 Found", "", headers: "Location: http://127.0.0.1:1/\r\n")] {
            let server = try ScriptedHTTPServer([.answer(answer)])
            defer { server.stop() }
            let (queue, _) = try await Self.uploadRound(to: server.url, fixes: 1)
            #expect(try queue.status().queuedCount == 1)
        }
    }

    @Test("a server that never answers makes the upload fail with a timeout, and the fixes stay")
    func slowServer() async throws {
        let server = try ScriptedHTTPServer([.silent])
        defer { server.stop() }
        let (queue, _) = try await Self.uploadRound(to: server.url, fixes: 1, timeoutSeconds: 0.5)
        #expect(try queue.status().queuedCount == 1)
        #expect(try queue.status().lastUploadError == "server unreachable: timed out after 500 ms")
    }

    @Test("nothing listening: unreachable, with the system's reason")
    func refused() async throws {
        let server = try ScriptedHTTPServer([.drop])
        let url = server.url
        server.stop()
        let uploader = OverlandUploader(server: url, token: "t", timeoutSeconds: 5)
        await #expect(throws: OverlandUploader.UploadError.unreachable("connect: Connection refused")) {
            try await uploader.upload(["{}"])
        }
    }

    @Test("the acknowledgement is a JSON object whose result is \"ok\", whatever else it holds")
    func acknowledgement() {
        #expect(OverlandUploader.isAcknowledgement(Array("{\"result\":\"ok\"}".utf8)))
        #expect(OverlandUploader.isAcknowledgement(Array(" {\"saved\":3, \"result\" : \"ok\", \"x\":[1,{}]}\n".utf8)))
        for refused in ["", "ok", "{\"result\":\"ok\"", "{\"result\":\"ok\"} {}", "{\"result\":true}", "[{\"result\":\"ok\"}]",
                        "{\"result\":\"OK\"}", "{\"other\":\"ok\"}"] {
            #expect(!OverlandUploader.isAcknowledgement(Array(refused.utf8)), "\(refused)")
        }
    }

    @Test("upload URLs: scheme, host (IPv6 without brackets), default ports, path and query; others refused")
    func targets() {
        #expect(UploadTarget(URL(string: "http://127.0.0.1:8080/api/v1/overland")!)
                == UploadTarget(usesTLS: false, host: "127.0.0.1", port: 8080, requestTarget: "/api/v1/overland"))
        #expect(UploadTarget(URL(string: "https://example.org/in?device=van&x=%20")!)
                == UploadTarget(usesTLS: true, host: "example.org", port: 443, requestTarget: "/in?device=van&x=%20"))
        #expect(UploadTarget(URL(string: "HTTP://[::1]/")!) == UploadTarget(usesTLS: false, host: "::1", port: 80, requestTarget: "/"))
        #expect(UploadTarget(URL(string: "http://example.org")!)?.requestTarget == "/")
        #expect(UploadTarget(URL(string: "http://example.org?x=1#top")!)?.requestTarget == "/?x=1")
        #expect(UploadTarget(URL(string: "https://[2001:db8::1]:8443/p#f")!)
                == UploadTarget(usesTLS: true, host: "2001:db8::1", port: 8443, requestTarget: "/p"))
        for refused in ["ftp://example.org/", "https://user:pw@example.org/", "file:///tmp/x", "http://example.org:0/",
                        "http://example.org:99999/"] {
            #expect(UploadTarget(URL(string: refused)!) == nil, "\(refused)")
        }
    }
}

/// Log lines collected from the schedule's `@Sendable` log closure.
final class Messages: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
