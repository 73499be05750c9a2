import Foundation
import Testing
import TravelogSQLite
@testable import TravelogNotify
import TravelogServer
import TravelogStore
import TravelogTestSupport

@Suite("Notification delivery")
struct NotificationDeliveryTests {
    /// A request's deadline here: none of these tests is about it, and a starved two-core suite once kept the local
    /// receiver's answer past the default 10 s ("no answer" for the redirect, fresh clone of session 20).
    static let deadline: TimeInterval = 60

    typealias Clock = NotificationTests.Clock

    static func message(_ key: String, title: String = "Arrived: Home", at date: Date) -> NotificationMessage {
        NotificationMessage(event: "arrival", key: key, title: title, message: "phone arrived at Home", occurredAt: date,
                            details: ["place": "Home"])
    }

    static func url(_ port: Int, _ path: String) throws -> URL {
        try #require(URL(string: "http://127.0.0.1:\(port)\(path)"))
    }

    @Test("an ntfy push is the message POSTed to the topic URL, with its title, a pin tag and the access token")
    func ntfyRequest() async throws {
        let store = InMemoryLocationStore()
        let ada = try await store.addUser(named: "ada")
        let receiver = NotificationReceiver()
        try await receiver.listening { port in
            _ = try await store.addChannel(userID: ada.id, kind: .ntfy(url: try Self.url(port, "/topic"), token: "tk_2J6i5z"))
            _ = try await store.addChannel(userID: ada.id, kind: .ntfy(url: try Self.url(port, "/topic"), token: nil))
            let dispatcher = NotificationDispatcher(store: store, addressPolicy: .privateAllowed, deadlineSeconds: Self.deadline)
            await dispatcher.notify(Self.message("visit-arrival:1", at: Date()), userID: ada.id)
            await dispatcher.notify(NotificationMessage(event: "journalEntry", key: "journal-entry:1", title: "New journal entry 📌",
                                                        message: "Café Einstein, Berlin", occurredAt: Date()), userID: ada.id)
            #expect(await dispatcher.deliverDue() == 4)
        }
        let requests = receiver.requests
        try #require(requests.count == 4)
        #expect(requests.map(\.path) == ["/topic", "/topic", "/topic", "/topic"])
        // Channels are served side by side, so the two channels' requests may interleave either way.
        #expect(requests.filter { $0.header("Authorization") == "Bearer tk_2J6i5z" }.count == 2)
        #expect(requests.filter { $0.header("Authorization") == nil }.count == 2)
        #expect(requests.allSatisfy { $0.header("Tags") == "round_pushpin" })
        #expect(requests[0].header("Title") == "Arrived: Home")
        #expect(String(decoding: requests[0].body, as: UTF8.self) == "phone arrived at Home")
        #expect(String(decoding: requests[2].body, as: UTF8.self) == "Café Einstein, Berlin")
        // A header is Latin-1: a title with an emoji goes as an RFC 2047 encoded word, which ntfy decodes.
        let encoded = try #require(requests[2].header("Title"))
        #expect(encoded.hasPrefix("=?UTF-8?B?") && encoded.hasSuffix("?="))
        let base64 = encoded.dropFirst("=?UTF-8?B?".count).dropLast(2)
        #expect(Data(base64Encoded: String(base64)).map { String(decoding: $0, as: UTF8.self) } == "New journal entry 📌")
    }

    @Test("a failing webhook is retried after each backoff and then given up, every attempt in the log")
    func givesUp() async throws {
        let store = InMemoryLocationStore()
        let ada = try await store.addUser(named: "ada")
        let receiver = NotificationReceiver(failures: .max)
        let clock = Clock()
        try await receiver.listening { port in
            _ = try await store.addChannel(userID: ada.id, kind: .webhook(url: try Self.url(port, "/hook"), secret: "0123456789abcdef"))
            let dispatcher = NotificationDispatcher(store: store, now: { clock.now }, backoffSeconds: [30, 120], addressPolicy: .privateAllowed, deadlineSeconds: Self.deadline)
            await dispatcher.notify(Self.message("visit-arrival:7", at: clock.now), userID: ada.id)
            #expect(await dispatcher.deliverDue() == 1)
            #expect(try await store.deliveries(userID: ada.id, limit: 1).first?.nextAttemptAt == clock.now.addingTimeInterval(30))
            clock.advance(29)
            #expect(await dispatcher.deliverDue() == 0)
            clock.advance(1)
            #expect(await dispatcher.deliverDue() == 1)
            #expect(try await store.deliveries(userID: ada.id, limit: 1).first?.nextAttemptAt == clock.now.addingTimeInterval(120))
            clock.advance(120)
            #expect(await dispatcher.deliverDue() == 1)
            clock.advance(1e6)
            #expect(await dispatcher.deliverDue() == 0)
        }
        #expect(receiver.requests.count == 3)
        let delivery = try #require(try await store.deliveries(userID: ada.id, limit: 5).first)
        #expect(delivery.state == .failed)
        #expect(delivery.attempts == 3)
        #expect(delivery.lastResult == "HTTP 500")
        #expect(delivery.nextAttemptAt == nil)
    }

