import ArgumentParser
import Foundation
import Testing
@testable import TravelogCLI
import TravelogSQLite
import TravelogStore

@Suite("travelog notify")
struct NotifyCommandTests {
    typealias Workspace = ImportExportCommandTests.Workspace

    static func run(_ arguments: [String]) async throws {
        try await ImportExportCommandTests.run(["notify"] + arguments)
    }

    @Test("channels are added, listed and removed per user; a webhook needs a secret and a URL must be http(s)")
    func channels() async throws {
        let workspace = try Workspace()
        let store = try SQLiteLocationStore(path: workspace.database)
        let ada = try await store.addUser(named: "ada")
        let bob = try await store.addUser(named: "bob")
        let db = ["--db", workspace.database]
        try await Self.run(["add", "webhook", "https://hooks.example/travelog", "--secret", "0123456789abcdef", "--user", "ada"] + db)
        try await Self.run(["add", "ntfy", "https://ntfy.example/ada-trips", "--token", "tk_ada", "--user", "ada"] + db)
        try await Self.run(["add", "ntfy", "https://ntfy.example/bob", "--user", "bob"] + db)
        for arguments in [["add", "webhook", "https://hooks.example/h"], ["add", "webhook", "https://hooks.example/h", "--secret", "short"],
                          ["add", "ntfy", "ftp://ntfy.example/t"], ["add", "sms", "https://x.example"]] {
            await #expect(throws: (any Error).self, "\(arguments)") { try await Self.run(arguments + ["--user", "ada"] + db) }
        }
        let channels = try await store.channels(userID: ada.id)
        #expect(channels.map(\.kind) == [.webhook(url: URL(string: "https://hooks.example/travelog")!, secret: "0123456789abcdef"),
                                         .ntfy(url: URL(string: "https://ntfy.example/ada-trips")!, token: "tk_ada")])
        try await Self.run(["list", "--user", "ada"] + db)
        // Bob cannot remove ada's channel; ada can, once.
        await #expect(throws: (any Error).self) { try await Self.run(["remove", String(channels[0].id.rawValue), "--user", "bob"] + db) }
        try await Self.run(["remove", String(channels[0].id.rawValue), "--user", "ada"] + db)
        await #expect(throws: (any Error).self) { try await Self.run(["remove", String(channels[0].id.rawValue), "--user", "ada"] + db) }
        #expect(try await store.channels(userID: ada.id).map(\.id) == [channels[1].id])
        #expect(try await store.channels(userID: bob.id).count == 1)
    }

    @Test("notify test sends to every channel once, now, and the log shows the attempt")
    func testAndLog() async throws {
        let workspace = try Workspace()
        let store = try SQLiteLocationStore(path: workspace.database)
        let ada = try await store.addUser(named: "ada")
        let db = ["--db", workspace.database]
        // Nothing listens on the discard port: the attempt fails and stays pending for the server to retry.
        // A loopback address needs the operator's consent.
        await #expect(throws: (any Error).self) { try await Self.run(["add", "ntfy", "http://127.0.0.1:9/topic"] + db) }
        try await Self.run(["add", "ntfy", "http://127.0.0.1:9/topic", "--allow-private-webhooks"] + db)
        try await Self.run(["test", "--allow-private-webhooks"] + db)
        try await Self.run(["test", "--allow-private-webhooks"] + db)
        let log = try await store.deliveries(userID: ada.id, limit: 10)
        #expect(log.count == 2)
        #expect(log.allSatisfy { $0.message.event == "test" && $0.attempts == 1 && $0.state == .pending })
        #expect(Set(log.map(\.message.key)).count == 2)
        try await Self.run(["log"] + db)
        try await Self.run(["log", "--json"] + db)
    }
}
