import ArgumentParser
import Foundation
import TravelogPostgres
import TravelogSQLite
import TravelogStore
import TravelogTrackCLI

/// Where the data lives: `--db PATH` (a SQLite file, or a `postgres://` address for PostgreSQL),
/// else `$TRAVELOG_DB`, else the XDG data directory.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The database file, or a PostgreSQL server as postgres://user:password@host:port/database[?sslmode=disable|require].",
        discussion: "Default: $TRAVELOG_DB, else $XDG_DATA_HOME/travelog/travelog.sqlite (~/.local/share/… when unset).",
        valueName: "path"))
    var db: String?

    /// The database path after applying the defaults.
    var databasePath: String {
        Self.resolvePath(option: db, environment: ProcessInfo.processInfo.environment)
    }

    static func resolvePath(option: String?, environment: [String: String]) -> String {
        DefaultDatabasePath.resolve(option: option, environment: environment)
    }

    /// The database for messages: the file's path, or the server's address without its password.
    var databaseDescription: String {
        let location = databasePath
        guard PostgresConnectionURL.isPostgresURL(location) else { return location }
        return (try? PostgresConnectionURL(location).description) ?? "a PostgreSQL server"
    }

    /// Where the server saves its history tile indices (`option`: `travelog serve --history-index-dir`):
    /// else a folder next to a SQLite database (`travelog.sqlite` → `travelog.sqlite-history-index/`),
    /// and for PostgreSQL one per database and schema in the data directory
    /// (`$XDG_DATA_HOME/travelog/history-index/postgres-HOST-PORT-DATABASE[-SCHEMA]/`): each server
    /// process keeps the indices on its own disk, checked against the database when it starts.
    func historyIndexDirectory(option: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let option, !option.isEmpty { return URL(fileURLWithPath: option) }
        let location = databasePath
        guard PostgresConnectionURL.isPostgresURL(location) else { return URL(fileURLWithPath: location + "-history-index") }
        guard let url = try? PostgresConnectionURL(location) else { return nil }
        let name = (["postgres", url.host, String(url.port), url.database] + (url.schema.map { [$0] } ?? []))
            .joined(separator: "-")
            .map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" }
        return URL(fileURLWithPath: DefaultDatabasePath.dataDirectory(environment: environment))
            .appendingPathComponent("history-index").appendingPathComponent(String(name))
    }

    /// Opens (creating or migrating when needed) the store: PostgreSQL for a `postgres://` address,
    /// else the SQLite file. The migrations an older version's SQLite database gets are told to
    /// `note` (standard error by default); a newer version's database is refused, unchanged.
    func openStore(note: (String) -> Void = { FileHandle.standardError.write(Data("note: \($0)\n".utf8)) }) async throws -> any TravelogStore {
        let location = databasePath
        if PostgresConnectionURL.isPostgresURL(location) {
            let store = try await PostgresLocationStore(url: PostgresConnectionURL(location))
            if !store.upgrade.isEmpty {
                note("\(store.url) was written by an older Travelog: applied the migrations \(store.upgrade.joined(separator: ", "))")
            }
            return store
        }
        let store = try SQLiteLocationStore(path: location)
        if let upgrade = store.upgrade {
            note("\(location) was written by an older Travelog: applied the migrations \(upgrade.applied.joined(separator: ", "))")
        }
        return store
    }
}

/// Whose history a command works on.
struct AccountOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The user whose history this is.",
        discussion: "Default: $TRAVELOG_USER, else the only user in the database; a new database gets a user named after your login.",
        valueName: "name"))
    var user: String?

    /// The user named by `--user` or the defaults; creates the first user of an empty database when
    /// `createIfEmpty` is set.
    func resolveUser(in store: any TravelogStore, createIfEmpty: Bool) async throws -> User {
        let environment = ProcessInfo.processInfo.environment
        if let name = user ?? environment["TRAVELOG_USER"].flatMap({ $0.isEmpty ? nil : $0 }) {
            if let found = try await store.user(named: name) { return found }
            if createIfEmpty, try await store.users().isEmpty { return try await store.addUser(named: name) }
            throw CLIError.noSuchUser(name)
        }
        let users = try await store.users()
        switch users.count {
        case 1: return users[0]
        case 0 where createIfEmpty:
            return try await store.addUser(named: environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "me")
        case 0: throw CLIError.noUsers
        default: throw CLIError.severalUsers(users.map(\.name))
        }
    }
}

extension AccountOptions {
    /// The user's devices with these names (all of them when `names` is empty).
    /// - Throws: `CLIError.noSuchDevice` for a name the user has no device for.
    func devices(named names: [String], of user: User, in store: any TravelogStore) async throws -> [Device] {
        let devices = try await store.devices(userID: user.id)
        guard !names.isEmpty else { return devices }
        for name in names where !devices.contains(where: { $0.name == name }) { throw CLIError.noSuchDevice(name) }
        return devices.filter { names.contains($0.name) }
    }
}

/// Why a command could not do what was asked (printed as `Error: …`).
enum CLIError: Error, CustomStringConvertible {
    case noSuchUser(String)
    case noUsers
    case severalUsers([String])
    case noSuchDevice(String)
    case invalidDate(String)

    var description: String {
        switch self {
        case .noSuchUser(let name): "no user named '\(name)' (add one with `travelog user add \(name)`)"
        case .noUsers: "the database has no users yet: import something, or add one with `travelog user add NAME`"
        case .severalUsers(let names): "the database has several users (\(names.joined(separator: ", "))): choose one with --user"
        case .noSuchDevice(let name): "no device named '\(name)' for this user"
        case .invalidDate(let text): "'\(text)' is not a date: expected YYYY-MM-DD or an ISO 8601 time such as 2024-05-01T08:00:00Z"
        }
    }
}
