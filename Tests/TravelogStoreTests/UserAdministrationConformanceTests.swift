import Foundation
import Testing
import TravelogCore
@testable import TravelogSQLite
import TravelogStore

/// Administrators and disabled users (`AccountStore`'s administration): every backend passes every test here.
@Suite("User administration conformance")
struct UserAdministrationConformanceTests {
    @Test("the first user of a store is its administrator, the next ones are not", arguments: StoreFactory.all)
    func firstUserIsAdministrator(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let ada = try await store.addUser(named: "ada")
        let bob = try await store.addUser(named: "bob")
        #expect(ada.isAdministrator && !ada.isDisabled)
        #expect(!bob.isAdministrator && !bob.isDisabled)
        #expect(try await store.user(id: ada.id)?.isAdministrator == true)
        #expect(try await store.user(named: "bob")?.isAdministrator == false)
        #expect(try await store.users().map(\.isAdministrator) == [true, false])
    }

    @Test("of users added at once to an empty store, exactly one is the administrator", arguments: StoreFactory.all)
    func concurrentFirstUsers(factory: StoreFactory) async throws {
        let store = try await factory.make()
        try await withThrowingTaskGroup(of: User.self) { group in
            for index in 0..<8 { group.addTask { try await store.addUser(named: "user\(index)") } }
            var administrators = 0
            for try await user in group where user.isAdministrator { administrators += 1 }
            #expect(administrators == 1)
        }
        #expect(try await store.users().filter(\.isAdministrator).count == 1)
    }

    @Test("the last enabled administrator cannot be demoted, disabled or deleted", arguments: StoreFactory.all)
    func lastAdministrator(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let ada = try await store.addUser(named: "ada")
        let bob = try await store.addUser(named: "bob")
        await #expect(throws: StoreError.lastAdministrator(ada.id)) { try await store.setAdministrator(false, userID: ada.id) }
        await #expect(throws: StoreError.lastAdministrator(ada.id)) { try await store.setDisabled(true, userID: ada.id) }
        await #expect(throws: StoreError.lastAdministrator(ada.id)) { try await store.deleteUser(id: ada.id) }
        #expect(try await store.user(id: ada.id) == ada, "nothing changed")
        // A second administrator, disabled, does not count; enabled, it does.
        #expect(try await store.setAdministrator(true, userID: bob.id).isAdministrator)
        #expect(try await store.setDisabled(true, userID: bob.id).isDisabled)
        await #expect(throws: StoreError.lastAdministrator(ada.id)) { try await store.setDisabled(true, userID: ada.id) }
        #expect(try await store.setDisabled(false, userID: bob.id).isDisabled == false)
        let demoted = try await store.setAdministrator(false, userID: ada.id)
        #expect(!demoted.isAdministrator)
        #expect(try await store.user(id: ada.id) == demoted)
        await #expect(throws: StoreError.lastAdministrator(bob.id)) { try await store.deleteUser(id: bob.id) }
        // A user who is not an administrator may always be disabled and deleted.
        #expect(try await store.setDisabled(true, userID: ada.id).isDisabled)
        #expect(try await store.user(named: "ada")?.isDisabled == true)
        try await store.deleteUser(id: ada.id)
        #expect(try await store.users().map(\.name) == ["bob"])
    }

    @Test("an unknown user is said so", arguments: StoreFactory.all)
    func unknownUser(factory: StoreFactory) async throws {
        let store = try await factory.make()
        _ = try await store.addUser(named: "ada")
        let nobody = UserID(rawValue: 999_999)
        await #expect(throws: StoreError.unknownUser(nobody)) { try await store.setAdministrator(true, userID: nobody) }
        await #expect(throws: StoreError.unknownUser(nobody)) { try await store.setDisabled(true, userID: nobody) }
        await #expect(throws: StoreError.unknownUser(nobody)) { try await store.deleteUser(id: nobody) }
    }

