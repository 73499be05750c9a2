import ArgumentParser
import Foundation
import TravelogAccounts
import TravelogPhotos
import TravelogPostgres
import TravelogSQLite
import TravelogServer
import TravelogStore
#if canImport(Glibc)
import Glibc
#endif

extension UserCommand {
    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Disable a user: no login, their device tokens refused, their logins ended; their history is kept.")

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The login name.") var name: String

        func run() async throws {
            let store = try await storeOptions.openStore()
            guard let user = try await store.user(named: name) else { throw CLIError.noSuchUser(name) }
            _ = try await AccountService(store: store).setDisabled(true, userID: user.id)
            print("user \(name) disabled: cannot log in, device tokens refused (history kept; `travelog user enable \(name)` undoes it)")
        }
    }

    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Enable a disabled user again.")

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The login name.") var name: String

        func run() async throws {
            let store = try await storeOptions.openStore()
            guard let user = try await store.user(named: name) else { throw CLIError.noSuchUser(name) }
            _ = try await AccountService(store: store).setDisabled(false, userID: user.id)
            print("user \(name) enabled")
        }
    }

    struct Admin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a user an administrator (manages every user on the page), or no longer one with --revoke.")

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The login name.") var name: String
        @Flag(help: "Take the administrator's rights away (never from the last enabled administrator).") var revoke = false

        func run() async throws {
            let store = try await storeOptions.openStore()
            guard let user = try await store.user(named: name) else { throw CLIError.noSuchUser(name) }
            _ = try await AccountService(store: store).setAdministrator(!revoke, userID: user.id)
            print(revoke ? "user \(name) is no longer an administrator" : "user \(name) is an administrator")
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a user and everything theirs: every row in every table, their saved map index, uploaded photos and thumbnails.")

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The login name.") var name: String
        @Flag(help: "Do not ask for the name again (for scripts).") var yes = false

        func run() async throws {
            let store = try await storeOptions.openStore()
            guard let user = try await store.user(named: name) else { throw CLIError.noSuchUser(name) }
            if !yes {
                guard isatty(STDIN_FILENO) == 1 else {
                    throw ValidationError("deleting \(name) removes all of their history: add --yes to confirm without a terminal")
                }
                FileHandle.standardError.write(Data("This deletes \(name) and all of their history. Type the name again to confirm: ".utf8))
                guard readLine(strippingNewline: true) == name else { throw ValidationError("the name did not match: nothing deleted") }
            }
            // A server running on this SQLite database keeps the user's map in memory until it restarts (and
            // SQLite may give the next new user the same id): say so. While none runs, none starts meanwhile.
            var hold: SQLiteServerLock?
            if !PostgresConnectionURL.isPostgresURL(storeOptions.databasePath) {
                do {
                    hold = try SQLiteServerLock.exclusive(database: storeOptions.databasePath)
                } catch {
                    FileHandle.standardError.write(Data("""
                        note: a server runs on this database: it keeps \(name)'s map in memory until it restarts; restart it, \
                        or delete users on the page (Settings → Administration), which the server forgets at once\n
                        """.utf8))
                }
            }
            defer { withExtendedLifetime(hold) {} }
            // The same deletion as the page's and the API's: rows, saved map index, uploaded photos, thumbnails.
            let report = try await UserDeletion(accounts: AccountService(store: store), store: store,
                                                historyIndexDirectory: storeOptions.historyIndexDirectory(option: nil),
                                                photoFolder: PhotoFolder(root: storeOptions.photosDirectory())).delete(userID: user.id)
            for failure in report.failures { FileHandle.standardError.write(Data("warning: not removed: \(failure)\n".utf8)) }
            print("user \(name) and all of their history deleted (\(report.removedFiles.count) files removed)")
        }
    }
}
