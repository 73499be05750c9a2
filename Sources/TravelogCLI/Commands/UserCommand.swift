import ArgumentParser
import Foundation
import TravelogFormats
import TravelogAccounts
import TravelogStore

struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Manage the people who log in.",
        subcommands: [Add.self, Password.self, List.self, Sessions.self, Disable.self, Enable.self, Admin.self, Delete.self,
                      TwoFactor.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a user with a password (asked twice, or read from standard input).")

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The login name.") var name: String
        @Flag(help: "Read the password from the first line of standard input.") var passwordStdin = false

        func run() async throws {
            let store = try await storeOptions.openStore()
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
            let store = try await storeOptions.openStore()
            guard let user = try await store.user(named: name) else { throw CLIError.noSuchUser(name) }
            let password = passwordStdin ? try PasswordPrompt.fromStandardInput() : try PasswordPrompt.ask(for: name)
            try await AccountService(store: store).setPassword(password, userID: user.id)
            print("password of \(name) changed; every login of \(name) ended")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the users.")

        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            let store = try await storeOptions.openStore()
            let accounts = AccountService(store: store)
            for user in try await store.users() {
                let login = try await store.passwordHash(userID: user.id) != nil ? "can log in" : "no password"
                let twoFactor = try await accounts.isTwoFactorEnabled(userID: user.id) ? "2fa on" : "2fa off"
                print(([user.name, login, twoFactor] + Self.flags(of: user)).joined(separator: "\t"))
            }
        }

        /// The words after a user's name that say what the user is.
        static func flags(of user: User) -> [String] {
            (user.isAdministrator ? ["administrator"] : []) + (user.isDisabled ? ["disabled"] : [])
        }
    }

    struct Sessions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List a user's logins (page sessions), or end one or all of them.")

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The login name.") var name: String
        @Option(help: "End the session with this id (as listed).") var end: String?
        @Flag(help: "End every session of the user.") var endAll = false

        func validate() throws {
            if end != nil, endAll { throw ValidationError("--end and --end-all: give one") }
        }

        func run() async throws {
            let store = try await storeOptions.openStore()
            guard let user = try await store.user(named: name) else { throw CLIError.noSuchUser(name) }
            let accounts = AccountService(store: store)
            if endAll {
                print("\(try await accounts.endSessions(userID: user.id)) sessions of \(name) ended")
            } else if let end {
                guard try await accounts.endSession(id: end, userID: user.id) else { throw ValidationError("no session \(end) of \(name)") }
                print("session \(end) ended")
            } else {
                for session in try await accounts.sessions(userID: user.id) {
                    print("\(session.id)\texpires \(ISO8601TimeFormatter.string(session.expiresAt))")
                }
            }
        }
    }
}