    @Test("deleting a user removes everything theirs and nothing of anyone else", arguments: StoreFactory.all)
    func deleteRemovesEverything(factory: StoreFactory) async throws {
        let store = try await factory.make()
        let ada = try await store.addUser(named: "ada")
        let bob = try await store.addUser(named: "bob")
        var phones: [UserID: Device] = [:]
        for user in [ada, bob] {
            let phone = try await store.addDevice(named: "phone", userID: user.id)
            phones[user.id] = phone
            try await store.setTokenDigest(SecretDigest(rawValue: String(repeating: user == ada ? "a" : "b", count: 64)), deviceID: phone.id)
            try await store.addSession(digest: SecretDigest(rawValue: String(repeating: user == ada ? "c" : "d", count: 64)),
                                       SessionRecord(userID: user.id, expiresAt: Date().addingTimeInterval(3600)))
            _ = try await store.insert((0..<5).map {
                StoredLocation(deviceID: phone.id, location: LocationStoreConformanceTests.fix(52.5, 13.4, secondsAfter: Double($0)), source: .api)
            })
            _ = try await store.addChannel(userID: user.id, kind: .ntfy(url: URL(string: "https://ntfy.example/\(user.name)")!, token: nil))
            _ = try await store.quarantine([QuarantineStoreConformanceTests.item(user.id, "x", device: phone.id)])
            if let regions = store as? any RegionStore {
                _ = try await regions.addRegion(RegionStoreConformanceTests.home(), userID: user.id, at: Date())
            }
        }
        let bobPhone = try #require(phones[bob.id])
        try await store.deleteUser(id: bob.id)
        #expect(try await store.user(id: bob.id) == nil)
        #expect(try await store.device(id: bobPhone.id) == nil)
        #expect(try await store.device(tokenDigest: SecretDigest(rawValue: String(repeating: "b", count: 64))) == nil)
        #expect(try await store.session(digest: SecretDigest(rawValue: String(repeating: "d", count: 64))) == nil)
        #expect(try await store.locations(LocationQuery(userID: bob.id)).isEmpty)
        #expect(try await store.channels(userID: bob.id).isEmpty)
        #expect(try await store.rejectedItemCount(userID: bob.id) == 0)
        // Ada's are all there.
        #expect(try await store.locations(LocationQuery(userID: ada.id)).count == 5)
        #expect(try await store.device(tokenDigest: SecretDigest(rawValue: String(repeating: "a", count: 64)))?.userID == ada.id)
        #expect(try await store.channels(userID: ada.id).count == 1)
        #expect(try await store.rejectedItemCount(userID: ada.id) == 1)
        if let regions = store as? any RegionStore {
            #expect(try await regions.regions(userID: ada.id).count == 1)
            #expect(try await regions.regions(userID: bob.id).isEmpty)
        }
        // The same name can be added again, as a new user with nothing.
        let again = try await store.addUser(named: "bob")
        #expect(!again.isAdministrator)
        #expect(try await store.devices(userID: again.id).isEmpty)
    }

    @Test("SQLite: the migration makes the oldest user of an existing database its administrator")
    func sqliteMigrationMakesOldestAdministrator() async throws {
        let path = StoreFactory.temporaryDatabasePath()
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // A database of the version before: its migrations only, and two users.
        let connection = try SQLiteConnection(path: path, readOnly: false)
        try connection.execute("CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        for migration in SQLiteMigrations.all.prefix(while: { $0.identifier != "009_user_administrator_disabled" }) {
            // One statement at a time (the migrations hold no trigger: no `;` inside a statement).
            for statement in migration.sql.components(separatedBy: ";\n")
            where statement.split(separator: "\n").contains(where: { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("--") && !$0.allSatisfy(\.isWhitespace) }) {
                try connection.execute(statement)
            }
            try connection.execute("INSERT INTO grdb_migrations (identifier) VALUES ('\(migration.identifier)')")
        }
        try connection.execute("INSERT INTO users (id, name, created_at_ms) VALUES (7, 'zoe', 0), (9, 'ada', 0)")
        connection.close()
        let upgraded = try SQLiteLocationStore(path: path)
        #expect(upgraded.upgrade?.applied.contains("009_user_administrator_disabled") == true)
        let users = try await upgraded.users()
        #expect(users.map(\.name) == ["ada", "zoe"])
        #expect(users.map(\.isAdministrator) == [false, true], "zoe was added first")
        #expect(users.allSatisfy { !$0.isDisabled })
    }
}
