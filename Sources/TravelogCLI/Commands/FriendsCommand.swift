import ArgumentParser
import Foundation
import TravelogAccounts
import TravelogFormats
import TravelogServer
import TravelogStore

/// `travelog friends`: friends on the same server. Once both agreed, each sees the other's latest
/// position on the page and in OwnTracks, and the other's history only where granted.
struct FriendsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "friends",
        abstract: "Friends: invite another user of this server; once accepted, each sees the other's latest position.",
        discussion: """
        History is shared per direction, off until granted (grant-history). Privacy zones apply to what a friend sees. \
        Either side ends a friendship at any time (remove); it applies at the next request. The same at /api/v1/friends \
        and on the page (Settings → Friends).
        """,
        subcommands: [Invite.self, List.self, Accept.self, Decline.self, Remove.self, GrantHistory.self],
        defaultSubcommand: List.self)

    struct Invite: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Invite a user by name (accepts their invitation when they invited you first).")
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @Argument(help: "The other user's name.") var name: String

        func run() async throws {
            let (friends, user) = try await FriendsCommand.open(storeOptions, account)
            let entry = try await friends.invite(name, userID: user.id)
            print(entry.state == .friend ? "\(TerminalText.escaped(entry.friend.name)) had invited you: you are friends now"
                                         : "invited \(TerminalText.escaped(entry.friend.name)); they see it in `travelog friends list`")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List friends and invitations, sent and received (the default).")
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @Flag(help: "Print JSON, as GET /api/v1/friends answers.") var json = false

        func run() async throws {
            let (friends, user) = try await FriendsCommand.open(storeOptions, account)
            let entries = try await friends.list(userID: user.id)
            if json { return print(try RegionsOutput.json(entries.map(FriendJSON.init))) }
            guard !entries.isEmpty else { return print("No friends yet: invite someone with `travelog friends invite NAME`.") }
            for entry in entries {
                let name = TerminalText.escaped(entry.friend.name)
                switch entry.state {
                case .friend:
                    let mine = entry.sharesMyHistory ? "you share your history" : "you share your position"
                    let theirs = entry.sharesTheirHistory ? "they share their history" : "they share their position"
                    print("\(name)\tfriend\t\(mine); \(theirs)")
                case .invitationSent:
                    print("\(name)\tinvited by you, waiting")
                case .invitationReceived:
                    print("\(name)\tinvites you: `travelog friends accept \(name)` or `decline \(name)`")
                }
            }
        }
    }

    struct Accept: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Accept a user's invitation.")
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @Argument(help: "The name of the user who invited you.") var name: String

        func run() async throws {
            let (friends, user) = try await FriendsCommand.open(storeOptions, account)
            let entry = try await friends.accept(name, userID: user.id)
            print("you and \(TerminalText.escaped(entry.friend.name)) are friends: each sees the other's latest position")
        }
    }

    struct Decline: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Decline a user's invitation (nothing is kept of it).")
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @Argument(help: "The name of the user who invited you.") var name: String

        func run() async throws {
            let (friends, user) = try await FriendsCommand.open(storeOptions, account)
            try await friends.decline(name, userID: user.id)
            print("declined the invitation of \(TerminalText.escaped(name))")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "End a friendship, or withdraw an invitation: neither sees the other from the next request on.")
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @Argument(help: "The friend's name.") var name: String

        func run() async throws {
            let (friends, user) = try await FriendsCommand.open(storeOptions, account)
            try await friends.remove(name, userID: user.id)
            print("\(TerminalText.escaped(name)) is no longer your friend")
        }
    }

    struct GrantHistory: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "grant-history",
            abstract: "Let a friend read your history (their page shows your path), or stop it with --off.")
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var account: AccountOptions
        @Argument(help: "The friend's name.") var name: String
        @Flag(help: "Stop sharing your history with this friend.") var off = false

        func run() async throws {
            let (friends, user) = try await FriendsCommand.open(storeOptions, account)
            let entry = try await friends.shareHistory(!off, with: name, userID: user.id)
            let friend = TerminalText.escaped(entry.friend.name)
            print(entry.sharesMyHistory ? "\(friend) may read your history" : "\(friend) sees only your latest position")
        }
    }

    static func open(_ storeOptions: StoreOptions, _ account: AccountOptions) async throws -> (Friends, User) {
        let store = try await storeOptions.openStore()
        let user = try await account.resolveUser(in: store, createIfEmpty: false)
        return (Friends(store: store), user)
    }
}
