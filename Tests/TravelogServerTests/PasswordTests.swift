import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing
@testable import TravelogAccounts
@testable import TravelogServer
import TravelogStore

@Suite("Passwords and sessions")
struct PasswordTests {
    @Test("the delay after wrong passwords grows exponentially per name and per address, up to a cap")
    func throttleStateMachine() {
        var throttle = LoginThrottle()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let ada = LoginThrottle.Key.user("ada")
        for _ in 0..<throttle.freeFailuresPerUser { throttle.failed([ada], at: start) }
        #expect(throttle.waitSeconds([ada], at: start) == 0)
        var delays: [TimeInterval] = []
        for _ in 0..<14 {
            throttle.failed([ada], at: start)
            delays.append(throttle.waitSeconds([ada], at: start))
        }
        #expect(Array(delays.prefix(5)) == [1, 2, 4, 8, 16])
        #expect(delays.last == throttle.maxDelaySeconds)
        #expect(throttle.waitSeconds([ada], at: start.addingTimeInterval(throttle.maxDelaySeconds)) == 0)
        throttle.succeeded(user: "ada")
        #expect(throttle.waitSeconds([ada], at: start) == 0)
        // An address is blocked only after more failures, over any names.
        let address = LoginThrottle.Key.address("203.0.113.7")
        for index in 0..<throttle.freeFailuresPerAddress { throttle.failed([.user("n\(index)"), address], at: start) }
        #expect(throttle.waitSeconds([address], at: start) == 0)
        throttle.failed([.user("another"), address], at: start)
        #expect(throttle.waitSeconds([.user("fresh"), address], at: start) == 1)
        #expect(throttle.waitSeconds([.user("fresh"), .address("198.51.100.1")], at: start) == 0)
    }

