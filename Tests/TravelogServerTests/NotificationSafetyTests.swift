import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
@testable import TravelogNotify
import TravelogServer
import TravelogStore

/// What a hostile or broken endpoint cannot do to the sender: hang it, hold up other channels or
/// the shutdown, reach the server's own network, or probe ports through the delivery log.
@Suite("Notification safety", .timeLimit(.minutes(5)))
struct NotificationSafetyTests {
    static let secret = "0123456789abcdef"

    static func message(_ key: String) -> NotificationMessage {
        NotificationDeliveryTests.message(key, at: Date())
    }

    static func webhook(_ store: InMemoryLocationStore, _ user: User, _ url: String) async throws -> NotificationChannel {
        try await store.addChannel(userID: user.id, kind: .webhook(url: try #require(URL(string: url)), secret: secret))
    }

    @Test("a webhook that answers 401 with a Basic challenge is a failed attempt, not a hang")
    func basicChallenge() async throws {
        let store = InMemoryLocationStore()
        let ada = try await store.addUser(named: "ada")
        let receiver = NotificationReceiver()
        try await receiver.listening { port in
            _ = try await Self.webhook(store, ada, "http://127.0.0.1:\(port)/private")
            // An hour's backoff: however slow this machine, the retry cannot fall due within the round.
            let dispatcher = NotificationDispatcher(store: store, backoffSeconds: [3600], addressPolicy: .privateAllowed,
                                                    deadlineSeconds: NotificationDeliveryTests.deadline)
            await dispatcher.notify(Self.message("visit-arrival:1"), userID: ada.id)
            #expect(await dispatcher.deliverDue() == 1)
        }
        let delivery = try #require(try await store.deliveries(userID: ada.id, limit: 1).first)
        #expect(delivery.state == .pending)
        #expect(delivery.lastResult == "HTTP 401")
    }

    @Test("a server that accepts and never answers fails at the deadline, and reads like a closed port")
    func silentServer() async throws {
        let store = InMemoryLocationStore()
        let ada = try await store.addUser(named: "ada")
        let silent = try await SilentServer()
        _ = try await Self.webhook(store, ada, "http://127.0.0.1:\(silent.port)/hook")
        _ = try await Self.webhook(store, ada, "http://127.0.0.1:9/hook")               // nothing listens
        _ = try await Self.webhook(store, ada, "http://nowhere.invalid/hook")          // no such name
        // An hour's backoff: on a loaded machine (CI, 2 cores, the whole suite at once) this round once lasted
        // beyond the default 30 s, and a failed delivery fell due again and was sent a second time within it.
        let dispatcher = NotificationDispatcher(store: store, backoffSeconds: [3600], addressPolicy: .privateAllowed, deadlineSeconds: 0.5,
                                                resolve: { host, port throws(OutboundError) in
                                                    guard host == "127.0.0.1" else { throw .unresolvable(host: host) }
                                                    return [try! SocketAddress(ipAddress: host, port: port)]
                                                })
        await dispatcher.notify(Self.message("visit-arrival:2"), userID: ada.id)
        #expect(await dispatcher.deliverDue() == 3)
        await silent.stop()
        let log = try await store.deliveries(userID: ada.id, limit: 5)
        #expect(log.map(\.lastResult) == ["no answer", "no answer", "no answer"])
        #expect(log.allSatisfy { $0.state == .pending && $0.attempts == 1 })
    }

    @Test("while one channel hangs, the others are delivered; cancelling ends the round at once")
    func oneBadChannelDelaysNobody() async throws {
        let store = InMemoryLocationStore()
        let ada = try await store.addUser(named: "ada")
        let silent = try await SilentServer()
        let receiver = NotificationReceiver()
        try await receiver.listening { port in
            let bad = try await Self.webhook(store, ada, "http://127.0.0.1:\(silent.port)/hook")
            _ = try await Self.webhook(store, ada, "http://127.0.0.1:\(port)/hook")
            // An hour's deadline: only concurrency lets the good channel through.
            let dispatcher = NotificationDispatcher(store: store, addressPolicy: .privateAllowed, deadlineSeconds: 3600)
            await dispatcher.notify(Self.message("visit-arrival:3"), userID: ada.id)
            let round = Task { await dispatcher.deliverDue() }
            let arrival = await receiver.nextArrival()
            #expect(arrival?.path == "/hook")
            var connections = silent.accepted.makeAsyncIterator()
            _ = await connections.next()
            round.cancel()
            _ = await round.value
            let stuck = try #require(try await store.deliveries(userID: ada.id, limit: 5).first { $0.channel.id == bad.id })
            #expect(stuck.state == .pending)
            #expect(stuck.lastResult == "interrupted (the server stopped)")
        }
        await silent.stop()
    }

    @Test("the service stops on cancellation while a delivery hangs")
    func shutdownDoesNotWait() async throws {
        let store = InMemoryLocationStore()
        let ada = try await store.addUser(named: "ada")
        let silent = try await SilentServer()
        _ = try await Self.webhook(store, ada, "http://127.0.0.1:\(silent.port)/hook")
        let dispatcher = NotificationDispatcher(store: store, addressPolicy: .privateAllowed, deadlineSeconds: 3600)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await dispatcher.run() }
            await dispatcher.notify(Self.message("visit-arrival:4"), userID: ada.id)
            var connections = silent.accepted.makeAsyncIterator()
            _ = await connections.next()
            group.cancelAll()
            try await group.waitForAll()
        }
        await silent.stop()
        #expect(try await store.deliveries(userID: ada.id, limit: 1).first?.state == .pending)
    }

