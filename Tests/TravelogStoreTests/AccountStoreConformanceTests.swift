import Foundation
import Testing
import TravelogStore

/// The contract of `AccountStore` (users, devices, credentials): every backend passes every test here.
@Suite("AccountStore conformance")
struct AccountStoreConformanceTests {
    @Test("user names are unique and validated", arguments: StoreFactory.all)
    func userNames(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let ada = try await store.addUser(named: "ada")
        await #expect(throws: StoreError.userExists(name: "ada")) { try await store.addUser(named: "ada") }
        await #expect(throws: StoreError.invalidName("  ")) { try await store.addUser(named: "  ") }
        #expect(try await store.user(named: "ada") == ada)
        #expect(try await store.user(id: ada.id)?.name == "ada")
        #expect(try await store.user(named: "bob") == nil)
        #expect(try await store.users().map(\.name) == ["ada"])
    }

    @Test("device names are unique per user, and a device needs a user", arguments: StoreFactory.all)
    func deviceNames(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await LocationStoreConformanceTests.prepared(factory)
        let bob = try await store.addUser(named: "bob")
        _ = try await store.addDevice(named: "phone", userID: bob.id)  // same name, other user: fine
        await #expect(throws: StoreError.deviceExists(name: "phone")) {
            try await store.addDevice(named: "phone", userID: ada.id)
        }
        await #expect(throws: StoreError.unknownUser(UserID(rawValue: 999_999))) {
            try await store.addDevice(named: "watch", userID: UserID(rawValue: 999_999))
        }
        #expect(try await store.device(named: "phone", userID: ada.id) == phone)
        #expect(try await store.device(id: phone.id) == phone)
        #expect(try await store.devices(userID: ada.id) == [phone])
    }

    @Test("a password hash is kept per user and can be replaced", arguments: StoreFactory.all)
    func passwordHashes(factory: StoreFactory) async throws {
        let (store, ada, _) = try await LocationStoreConformanceTests.prepared(factory)
        let bob = try await store.addUser(named: "bob")
        #expect(try await store.passwordHash(userID: ada.id) == nil)
        try await store.setPasswordHash("$2b$04$first", userID: ada.id)
        try await store.setPasswordHash("$2b$04$second", userID: ada.id)
        #expect(try await store.passwordHash(userID: ada.id) == "$2b$04$second")
        #expect(try await store.passwordHash(userID: bob.id) == nil)
        await #expect(throws: StoreError.unknownUser(UserID(rawValue: 999_999))) {
            try await store.setPasswordHash("x", userID: UserID(rawValue: 999_999))
        }
    }

    @Test("a token digest finds its device; a new token replaces the old one", arguments: StoreFactory.all)
    func tokens(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await LocationStoreConformanceTests.prepared(factory)
        let watch = try await store.addDevice(named: "watch", userID: ada.id)
        let first = SecretDigest(rawValue: String(repeating: "a", count: 64))
        let second = SecretDigest(rawValue: String(repeating: "b", count: 64))
        try await store.setTokenDigest(first, deviceID: phone.id)
        #expect(try await store.device(tokenDigest: first)?.id == phone.id)
        try await store.setTokenDigest(second, deviceID: phone.id)
        #expect(try await store.device(tokenDigest: first) == nil)
        #expect(try await store.device(tokenDigest: second)?.id == phone.id)
        #expect(try await store.device(tokenDigest: SecretDigest(rawValue: "c")) == nil)
        // The device with its user, read together (every token-authenticated request): the same rows.
        let holder = try #require(try await store.tokenHolder(tokenDigest: second))
        #expect(holder.device == (try await store.device(tokenDigest: second)))
        #expect(holder.user == (try await store.user(id: ada.id)))
        #expect(try await store.tokenHolder(tokenDigest: first) == nil)
        let bob = try await store.addUser(named: "bob")
        _ = try await store.setAdministrator(true, userID: bob.id)
        _ = try await store.setDisabled(true, userID: ada.id)
        #expect(try await store.tokenHolder(tokenDigest: second)?.user.isDisabled == true, "the caller decides what a disabled user may do")
        #expect(try await store.device(id: watch.id)?.app == nil)
        await #expect(throws: StoreError.unknownDevice(DeviceID(rawValue: 999_999))) {
            try await store.setTokenDigest(first, deviceID: DeviceID(rawValue: 999_999))
        }
    }

    @Test("a device remembers its app", arguments: StoreFactory.all)
    func apps(factory: StoreFactory) async throws {
        let (store, ada, phone) = try await LocationStoreConformanceTests.prepared(factory)
        try await store.setApp(.traccar, deviceID: phone.id)
        #expect(try await store.device(id: phone.id)?.app == .traccar)
        #expect(try await store.devices(userID: ada.id).first?.app == .traccar)
        try await store.setApp(nil, deviceID: phone.id)
        #expect(try await store.device(named: "phone", userID: ada.id)?.app == nil)
    }

    @Test("sessions are found by digest until deleted", arguments: StoreFactory.all)
    func sessions(factory: StoreFactory) async throws {
        let (store, ada, _) = try await LocationStoreConformanceTests.prepared(factory)
        let digest = SecretDigest(rawValue: String(repeating: "d", count: 64))
        let record = SessionRecord(userID: ada.id, expiresAt: Date(timeIntervalSince1970: 1_800_000_000))
        try await store.addSession(digest: digest, record)
        #expect(try await store.session(digest: digest) == record)
        #expect(try await store.session(digest: digest)?.startedAt == nil, "a session from before its start was kept")
        // A session's sign-in time is kept to the millisecond, and read the same way by both reads.
        let started = SecretDigest(rawValue: String(repeating: "e", count: 64))
        let signedIn = SessionRecord(userID: ada.id, expiresAt: Date(timeIntervalSince1970: 1_800_000_000),
                                     startedAt: Date(timeIntervalSince1970: 1_797_408_000.123))
        try await store.addSession(digest: started, signedIn)
        #expect(try await store.session(digest: started) == signedIn)
        #expect(try await store.sessions(userID: ada.id).map(\.record) == [record, signedIn])
        try await store.deleteSession(digest: digest)
        #expect(try await store.session(digest: digest) == nil)
        await #expect(throws: StoreError.unknownUser(UserID(rawValue: 999_999))) {
            try await store.addSession(digest: digest, SessionRecord(userID: UserID(rawValue: 999_999), expiresAt: Date()))
        }
    }
}
