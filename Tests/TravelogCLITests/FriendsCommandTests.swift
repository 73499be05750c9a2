import ArgumentParser
import Foundation
import Testing
@testable import TravelogCLI
import TravelogSQLite
import TravelogStore

@Suite("travelog friends")
struct FriendsCommandTests {
    typealias Workspace = ImportExportCommandTests.Workspace

    static func run(_ arguments: [String]) async throws {
        try await ImportExportCommandTests.run(arguments)
    }

    @Test("invite, accept, grant-history (and --off), remove, decline; each mistake is an error and changes nothing")
    func inviteToRemove() async throws {
        let workspace = try Workspace()
        let store = try SQLiteLocationStore(path: workspace.database)
        let ada = try await store.addUser(named: "ada"), bob = try await store.addUser(named: "bob")
        _ = try await store.addUser(named: "eve")
        let db = ["--db", workspace.database]
        try await Self.run(["friends", "invite", "bob", "--user", "ada"] + db)
        for arguments in [["friends", "invite", "bob", "--user", "ada"], ["friends", "invite", "ada", "--user", "ada"],
                          ["friends", "invite", "nobody", "--user", "ada"], ["friends", "accept", "bob", "--user", "ada"],
                          ["friends", "grant-history", "ada", "--user", "bob"], ["friends", "decline", "eve", "--user", "bob"]] {
            await #expect(throws: (any Error).self, "\(arguments)") { try await Self.run(arguments + db) }
        }
        try await Self.run(["friends", "accept", "ada", "--user", "bob"] + db)
        try await Self.run(["friends", "grant-history", "ada", "--user", "bob"] + db)
        var friendship = try #require(try await store.friendships(userID: ada.id).first)
        #expect(friendship.isAccepted && friendship.sharesHistory(by: bob.id) && !friendship.sharesHistory(by: ada.id))
        try await Self.run(["friends", "grant-history", "ada", "--user", "bob", "--off"] + db)
        friendship = try #require(try await store.friendships(userID: ada.id).first)
        #expect(!friendship.sharesHistory(by: bob.id))
        try await Self.run(["friends", "list", "--user", "ada", "--json"] + db)
        try await Self.run(["friends", "remove", "bob", "--user", "ada"] + db)
        #expect(try await store.friendships(userID: bob.id).isEmpty)
        try await Self.run(["friends", "invite", "ada", "--user", "eve"] + db)
        try await Self.run(["friends", "decline", "eve", "--user", "ada"] + db)
        #expect(try await store.friendships(userID: ada.id).isEmpty)
    }
}
