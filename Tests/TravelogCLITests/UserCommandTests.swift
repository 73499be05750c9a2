import ArgumentParser
import Foundation
import Testing
@testable import TravelogCLI
import TravelogAccounts
import TravelogSQLite
import TravelogStore

@Suite("travelog user")
struct UserCommandTests {
    typealias Workspace = ImportExportCommandTests.Workspace

    static func run(_ arguments: [String]) async throws {
        try await ImportExportCommandTests.run(["user"] + arguments)
    }

    @Test("disable, enable, admin and delete change the user; the last administrator is kept; list shows the flags")
    func administration() async throws {
        let workspace = try Workspace()
        let store = try SQLiteLocationStore(path: workspace.database)
        let ada = try await store.addUser(named: "ada")
        let bob = try await store.addUser(named: "bob")
        let phone = try await store.addDevice(named: "phone", userID: bob.id)
        let db = ["--db", workspace.database]
        try await Self.run(["disable", "bob"] + db)
        #expect(try await store.user(id: bob.id)?.isDisabled == true)
        #expect(UserCommand.List.flags(of: try #require(try await store.user(id: bob.id))) == ["disabled"])
        #expect(UserCommand.List.flags(of: try #require(try await store.user(id: ada.id))) == ["administrator"])
        try await Self.run(["list"] + db)
        try await Self.run(["enable", "bob"] + db)
        #expect(try await store.user(id: bob.id)?.isDisabled == false)
        // The last administrator stays one, enabled.
        await #expect(throws: (any Error).self) { try await Self.run(["admin", "--revoke", "ada"] + db) }
        await #expect(throws: (any Error).self) { try await Self.run(["disable", "ada"] + db) }
        await #expect(throws: (any Error).self) { try await Self.run(["delete", "ada", "--yes"] + db) }
        try await Self.run(["admin", "bob"] + db)
        try await Self.run(["admin", "--revoke", "ada"] + db)
        #expect(try await store.users().map { "\($0.name) \($0.isAdministrator)" } == ["ada false", "bob true"])
        // Deleting asks for the name again: without a terminal it takes --yes.
        await #expect(throws: (any Error).self) { try await Self.run(["delete", "ada"] + db) }
        await #expect(throws: (any Error).self) { try await Self.run(["disable", "nobody"] + db) }
        try await Self.run(["delete", "ada", "--yes"] + db)
        #expect(try await store.users().map(\.name) == ["bob"])
        #expect(try await store.device(id: phone.id) != nil, "bob's devices are kept")
    }

    @Test("2fa enable makes a secret that waits, --confirm turns it on with a code of the app, disable turns it off")
    func twoFactor() async throws {
        let workspace = try Workspace()
        let store = try SQLiteLocationStore(path: workspace.database)
        let ada = try await store.addUser(named: "ada")
        let db = ["--db", workspace.database]
        await #expect(throws: (any Error).self) { try await Self.run(["2fa", "enable", "ada", "--confirm", "123456"] + db) }
        // Without a terminal the secret waits for a second call.
        try await Self.run(["2fa", "enable", "ada", "--json"] + db)
        let waiting = try #require(try await store.twoFactor(userID: ada.id))
        #expect(!waiting.isEnabled && waiting.secret.count == 32)
        #expect(try await store.recoveryCodeCount(userID: ada.id) == 10)
        let totp = TOTP(secret: try #require(Base32.decode(waiting.secret)))
        let code = totp.code(step: totp.step(at: Date()))
        await #expect(throws: (any Error).self) {
            try await Self.run(["2fa", "enable", "ada", "--confirm", code == "000000" ? "111111" : "000000"] + db)
        }
        try await Self.run(["2fa", "enable", "ada", "--confirm", code] + db)
        #expect(try await store.twoFactor(userID: ada.id)?.isEnabled == true)
        #expect(try await AccountService(store: store).isTwoFactorEnabled(userID: ada.id))
        // On: a new secret takes turning it off first.
        await #expect(throws: (any Error).self) { try await Self.run(["2fa", "enable", "ada"] + db) }
        try await Self.run(["list"] + db)
        try await Self.run(["2fa", "disable", "ada"] + db)
        #expect(try await store.twoFactor(userID: ada.id) == nil)
        await #expect(throws: (any Error).self) { try await Self.run(["2fa", "disable", "nobody"] + db) }
    }
}