    @Test("a redirect is not followed: the webhook that moved is not delivered, and the log says where it went")
    func redirect() async throws {
        let store = InMemoryLocationStore()
        let ada = try await store.addUser(named: "ada")
        let receiver = NotificationReceiver()
        try await receiver.listening { port in
            _ = try await store.addChannel(userID: ada.id, kind: .webhook(url: try Self.url(port, "/moved"), secret: "0123456789abcdef"))
            let dispatcher = NotificationDispatcher(store: store, addressPolicy: .privateAllowed, deadlineSeconds: Self.deadline)
            await dispatcher.notify(Self.message("visit-arrival:3", at: Date()), userID: ada.id)
            #expect(await dispatcher.deliverDue() == 1)
        }
        #expect(receiver.requests.map(\.path) == ["/moved"])
        let delivery = try #require(try await store.deliveries(userID: ada.id, limit: 1).first)
        #expect(delivery.state == .pending)
        #expect(delivery.lastResult == "HTTP 308 to /hook")
    }

    @Test("an event is sent once across restarts: a retry queued before one goes out after it, a repeat never")
    func acrossRestarts() async throws {
        let path = TestDirectory.makeFolder("notify").appendingPathComponent("travelog.sqlite").path
        let receiver = NotificationReceiver(failures: 1)
        let clock = Clock()
        let message = Self.message("visit-arrival:phone:1800000000000", at: clock.now)
        try await receiver.listening { port in
            let before = try SQLiteLocationStore(path: path)
            let ada = try await before.addUser(named: "ada")
            _ = try await before.addChannel(userID: ada.id, kind: .webhook(url: try Self.url(port, "/hook"), secret: "0123456789abcdef"))
            let first = NotificationDispatcher(store: before, now: { clock.now }, addressPolicy: .privateAllowed, deadlineSeconds: Self.deadline)
            #expect(await first.notify(message, userID: ada.id).count == 1)
            #expect(await first.deliverDue() == 1)                          // 500: retry in 30 s
            // The server restarts, and the journal processes the same day again.
            let after = try SQLiteLocationStore(path: path)
            let second = NotificationDispatcher(store: after, now: { clock.now }, addressPolicy: .privateAllowed, deadlineSeconds: Self.deadline)
            #expect(await second.notify(message, userID: ada.id).isEmpty)
            #expect(await second.deliverDue() == 0)
            clock.advance(30)
            #expect(await second.deliverDue() == 1)                         // 200
            let third = NotificationDispatcher(store: try SQLiteLocationStore(path: path), now: { clock.now }, addressPolicy: .privateAllowed, deadlineSeconds: Self.deadline)
            #expect(await third.notify(message, userID: ada.id).isEmpty)
            clock.advance(1e6)
            #expect(await third.deliverDue() == 0)
            #expect(try await after.deliveries(userID: ada.id, limit: 5).map(\.state) == [.delivered])
        }
        #expect(receiver.requests.count == 2)
        #expect(Set(receiver.requests.map(\.body)).count == 1)
    }

    @Test("two senders on one database (the server and travelog notify test) never send a delivery twice")
    func twoSenders() async throws {
        let path = TestDirectory.makeFolder("notify").appendingPathComponent("travelog.sqlite").path
        let receiver = NotificationReceiver()
        try await receiver.listening { port in
            let server = try SQLiteLocationStore(path: path), cli = try SQLiteLocationStore(path: path)
            let ada = try await server.addUser(named: "ada")
            _ = try await server.addChannel(userID: ada.id, kind: .ntfy(url: try Self.url(port, "/topic"), token: nil))
            _ = try await server.addChannel(userID: ada.id, kind: .webhook(url: try Self.url(port, "/hook"), secret: "0123456789abcdef"))
            let serverDispatcher = NotificationDispatcher(store: server, addressPolicy: .privateAllowed, deadlineSeconds: Self.deadline), cliDispatcher = NotificationDispatcher(store: cli, addressPolicy: .privateAllowed, deadlineSeconds: Self.deadline)
            for visit in 1...8 { await serverDispatcher.notify(Self.message("visit-arrival:\(visit)", at: Date()), userID: ada.id) }
            async let byServer = serverDispatcher.deliverDue()
            async let byCLI = cliDispatcher.deliverDue()
            #expect(await byServer + byCLI == 16)
            #expect(try await server.deliveries(userID: ada.id, limit: 20).map(\.attempts) == Array(repeating: 1, count: 16))
        }
        #expect(receiver.requests.count == 16)
    }

    @Test("the service sends what is notified without being asked, and ends when cancelled")
    func service() async throws {
        let store = InMemoryLocationStore()
        let ada = try await store.addUser(named: "ada")
        let receiver = NotificationReceiver()
        try await receiver.listening { port in
            _ = try await store.addChannel(userID: ada.id, kind: .ntfy(url: try Self.url(port, "/topic"), token: nil))
            let dispatcher = NotificationDispatcher(store: store, addressPolicy: .privateAllowed, deadlineSeconds: Self.deadline)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await dispatcher.run() }
                await dispatcher.notify(Self.message("visit-arrival:9", at: Date()), userID: ada.id)
                let arrival = await receiver.nextArrival()
                #expect(arrival.map { String(decoding: $0.body, as: UTF8.self) } == "phone arrived at Home")
                // The dispatcher records the delivery once the receiver's answer is in: give it time
                // (a generous bound for a loaded machine) before cancelling.
                for _ in 0..<600 where try await store.deliveries(userID: ada.id, limit: 1).first?.state != .delivered {
                    try await Task.sleep(for: .milliseconds(50))
                }
                group.cancelAll()
                try await group.waitForAll()
            }
            #expect(try await store.deliveries(userID: ada.id, limit: 1).first?.state == .delivered)
        }
    }
}
