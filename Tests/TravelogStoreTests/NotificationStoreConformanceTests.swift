import Foundation
import Testing
import TravelogSQLite
import TravelogStore

/// The contract of `NotificationStore`: every backend passes every test here.
@Suite("NotificationStore conformance")
struct NotificationStoreConformanceTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static func message(_ key: String) -> NotificationMessage {
        NotificationMessage(event: "arrival", key: key, title: "Arrived", message: "Home", occurredAt: t0, details: ["place": "Home"])
    }

    @Test("an event is queued once per channel, however often it is notified", arguments: StoreFactory.all)
    func oncePerKey(factory: StoreFactory) async throws {
        let (store, ada, _) = try await LocationStoreConformanceTests.prepared(factory)
        let hook = try await store.addChannel(userID: ada.id, kind: .webhook(url: URL(string: "http://127.0.0.1:1/hook")!, secret: "s3cret-s3cret-s3cret"))
        _ = try await store.addChannel(userID: ada.id, kind: .ntfy(url: URL(string: "https://ntfy.example/topic")!, token: nil))
        #expect(try await store.enqueue(Self.message("visit-arrival:1"), userID: ada.id, at: Self.t0).count == 2)
        #expect(try await store.enqueue(Self.message("visit-arrival:1"), userID: ada.id, at: Self.t0).isEmpty)
        let due = try await store.dueDeliveries(at: Self.t0, limit: 10)
        #expect(due.count == 2)
        #expect(due.first?.channel == NotificationChannel(id: hook.id, userID: ada.id, kind: hook.kind))
        #expect(due.first?.message == Self.message("visit-arrival:1"))
        // A failed attempt waits until its retry time; a success leaves the queue for the log.
        try await store.recordAttempt(due[0].id, delivered: false, result: "HTTP 500", retryAt: Self.t0.addingTimeInterval(30), at: Self.t0)
        try await store.recordAttempt(due[1].id, delivered: true, result: "HTTP 200", retryAt: nil, at: Self.t0)
        #expect(try await store.dueDeliveries(at: Self.t0.addingTimeInterval(29), limit: 10).isEmpty)
        let retry = try await store.dueDeliveries(at: Self.t0.addingTimeInterval(30), limit: 10)
        #expect(retry.map(\.id) == [due[0].id])
        #expect(retry.first?.attempts == 1)
        try await store.recordAttempt(due[0].id, delivered: false, result: "HTTP 500", retryAt: nil, at: Self.t0.addingTimeInterval(31))
        let log = try await store.deliveries(userID: ada.id, limit: 10)
        #expect(log.map(\.state) == [.delivered, .failed])
        #expect(try await store.dueDeliveries(at: Self.t0.addingTimeInterval(1e6), limit: 10).isEmpty)
        #expect(try await store.enqueue(Self.message("visit-arrival:1"), userID: ada.id, at: Self.t0).isEmpty)
    }

    @Test("a due delivery is taken by one sender until its lease ends, and only the ones asked for", arguments: StoreFactory.all)
    func claims(factory: StoreFactory) async throws {
        let (store, ada, _) = try await LocationStoreConformanceTests.prepared(factory)
        _ = try await store.addChannel(userID: ada.id, kind: .ntfy(url: URL(string: "https://ntfy.example/a")!, token: nil))
        _ = try await store.addChannel(userID: ada.id, kind: .ntfy(url: URL(string: "https://ntfy.example/b")!, token: nil))
        let first = try await store.enqueue(Self.message("visit-arrival:1"), userID: ada.id, at: Self.t0)
        let second = try await store.enqueue(Self.message("visit-arrival:2"), userID: ada.id, at: Self.t0)
        let lease = Self.t0.addingTimeInterval(120)
        // Only the second event's deliveries, oldest first.
        let taken = try await store.claimDueDeliveries(at: Self.t0, leaseUntil: lease, limit: 1, among: Set(second))
        #expect(taken.map(\.id) == [second[0]])
        #expect(taken.first?.nextAttemptAt == lease)
        #expect(taken.first?.message.key == "visit-arrival:2")
        // Another sender gets the rest, never the one taken.
        let rest = try await store.claimDueDeliveries(at: Self.t0, leaseUntil: lease, limit: 10, among: nil)
        #expect(rest.map(\.id) == first + [second[1]])
        #expect(try await store.claimDueDeliveries(at: Self.t0.addingTimeInterval(119), leaseUntil: lease, limit: 10, among: nil).isEmpty)
        #expect(try await store.dueDeliveries(at: Self.t0, limit: 10).isEmpty)
        // An attempt recorded in time settles it; one never recorded is due again when the lease ends.
        try await store.recordAttempt(second[0], delivered: true, result: "HTTP 200", retryAt: nil, at: Self.t0)
        for id in first + [second[1]] {
            try await store.recordAttempt(id, delivered: false, result: "HTTP 503", retryAt: Self.t0.addingTimeInterval(30), at: Self.t0)
        }
        let retried = try await store.claimDueDeliveries(at: Self.t0.addingTimeInterval(30), leaseUntil: lease.addingTimeInterval(30),
                                                         limit: 10, among: nil)
        #expect(retried.map(\.id) == first + [second[1]])
        #expect(retried.allSatisfy { $0.attempts == 1 && $0.lastResult == "HTTP 503" && $0.state == .pending })
        #expect(try await store.claimDueDeliveries(at: lease.addingTimeInterval(29), leaseUntil: lease.addingTimeInterval(200),
                                                   limit: 10, among: nil).isEmpty)
        #expect(try await store.claimDueDeliveries(at: lease.addingTimeInterval(30), leaseUntil: lease.addingTimeInterval(200),
                                                   limit: 10, among: Set(first)).map(\.id) == first)
        #expect(try await store.claimDueDeliveries(at: lease.addingTimeInterval(30), leaseUntil: lease.addingTimeInterval(200),
                                                   limit: 10, among: []).isEmpty)
    }

    @Test("channels belong to their user", arguments: StoreFactory.all)
    func scope(factory: StoreFactory) async throws {
        let (store, ada, _) = try await LocationStoreConformanceTests.prepared(factory)
        let bob = try await store.addUser(named: "bob")
        let channel = try await store.addChannel(userID: ada.id, kind: .ntfy(url: URL(string: "https://ntfy.example/a")!, token: "tk"))
        #expect(try await store.channels(userID: bob.id).isEmpty)
        #expect(try await store.removeChannel(id: channel.id, userID: bob.id) == false)
        #expect(try await store.enqueue(Self.message("k"), userID: bob.id, at: Self.t0).isEmpty)
        #expect(try await store.channels(userID: ada.id).first?.kind == .ntfy(url: URL(string: "https://ntfy.example/a")!, token: "tk"))
        #expect(try await store.removeChannel(id: channel.id, userID: ada.id))
        #expect(try await store.channels(userID: ada.id).isEmpty)
    }

    @Test("the outbox survives a restart: a delivered key is not queued again")
    func acrossRestart() async throws {
        let path = StoreFactory.temporaryDatabasePath()
        let first = try SQLiteLocationStore(path: path)
        let ada = try await first.addUser(named: "ada")
        _ = try await first.addChannel(userID: ada.id, kind: .ntfy(url: URL(string: "https://ntfy.example/a")!, token: nil))
        let queued = try await first.enqueue(Self.message("journal-entry:7"), userID: ada.id, at: Self.t0)
        try await first.recordAttempt(queued[0], delivered: true, result: "HTTP 200", retryAt: nil, at: Self.t0)
        let second = try SQLiteLocationStore(path: path)
        #expect(try await second.enqueue(Self.message("journal-entry:7"), userID: ada.id, at: Self.t0).isEmpty)
        #expect(try await second.deliveries(userID: ada.id, limit: 5).map(\.state) == [.delivered])
    }
}
