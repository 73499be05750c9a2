import ArgumentParser
import Foundation
import TravelogServer
import TravelogStore

struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Manage the people who log in.",
        subcommands: [Add.self, Password.self, List.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a user with a password (asked twice, or read from standard input).")

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The login name.") var name: String
        @Flag(help: "Read the password from the first line of standard input.") var passwordStdin = false

        func run() async throws {
            let store = try storeOptions.openStore()
            let password = passwordStdin ? try PasswordPrompt.fromStandardInput() : try PasswordPrompt.ask(for: name)
            let accounts = AccountService(store: store)
            if let existing = try await store.user(named: name), try await store.passwordHash(userID: existing.id) == nil {
                // A user the command line created for imports, now given a login.
                try await accounts.setPassword(password, userID: existing.id)
            } else {
                _ = try await accounts.addUser(named: name, password: password)
            }
            print("user \(name) can now log in")
        }
    }

    struct Password: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "passwd", abstract: "Change a user's password.")

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The login name.") var name: String
        @Flag(help: "Read the password from the first line of standard input.") var passwordStdin = false

        func run() async throws {
            let store = try storeOptions.openStore()
            guard let user = try await store.user(named: name) else { throw CLIError.noSuchUser(name) }
            let password = passwordStdin ? try PasswordPrompt.fromStandardInput() : try PasswordPrompt.ask(for: name)
            try await AccountService(store: store).setPassword(password, userID: user.id)
            print("password of \(name) changed")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the users.")

        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            let store = try storeOptions.openStore()
            for user in try await store.users() {
                let login = try await store.passwordHash(userID: user.id) != nil ? "can log in" : "no password"
                print("\(user.name)\t\(login)")
            }
        }
    }
}
