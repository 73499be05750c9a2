import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Synchronization
import Testing
import TravelogAccounts
import TravelogServer
import TravelogStore

@Suite("Security headers and leaks")
struct SecurityHeadersTests {
    static func expectHardened(_ headers: HTTPFields, _ what: String) {
        #expect(headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff", "\(what)")
        #expect(headers[HTTPField.Name("X-Frame-Options")!] == "DENY", "\(what)")
        #expect(headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer", "\(what)")
        let policy = headers[.contentSecurityPolicy] ?? ""
        #expect(policy.contains("frame-ancestors 'none'"), "\(what)")
        #expect(policy.contains("base-uri 'none'"), "\(what)")
        #expect(policy.contains("form-action"), "\(what)")
        #expect(!policy.contains("unsafe-inline"), "\(what)")
    }

    @Test("the page, API answers and errors forbid framing, sniffing, referrers and inline code")
    func headers() async throws {
        let fixture = try await ServerFixture.make()
        try await fixture.test { client in
            for (path, headers) in [("/", HTTPFields()), ("/app.js", HTTPFields()), ("/api/v1/devices", Auth.bearer(fixture.adaToken)),
                                    ("/api/v1/devices", HTTPFields()), ("/no/such/page", HTTPFields())] {
                try await client.execute(uri: path, method: .get, headers: headers) { Self.expectHardened($0.headers, path) }
            }
        }
    }

    /// Keeps every log line, its metadata included, as text.
    struct CapturingLogHandler: LogHandler {
        let lines: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String,
                 file: String, function: String, line: UInt) {
            let all = self.metadata.merging(metadata ?? [:]) { $1 }
            lines.value.withLock { $0.append("\(message) \(all)") }
        }
    }

    @Test("device tokens and passwords never appear in the logs, not even at trace level, in any form a client sends them")
    func noSecretsInLogs() async throws {
        let fixture = try await ServerFixture.make()
        let (_, traccarID) = try await fixture.app.accounts.addDevice(named: "traccar", userID: fixture.ada.id, app: .traccar)
        let (_, osmandID) = try await fixture.app.accounts.addDevice(named: "osmand", userID: fixture.bob.id, app: .osmand)
        let (_, jsonID) = try await fixture.app.accounts.addDevice(named: "traccar-json", userID: fixture.ada.id, app: .traccar)
        let (_, phoneToken) = try await fixture.app.accounts.addDevice(named: "owntracks", userID: fixture.ada.id, app: .owntracks)
        let session = try await fixture.app.accounts.startSession(userID: fixture.ada.id)
        let box = LogLines()
        let logger = Logger(label: "travelog-test") { _ in CapturingLogHandler(lines: box) }
        try await fixture.app.makeApplication(logger: logger).test(.router) { client in
            try await client.execute(uri: "/api/v1/latest?token=\(fixture.adaToken)", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/v1/gpslogger?lat=1&lon=2&Token=\(fixture.bobToken)", method: .get) { _ in }
            try await client.execute(uri: "/api/v1/devices", method: .get, headers: Auth.basic("ada", ServerFixture.adaPassword)) { _ in }
            // OsmAnd and Traccar Client: the device id is the secret, in the query and in the form body.
            try await client.execute(uri: "/api/v1/osmand?id=\(traccarID)&lat=52.5&lon=13.4&timestamp=1709283600", method: .get) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/?deviceid=\(osmandID)&lat=999&lon=13.4&timestamp=1709283600", method: .get) { _ in }
            try await client.execute(uri: "/api/v1/osmand?deviceid=\(osmandID)&lat=999&lon=13.4&timestamp=1709283600", method: .get) { _ in }
            let json = #"{"device_id": "\#(jsonID)", "location": {"timestamp": "2024-03-01T09:00:00Z", "coords": {"latitude": 95, "longitude": 13.4}}}"#
            try await client.execute(uri: "/api/v1/osmand", method: .post, headers: [.contentType: "application/json"],
                                     body: ByteBuffer(json)) { _ in }
            try await client.execute(uri: "/api/v1/owntracks", method: .post, headers: Auth.basic("ada", phoneToken),
                                     body: ByteBuffer(#"{"_type":"location","lat":52.5,"lon":13.4,"tst":1709283600}"#)) { _ in }
            var cookie = HTTPFields()
            cookie[.cookie] = "travelog_session=\(session)"
            try await client.execute(uri: "/api/v1/session", method: .get, headers: cookie) { #expect($0.status == .ok) }
            // What was rejected is shown to the user: without the secrets either.
            try await client.execute(uri: "/api/v1/rejected", method: .get, headers: Auth.basic("ada", ServerFixture.adaPassword)) {
                #expect($0.status == .ok)
                #expect(!$0.body.text.contains(jsonID), "a rejected item keeps Traccar's device id")
            }
            try await client.execute(uri: "/api/v1/rejected", method: .get, headers: Auth.basic("bob", ServerFixture.bobPassword)) {
                #expect($0.body.text.contains("REDACTED"), "bob's rejected OsmAnd request is listed")
                #expect(!$0.body.text.contains(osmandID), "a rejected item keeps OsmAnd's device id")
            }
        }
        let lines = box.value.withLock { $0 }
        #expect(!lines.isEmpty)
        for secret in [fixture.adaToken, fixture.bobToken, ServerFixture.adaPassword, ServerFixture.bobPassword,
                       traccarID, osmandID, jsonID, phoneToken, session] {
            #expect(!lines.contains { $0.contains(secret) }, "a log line holds a secret")
        }
    }
}

/// Log lines shared between a handler and a test.
final class LogLines: Sendable {
    let value = Mutex<[String]>([])
}
