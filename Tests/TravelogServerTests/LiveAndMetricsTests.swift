import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import TravelogCore
import TravelogSQLite
import TravelogServer
import TravelogStore
#if canImport(Glibc)
import Glibc
#endif

@Suite("Live updates over a real socket, and metrics")
struct LiveAndMetricsTests {
    /// An HTTP client on a socket, reading the event stream as it comes. It never blocks a thread
    /// of the concurrency pool (which serves the server in the same process: on a 2-core machine
    /// it has two threads): it polls without waiting and sleeps between polls.
    final class EventStreamReader: @unchecked Sendable {
        let descriptor: Int32
        var received = ""

        init(port: Int, path: String, authorization: String) throws {
            guard let descriptor = loopbackConnection(port: port) else { throw POSIXError(.ECONNREFUSED) }
            self.descriptor = descriptor
            let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: \(authorization)\r\nAccept: text/event-stream\r\n\r\n"
            _ = request.withCString { send(descriptor, $0, strlen($0), 0) }
        }

        /// Reads until `text` has arrived or `seconds` have passed. - Returns: whether it arrived.
        func wait(for text: String, seconds: Double) async -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 65536)
            while !received.contains(text), Date() < deadline {
                let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if count > 0 {
                    received += String(decoding: buffer[0..<count], as: UTF8.self)
                } else {
                    try? await Task.sleep(for: .milliseconds(10))
                }
            }
            return received.contains(text)
        }

        deinit { close(descriptor) }
    }

    // The waits are generous bounds, not speed checks (the delivery time is a benchmark's figure): on
    // 2 cores the whole suite shares the cooperative pool with this in-process server.
    @Test("a location posted through any endpoint reaches the user's event stream, and only hers")
    func liveOverSocket() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test(.live) { client in
            let port = try #require(client.port)
            let ada = try EventStreamReader(port: port, path: "/api/v1/live", authorization: Auth.basic("ada", ServerFixture.adaPassword)[.authorization]!)
            let bob = try EventStreamReader(port: port, path: "/api/v1/live", authorization: "Bearer \(fixture.bobToken)")
            #expect(await ada.wait(for: ": connected", seconds: 60))
            #expect(await bob.wait(for: ": connected", seconds: 60))
            #expect(ada.received.contains("text/event-stream"))
            try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: Auth.basic("ada", fixture.adaToken),
                                     body: ByteBuffer(#"{"_type":"location","lat":52.52,"lon":13.405,"tst":1700000000,"tid":"ph"}"#)) {
                #expect($0.status == .ok)
            }
            // Each location is a GeoJSON feature, written as the read API and the export write it.
            #expect(await ada.wait(for: #""coordinates":[13.4050000,52.5200000]},"properties":{"timestamp":"2023-11-14T22:13:20Z""#, seconds: 30))
            #expect(ada.received.contains("event: locations"))
            #expect(ada.received.contains("\"device\":\"phone\""))
            try await client.execute(uri: "/api/v1/overland", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer(overlandBatch(count: 3, latitude: 47.25))) { #expect($0.status == .ok) }
            #expect(await ada.wait(for: ",47.2500000,40]", seconds: 30))
            #expect(await !bob.wait(for: "event: locations", seconds: 1))
        }
    }

    @Test("/metrics counts requests and stored locations by source in Prometheus' text format")
    func metrics() async throws {
        let fixture = try await ServerFixture.make()
        // Over a socket on 127.0.0.1: /metrics answers loopback clients only by default.
        try await fixture.test(.live) { client in
            try await client.execute(uri: "/api/v1/overland", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer(overlandBatch(count: 7))) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/v1/overland", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer(overlandBatch(count: 7))) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/v1/overland", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer("[")) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/v1/locations", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer("[")) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = response.body.text
                #expect(text.contains("travelog_ingested_locations_total{source=\"overland\"} 7\n"))
                #expect(text.contains("travelog_duplicate_locations_total{source=\"overland\"} 7\n"))
                #expect(text.contains("travelog_rejected_batches_total{endpoint=\"locations\"} 1\n"))
                #expect(text.contains("travelog_rejected_items_total{route=\"overland\"} 1\n"))
                #expect(text.contains("travelog_http_requests_total{method=\"POST\",route=\"/api/v1/overland\",status=\"200\"} 3\n"))
                // Through swift-metrics' Timer into swift-prometheus' histogram: a count, a sum and the buckets.
                #expect(text.contains("travelog_http_request_duration_seconds_count{route=\"/api/v1/overland\"} 3\n"))
                #expect(text.contains("travelog_http_request_duration_seconds_bucket{route=\"/api/v1/overland\",le=\"+Inf\"} 3\n"))
                #expect(text.contains("travelog_ingested_locations_total{source=\"gpslogger\"} 0\n"))
                #expect(text.contains("# TYPE travelog_live_subscribers gauge\n"))
            }
        }
    }
}
