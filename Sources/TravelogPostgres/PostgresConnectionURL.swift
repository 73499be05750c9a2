import Foundation
import NIOSSL
import PostgresNIO
import TravelogStore

/// A `postgres://user:password@host:port/database?sslmode=…&schema=…` address, as `--db` and
/// `TRAVELOG_TEST_POSTGRES_URL` take it, turned into PostgresNIO's client configuration.
///
/// `sslmode` is `disable`, `prefer` (the default: TLS when the server offers it) or `require`;
/// `schema` keeps Travelog's tables in a schema of their own (created when missing) instead of the
/// user's default one; the port defaults to 5432, the user to `postgres`, the database to the
/// user's name.
public struct PostgresConnectionURL: Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    public var tlsMode: String
    public var schema: String?

    /// Whether `text` is meant as a PostgreSQL address (rather than a file path).
    public static func isPostgresURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// - Throws: `StoreError.cannotOpen` when the address is not a usable PostgreSQL URL.
    public init(_ text: String) throws(StoreError) {
        guard Self.isPostgresURL(text), let components = URLComponents(string: text),
              let host = components.host, !host.isEmpty else {
            throw .cannotOpen(path: Self.redacted(text), reason: "not a postgres://user@host:port/database address")
        }
        self.host = host
        port = components.port ?? 5432
        username = components.user.flatMap { $0.removingPercentEncoding } ?? "postgres"
        password = components.password.flatMap { $0.removingPercentEncoding }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? username : (path.removingPercentEncoding ?? path)
        tlsMode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
        schema = components.queryItems?.first { $0.name == "schema" }?.value.flatMap { $0.isEmpty ? nil : $0 }
        guard ["disable", "prefer", "require"].contains(tlsMode) else {
            throw .cannotOpen(path: Self.redacted(text), reason: "sslmode must be disable, prefer or require, not '\(tlsMode)'")
        }
    }

    /// The address without its password, for messages and logs.
    public var description: String {
        let parameters = (tlsMode == "prefer" ? [] : ["sslmode=\(tlsMode)"]) + (schema.map { ["schema=\($0)"] } ?? [])
        return "postgres://\(username)@\(host):\(port)/\(database)" + (parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&"))
    }

    /// The client configuration; `searchPath` (a schema) is set on every connection when given.
    /// JIT compilation is off on every connection: the store's queries read one user's rows
    /// through an index, and a read of a long history (millions of rows) is costed high enough that
    /// PostgreSQL compiled its expressions first (20 functions, before the first row) for a read
    /// whose time goes into sending the rows.
    public func clientConfiguration(searchPath: String? = nil) -> PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS = switch tlsMode {
        case "disable": .disable
        case "require": .require(.makeClientConfiguration())
        default: .prefer(.makeClientConfiguration())
        }
        var configuration = PostgresClient.Configuration(host: host, port: port, username: username,
                                                         password: password, database: database, tls: tls)
        configuration.options.additionalStartupParameters = [("jit", "off")]
        if let searchPath {
            configuration.options.additionalStartupParameters.append(("search_path", searchPath))
        }
        return configuration
    }

    /// `text` with any password replaced by `***`.
    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? text
    }
}
