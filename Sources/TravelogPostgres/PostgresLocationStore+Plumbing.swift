import Foundation
import Logging
import PostgresNIO
import TravelogStore

extension PostgresLocationStore {
    /// Runs one query and reads all its rows, mapping failures to `StoreError.database`.
    func rows(_ operation: String, _ query: PostgresQuery) async throws(StoreError) -> [PostgresRow] {
        do {
            return try await withLease { connection in try await connection.run(query, logger: logger).collect() }
        } catch {
            throw Self.storeError(error, operation)
        }
    }

    /// Runs `body` in one transaction (committed when it returns, rolled back when it throws),
    /// mapping failures to `StoreError.database`; a `StoreError` it throws comes out unchanged.
    func transaction<T: Sendable>(_ operation: String,
                                  _ body: (PostgresConnection) async throws -> T) async throws(StoreError) -> T {
        do {
            return try await withLease { connection in
                try await Self.inTransaction(connection, logger: logger, body)
            }
        } catch {
            throw Self.storeError(error, operation)
        }
    }

    /// Decodes a row's columns, mapping a failure to `StoreError.database`.
    static func decode<each Column: PostgresDecodable>(_ row: PostgresRow?, as type: (repeat each Column).Type,
                                                       _ operation: String) throws(StoreError) -> (repeat each Column) {
        guard let row else { throw .database(operation: operation, message: "the server returned no row") }
        do {
            return try row.decode(type)
        } catch {
            throw .database(operation: operation, message: message(error))
        }
    }

    /// Decodes one column of a row (counting from 0), mapping a failure to `StoreError.database`.
    static func decode<Value: PostgresDecodable>(_ row: PostgresRow, column: Int, as type: Value.Type,
                                                 _ operation: String) throws(StoreError) -> Value {
        do {
            return try row.makeRandomAccess()[column].decode(type)
        } catch {
            throw .database(operation: operation, message: message(error))
        }
    }

    /// The `StoreError` for a failure: a `StoreError` as it is (also from inside a transaction),
    /// anything else as `.database` with the server's message.
    static func storeError(_ error: any Error, _ operation: String) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? PostgresTransactionError {
            if let inner = error.closureError ?? error.commitError ?? error.beginError { return storeError(inner, operation) }
        }
        return .database(operation: operation, message: message(error))
    }

    /// Whether the server refused a row for a unique constraint (SQLSTATE 23505).
    static func isUniqueViolation(_ error: any Error) -> Bool {
        if let error = error as? PostgresTransactionError, let inner = error.closureError { return isUniqueViolation(inner) }
        return (error as? PSQLError)?.serverInfo?[.sqlState] == "23505"
    }

    /// A readable message: the server's own when it sent one (PSQLError's description hides it).
    static func message(_ error: any Error) -> String {
        if let error = error as? PostgresTransactionError, let inner = error.closureError ?? error.commitError ?? error.beginError {
            return message(inner)
        }
        if let error = error as? PSQLError {
            if let serverMessage = error.serverInfo?[.message] {
                return serverMessage + (error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? "")
            }
            return "\(error.code)" + (error.underlying.map { ": \($0)" } ?? "")
        }
        return String(describing: error)
    }
}