    @Test("a name guessed at is refused with 429 and Retry-After, before bcrypt; a device token still posts")
    func throttledOverHTTP() async throws {
        let fixture = try await ServerFixture.make()
        // The first delay an hour rather than a second: on a loaded machine two requests may be a
        // second apart, and the test would then see the delay over.
        fixture.app.accounts.throttle.withLock { $0.baseDelaySeconds = 3600 }
        let point = #"[{"latitude":52.5,"longitude":13.4,"timestamp":"2024-03-01T09:00:00Z"}]"#
        try await fixture.test { client in
            // Five wrong passwords are free; the sixth sets a delay, which the next ones meet.
            for attempt in 0..<8 {
                try await client.execute(uri: "/api/v1/devices", method: .get, headers: Auth.basic("ada", "guess-\(attempt)")) { response in
                    #expect(response.status == (attempt < 6 ? .unauthorized : .tooManyRequests), "attempt \(attempt)")
                    if attempt >= 6 { #expect(response.headers[.retryAfter] != nil) }
                }
            }
            let checks = fixture.app.accounts.passwordChecks.load(ordering: .relaxed)
            try await client.execute(uri: "/api/v1/session", method: .post, headers: [.contentType: "application/json"],
                                     body: ByteBuffer(#"{"user":"ada","password":"\#(ServerFixture.adaPassword)"}"#)) {
                #expect($0.status == .tooManyRequests)
            }
            #expect(fixture.app.accounts.passwordChecks.load(ordering: .relaxed) == checks)
            try await client.execute(uri: "/api/v1/locations", method: .post, headers: Auth.bearer(fixture.adaToken),
                                     body: ByteBuffer(point)) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/v1/devices", method: .get, headers: Auth.basic("bob", ServerFixture.bobPassword)) {
                #expect($0.status == .ok)
            }
        }
    }

    @Test("serve --login-failures-per-address sets how many wrong passwords an address has before its delay")
    func failuresPerAddress() async throws {
        for allowed in [3, 40] {
            let accounts = AccountService(store: InMemoryLocationStore(), bcryptCost: 4, loginFailuresPerAddress: allowed)
            accounts.throttle.withLock { $0.baseDelaySeconds = 600 }
            // Different names each time: only the address's count grows.
            for attempt in 0..<allowed { #expect(try await accounts.user(named: "n\(attempt)", password: "wrong-one", from: "203.0.113.7") == nil) }
            do {
                _ = try await accounts.user(named: "n\(allowed)", password: "wrong-one", from: "203.0.113.7")
                _ = try await accounts.user(named: "fresh", password: "wrong-one", from: "203.0.113.7")
                Issue.record("\(allowed): not throttled after \(allowed + 1) wrong passwords from one address")
            } catch {
                #expect(error == .throttled(retryAfterSeconds: 600), "\(allowed)")
            }
        }
    }

    @Test("an unknown name, a name without a password and a wrong password all cost one bcrypt check")
    func equalWork() async throws {
        let fixture = try await ServerFixture.make()
        let accounts = fixture.app.accounts
        _ = try await fixture.app.store.addUser(named: "importer")       // made by `travelog import`: no password
        for (name, password) in [("nobody", "whatever-1"), ("importer", "whatever-2"), ("ada", "whatever-3")] {
            let before = accounts.passwordChecks.load(ordering: .relaxed)
            #expect(try await accounts.user(named: name, password: password) == nil)
            #expect(accounts.passwordChecks.load(ordering: .relaxed) == before + 1, "\(name)")
        }
    }

    @Test("a password change ends every session and the old password at once, also when made by another process")
    func passwordChangeRevokes() async throws {
        let fixture = try await ServerFixture.make()
        let accounts = fixture.app.accounts
        // Checked once: remembered for a few minutes, which a change must cut short.
        #expect(try await accounts.user(named: "ada", password: ServerFixture.adaPassword)?.id == fixture.ada.id)
        let first = try await accounts.startSession(userID: fixture.ada.id)
        let second = try await accounts.startSession(userID: fixture.ada.id)
        let bobs = try await accounts.startSession(userID: fixture.bob.id)
        let listed = try await accounts.sessions(userID: fixture.ada.id, current: first)
        #expect(listed.count == 2)
        #expect(listed.filter(\.current).count == 1)
        // `travelog user passwd` runs in its own process: its own AccountService on the same database.
        let cli = AccountService(store: fixture.app.store, bcryptCost: 4)
        try await cli.setPassword("a-new-password", userID: fixture.ada.id)
        #expect(try await accounts.user(session: first) == nil)
        #expect(try await accounts.user(session: second) == nil)
        #expect(try await accounts.user(session: bobs)?.id == fixture.bob.id)
        #expect(try await accounts.user(named: "ada", password: ServerFixture.adaPassword) == nil)
        #expect(try await accounts.user(named: "ada", password: "a-new-password")?.id == fixture.ada.id)
    }

    @Test("a person lists their sessions and ends one by the API; another user's id is a 404")
    func sessionsAPI() async throws {
        let fixture = try await ServerFixture.make()
        let accounts = fixture.app.accounts
        let other = try await accounts.startSession(userID: fixture.ada.id)
        let bobs = try await accounts.startSession(userID: fixture.bob.id)
        let ada = Auth.basic("ada", ServerFixture.adaPassword)
        try await fixture.test { client in
            let ids = try await client.execute(uri: "/api/v1/sessions", method: .get, headers: ada) { response in
                #expect(response.status == .ok)
                return try #require(response.body.json as? [[String: Any]]).compactMap { $0["id"] as? String }
            }
            #expect(ids.count == 1)
            let bobID = try await accounts.sessions(userID: fixture.bob.id).map(\.id)
            try await client.execute(uri: "/api/v1/sessions/\(bobID[0])", method: .delete, headers: ada) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/api/v1/sessions", method: .get, headers: Auth.bearer(fixture.adaToken)) {
                #expect($0.status == .forbidden)
            }
            try await client.execute(uri: "/api/v1/sessions/\(ids[0])", method: .delete, headers: ada) { #expect($0.status == .noContent) }
        }
        #expect(try await accounts.user(session: other) == nil)
        #expect(try await accounts.user(session: bobs)?.id == fixture.bob.id)
    }
}
