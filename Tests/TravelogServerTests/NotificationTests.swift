import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing
@testable import TravelogNotify
import TravelogServer
import TravelogStore

@Suite("Notifications")
struct NotificationTests {
    /// A clock the test moves.
    final class Clock: Sendable {
        let current = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        var now: Date { current.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    @Test("a webhook is signed with HMAC-SHA256 of its body, retried with backoff, and sent once per event")
    func webhookRetriesAndSignature() async throws {
        let fixture = try await ServerFixture.make()
        let receiver = NotificationReceiver(failures: 2)
        let clock = Clock()
        let secret = "a-very-secret-secret"
        try await receiver.listening { port in
            _ = try await fixture.app.store.addChannel(userID: fixture.ada.id,
                                                       kind: .webhook(url: try #require(URL(string: "http://127.0.0.1:\(port)/hook")), secret: secret))
            let dispatcher = NotificationDispatcher(store: fixture.app.store, now: { clock.now }, addressPolicy: .privateAllowed, deadlineSeconds: NotificationDeliveryTests.deadline)
            let message = NotificationMessage(event: "journalEntry", key: "journal-entry:42", title: "New journal entry 📌",
                                              message: "Mitte, Berlin, DE", occurredAt: clock.now, details: ["place": "Mitte, Berlin, DE"])
            #expect(await dispatcher.notify(message, userID: fixture.ada.id).count == 1)
            #expect(await dispatcher.notify(message, userID: fixture.ada.id).isEmpty)
            #expect(await dispatcher.deliverDue() == 1)          // 500
            #expect(try await fixture.app.store.deliveries(userID: fixture.ada.id, limit: 1).first?.nextAttemptAt
                    == clock.now.addingTimeInterval(NotificationDispatcher.defaultBackoffSeconds[0]))
            #expect(await dispatcher.deliverDue() == 0)          // not due yet
            clock.advance(NotificationDispatcher.defaultBackoffSeconds[0])
            #expect(await dispatcher.deliverDue() == 1)          // 500
            clock.advance(NotificationDispatcher.defaultBackoffSeconds[1] - 1)
            #expect(await dispatcher.deliverDue() == 0)          // 2 minutes after the second: not yet
            clock.advance(1)
            #expect(await dispatcher.deliverDue() == 1)          // 200
            clock.advance(1e6)
            #expect(await dispatcher.deliverDue() == 0)
            // A new dispatcher (the server restarted): the same event is not sent again.
            let restarted = NotificationDispatcher(store: fixture.app.store, now: { clock.now }, addressPolicy: .privateAllowed, deadlineSeconds: NotificationDeliveryTests.deadline)
            #expect(await restarted.notify(message, userID: fixture.ada.id).isEmpty)
            #expect(await restarted.deliverDue() == 0)
        }
        let received = receiver.requests
        #expect(received.count == 3)
        let last = try #require(received.last)
        let expected = HMAC<SHA256>.authenticationCode(for: last.body, using: SymmetricKey(data: Data(secret.utf8)))
            .map { String(format: "%02x", $0) }.joined()
        #expect(last.header("X-Travelog-Signature") == "sha256=" + expected)
        #expect(last.header("X-Travelog-Event") == "journalEntry")
        #expect(last.header("Content-Type") == "application/json")
        #expect(Set(received.map { $0.header("X-Travelog-Delivery") }).count == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: last.body) as? [String: Any])
        #expect(json["title"] as? String == "New journal entry 📌")
        #expect(json["key"] as? String == "journal-entry:42")
        #expect(json["event"] as? String == "journalEntry")
        #expect(json["message"] as? String == "Mitte, Berlin, DE")
        #expect(json["occurredAt"] as? String == "2027-01-15T08:00:00Z")
        #expect((json["details"] as? [String: String])?["place"] == "Mitte, Berlin, DE")
        #expect(json["delivery"] as? Int == Int(last.header("X-Travelog-Delivery") ?? ""))
        let log = try await fixture.app.store.deliveries(userID: fixture.ada.id, limit: 5)
        #expect(log.map(\.state) == [.delivered])
        #expect(log.first?.attempts == 3)
    }

    @Test("channels are managed by the person: bad input is a 400, a device token a 403, another user's channel a 404")
    func routes() async throws {
        let fixture = try await ServerFixture.make(allowPrivateWebhooks: true)
        let ada = Auth.basic("ada", ServerFixture.adaPassword)
        try await fixture.test { client in
            for body in [#"{"type":"sms","url":"https://x.example"}"#, #"{"type":"webhook","url":"https://x.example/h","secret":"short"}"#,
                         #"{"type":"ntfy","url":"ftp://x.example/t"}"#, "not json"] {
                try await client.execute(uri: "/api/v1/notifications/channels", method: .post, headers: ada, body: ByteBuffer(body)) {
                    #expect($0.status == .badRequest, "\(body)")
                }
            }
            try await client.execute(uri: "/api/v1/notifications/channels", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer(#"{"type":"ntfy","url":"https://ntfy.example/t"}"#)) { #expect($0.status == .forbidden) }
            let id = try await client.execute(uri: "/api/v1/notifications/channels", method: .post, headers: ada,
                                              body: ByteBuffer(#"{"type":"ntfy","url":"http://127.0.0.1:9/topic"}"#)) { response in
                #expect(response.status == .created)
                return try #require((response.body.json as? [String: Any])?["id"] as? Int)
            }
            let bob = Auth.basic("bob", ServerFixture.bobPassword)
            try await client.execute(uri: "/api/v1/notifications/channels/\(id)", method: .delete, headers: bob) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/v1/notifications/channels/first", method: .delete, headers: ada) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/api/v1/notifications/channels/\(id)", method: .delete, headers: Auth.bearer(fixture.adaToken)) {
                #expect($0.status == .forbidden)
            }
            // A webhook's secret is written, never read back; bob sees none of ada's channels.
            try await client.execute(uri: "/api/v1/notifications/channels", method: .post, headers: ada,
                                     body: ByteBuffer(#"{"type":"webhook","url":"https://hooks.example/h","secret":"sixteen-chars-secret"}"#)) {
                #expect($0.status == .created)
                #expect(String(buffer: $0.body).contains("sixteen-chars-secret") == false)
            }
            try await client.execute(uri: "/api/v1/notifications/channels", method: .get, headers: ada) { response in
                let channels = try #require(response.body.json as? [[String: Any]])
                #expect(channels.map { $0["type"] as? String } == ["ntfy", "webhook"])
                #expect(channels.allSatisfy { Set($0.keys) == ["id", "type", "url"] })
            }
            try await client.execute(uri: "/api/v1/notifications/channels", method: .get, headers: bob) {
                #expect(($0.body.json as? [Any])?.isEmpty == true)
            }
            let webhook = try #require(try await fixture.app.store.channels(userID: fixture.ada.id).last)
            _ = try await fixture.app.store.removeChannel(id: webhook.id, userID: fixture.ada.id)
            // The test message to an unreachable ntfy server fails and is logged, to be retried.
            try await client.execute(uri: "/api/v1/notifications/test", method: .post, headers: ada) { response in
                let attempts = try #require(response.body.json as? [[String: Any]])
                #expect(attempts.first?["state"] as? String == "pending")
                #expect(attempts.first?["attempts"] as? Int == 1)
            }
            try await client.execute(uri: "/api/v1/notifications/log", method: .get, headers: ada) { response in
                #expect((response.body.json as? [[String: Any]])?.count == 1)
            }
            try await client.execute(uri: "/api/v1/notifications/channels/\(id)", method: .delete, headers: ada) { #expect($0.status == .noContent) }
        }
    }
}

@Suite("Journal notifications")
struct JournalNotificationTests {
    @Test("arriving somewhere and a completed entry notify once each, also when the same data comes again")
    func arrivalAndEntry() async throws {
        let fixture = try await ServerFixture.make()
        _ = try await fixture.app.store.addChannel(userID: fixture.ada.id, kind: .ntfy(url: URL(string: "http://127.0.0.1:9/t")!, token: nil))
        let start = Date().addingTimeInterval(-7.5 * 3600)
        let body = JournalRouteTests.morningBody(start: start)
        try await fixture.test { client in
            for _ in 0..<2 {
                try await client.execute(uri: "/api/v1/locations", method: .post, headers: Auth.bearer(fixture.adaToken),
                                         body: ByteBuffer(body)) { #expect($0.status == .ok) }
                await fixture.app.journal.drain()
            }
            let entries = try await JournalRouteTests.entries(client, Auth.basic("ada", ServerFixture.adaPassword))
            let ids = entries.compactMap { $0["id"] as? Int }
            let keys = try await fixture.app.store.deliveries(userID: fixture.ada.id, limit: 50).map(\.message.key)
            #expect(Set(keys).count == keys.count)
            #expect(keys.contains("visit-arrival:\(ids[2])"))
            #expect(keys.contains("journal-entry:\(ids[1])"))
            #expect(!keys.contains("visit-arrival:\(ids[0])"))  // 7.5 hours ago: history, not news
        }
    }
}
