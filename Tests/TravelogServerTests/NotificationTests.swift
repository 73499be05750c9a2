import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing
import TravelogServer
import TravelogStore

@Suite("Notifications")
struct NotificationTests {
    /// A webhook receiver that answers 500 to its first `failures` requests.
    final class Receiver: Sendable {
        struct Received: Sendable { var headers: HTTPFields; var body: Data }
        let received = Mutex<[Received]>([])
        let failures: Int
        init(failures: Int) { self.failures = failures }

        func application() -> some ApplicationProtocol {
            let router = Router()
            router.post("/hook") { request, _ -> Response in
                var request = request
                let body = try await request.collectBody(upTo: 1 << 20)
                let count = self.received.withLock { list in
                    list.append(Received(headers: request.headers, body: Data(body.readableBytesView)))
                    return list.count
                }
                return Response(status: count <= self.failures ? .internalServerError : .ok)
            }
            return Application(router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)))
        }
    }

    /// A clock the test moves.
    final class Clock: Sendable {
        let current = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        var now: Date { current.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    @Test("a webhook is signed with HMAC-SHA256 of its body, retried with backoff, and sent once per event")
    func webhookRetriesAndSignature() async throws {
        let fixture = try await ServerFixture.make()
        let receiver = Receiver(failures: 2)
        let clock = Clock()
        let secret = "a-very-secret-secret"
        try await receiver.application().test(.live) { client in
            let port = try #require(client.port)
            _ = try await fixture.app.store.addChannel(userID: fixture.ada.id,
                                                       kind: .webhook(url: URL(string: "http://127.0.0.1:\(port)/hook")!, secret: secret))
            let dispatcher = NotificationDispatcher(store: fixture.app.store, now: { clock.now })
            let message = NotificationMessage(event: "journalEntry", key: "journal-entry:42", title: "New journal entry 📌",
                                              message: "Mitte, Berlin, DE", occurredAt: clock.now, details: ["place": "Mitte, Berlin, DE"])
            await dispatcher.notify(message, userID: fixture.ada.id)
            await dispatcher.notify(message, userID: fixture.ada.id)
            #expect(await dispatcher.deliverDue() == 1)          // 500
            #expect(await dispatcher.deliverDue() == 0)          // not due yet
            clock.advance(NotificationDispatcher.backoffSeconds[0])
            #expect(await dispatcher.deliverDue() == 1)          // 500
            clock.advance(NotificationDispatcher.backoffSeconds[1])
            #expect(await dispatcher.deliverDue() == 1)          // 200
            clock.advance(1e6)
            #expect(await dispatcher.deliverDue() == 0)
            // After a restart, the same event is not sent again.
            let restarted = NotificationDispatcher(store: fixture.app.store, now: { clock.now })
            await restarted.notify(message, userID: fixture.ada.id)
            #expect(await restarted.deliverDue() == 0)
        }
        let received = receiver.received.withLock { $0 }
        #expect(received.count == 3)
        let last = try #require(received.last)
        let expected = HMAC<SHA256>.authenticationCode(for: last.body, using: SymmetricKey(data: Data(secret.utf8)))
            .map { String(format: "%02x", $0) }.joined()
        #expect(last.headers[HTTPField.Name("X-Travelog-Signature")!] == "sha256=" + expected)
        #expect(last.headers[HTTPField.Name("X-Travelog-Event")!] == "journalEntry")
        let json = try #require(try JSONSerialization.jsonObject(with: last.body) as? [String: Any])
        #expect(json["title"] as? String == "New journal entry 📌")
        #expect(json["key"] as? String == "journal-entry:42")
        let log = try await fixture.app.store.deliveries(userID: fixture.ada.id, limit: 5)
        #expect(log.map(\.state) == [.delivered])
        #expect(log.first?.attempts == 3)
    }

    @Test("channels are managed by the person: bad input is a 400, a device token a 403, another user's channel a 404")
    func routes() async throws {
        let fixture = try await ServerFixture.make()
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
            try await client.execute(uri: "/api/v1/notifications/channels/\(id)", method: .delete,
                                     headers: Auth.basic("bob", ServerFixture.bobPassword)) { #expect($0.status == .notFound) }
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