    @Test("a name that resolves to a private address is refused when sent (DNS rebinding), unless allowed")
    func rebinding() async throws {
        let store = InMemoryLocationStore()
        let ada = try await store.addUser(named: "ada")
        let receiver = NotificationReceiver()
        try await receiver.listening { port in
            // hooks.example passed the check when it was added; now it points at this machine.
            _ = try await Self.webhook(store, ada, "http://hooks.example:\(port)/hook")
            let resolve: @Sendable (String, Int) throws(OutboundError) -> [SocketAddress] = { _, port in
                [try! SocketAddress(ipAddress: "127.0.0.1", port: port)]
            }
            let strict = NotificationDispatcher(store: store, resolve: resolve)
            await strict.notify(Self.message("visit-arrival:5"), userID: ada.id)
            #expect(await strict.deliverDue() == 1)
            #expect(receiver.requests.isEmpty)
            let refused = try #require(try await store.deliveries(userID: ada.id, limit: 1).first)
            #expect(refused.lastResult?.hasPrefix("refused: hooks.example") == true)
            let lenient = NotificationDispatcher(store: store, addressPolicy: .privateAllowed, resolve: resolve)
            await lenient.notify(Self.message("visit-arrival:6"), userID: ada.id)
            #expect(await lenient.deliver(try await store.deliveries(userID: ada.id, limit: 1).map(\.id)) == 1)
            #expect(receiver.requests.map(\.path) == ["/hook"])
        }
    }

    @Test("webhooks and ntfy to loopback, private, link-local and metadata addresses are refused when added",
          arguments: ["http://127.0.0.1:8080/h", "http://localhost/h", "http://LocalHost./h", "http://a.localhost/h",
                      "http://[::1]/h", "http://0x7f000001/h", "http://2130706433/h", "http://0177.0.0.1/h", "http://127.1/h",
                      "http://169.254.169.254/latest/meta-data", "http://10.0.0.1/h", "http://192.168.1.2/h", "http://172.16.0.1/h",
                      "http://100.64.0.1/h", "http://0.0.0.0/h", "http://[::ffff:127.0.0.1]/h", "http://[fd00:ec2::254]/h",
                      "http://[fe80::1]/h", "http://[64:ff9b::a9fe:a9fe]/h"])
    func refusedWhenAdded(url: String) async throws {
        let fixture = try await ServerFixture.make()
        let ada = Auth.basic("ada", ServerFixture.adaPassword)
        try await fixture.test { client in
            for type in ["webhook", "ntfy"] {
                let body = #"{"type":"\#(type)","url":"\#(url)","secret":"\#(Self.secret)"}"#
                try await client.execute(uri: "/api/v1/notifications/channels", method: .post, headers: ada, body: ByteBuffer(body)) {
                    #expect($0.status == .badRequest, "\(type) \(url)")
                }
            }
        }
        #expect(try await fixture.app.store.channels(userID: fixture.ada.id).isEmpty)
    }

    @Test("public addresses and names pass the policy; private ones pass only when allowed",
          arguments: [("8.8.8.8", true), ("1.1.1.1", true), ("2606:4700::1111", true), ("172.32.0.1", true),
                      ("127.0.0.1", false), ("10.1.2.3", false), ("169.254.169.254", false), ("192.0.2.1", false),
                      ("224.0.0.1", false), ("255.255.255.255", false), ("::", false), ("::1", false), ("::ffff:8.8.8.8", true),
                      ("::ffff:10.0.0.1", false), ("fc00::1", false), ("ff02::1", false), ("2001:db8::1", false)])
    func policy(address: String, isPublic: Bool) throws {
        let bytes = try #require(AddressPolicy.literalAddress(address))
        #expect(AddressPolicy.publicOnly.permits(bytes) == isPublic)
        #expect(AddressPolicy.privateAllowed.permits(bytes))
        #expect(AddressPolicy.publicOnly.permits(host: "hooks.example"))
    }
}
